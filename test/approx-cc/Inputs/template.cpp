// @approx:static_transform transform_type=loop_perforate knob_val=2
template <typename T> T sum(const T *a, int n) {
  T s = 0;
  for (int i = 0; i < n; i++)
    s += a[i];
  return s;
}
int use(const int *a, int n) { return sum(a, n); }
