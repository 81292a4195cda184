int use(const int *a, int n) {
  auto f = [&](int m) {
    int s = 0;
    // @approx:static_transform transform_type=loop_perforate knob_val=2
    for (int i = 0; i < m; i++)
      s += a[i];
    return s;
  };
  return f(n);
}
