#include "scale.h"
// @approx:loop_perforate thresholds=[10] decisions=[0, 2]
long scaled_sum(const int *a, int n, int state) {
  long s = 0;
  for (int i = 0; i < n; i++)
    s += SCALE * a[i] * FACTOR;
  return s;
}
