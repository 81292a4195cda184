#include "inline_knob.h"
#include <cstdio>
int from_a(int n);
int main() {
  std::printf("%d %d %g\n", from_a(10), count_every(6), twice(1.5));
  return 0;
}
