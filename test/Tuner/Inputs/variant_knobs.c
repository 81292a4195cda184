/* The evaluation program of test/Tuner/variant-knobs.test: times mean()
 * (Inputs/variant-knobs.mlir, its runtime-table build) and scores it
 * against the exact mean (1 - relative error). */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>

double mean(int64_t n);

int main(void) {
  const int64_t n = 1000003;
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  double m = mean(n);
  clock_gettime(CLOCK_MONOTONIC, &t1);
  double s = 0;
  for (int64_t i = 0; i < n; ++i)
    s += (double)((i * 7) % 13);
  double exact = s / (double)n, err = fabs(m - exact) / exact;
  printf("mean=%.17g\n", m);
  printf("approx-result: time=%.9f qos=%.9f\n",
         (t1.tv_sec - t0.tv_sec) + 1e-9 * (t1.tv_nsec - t0.tv_nsec),
         err < 1 ? 1 - err : 0);
  return 0;
}
