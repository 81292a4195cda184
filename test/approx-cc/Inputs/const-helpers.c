// Defined apart, with a counter the caller's `const`/`pure` declarations do
// not admit: the count shows whether the caller hoisted the calls.
int scale_calls, length_calls;
double scale(double c) { scale_calls++; return 2 * c; }
unsigned long length(const char *p) {
  length_calls++;
  unsigned long n = 0;
  while (p[n])
    n++;
  return n;
}
