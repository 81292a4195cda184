// The caller of abi-attributes.c, compiled by another compiler (gcc -O2).
#include <stdio.h>

struct big { double a, b, c, d; };
double sum(struct big s);
double scaled_total(struct big s, short k, const double *x, int n);
_Bool positive(short x);
signed char clamp8(int v);
struct big make(double v);

int main(void) {
  double x[100];
  for (int i = 0; i < 100; i++)
    x[i] = i % 7;
  struct big s = {1, 2, 3, 4};
  struct big t = make(2.5);
  printf("%g %d %d %d %d %g %g\n", sum(s), positive(5), positive(-3),
         clamp8(300), clamp8(-300), t.c, scaled_total(s, -2, x, 100));
  return 0;
}
