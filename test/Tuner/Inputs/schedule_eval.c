/* The evaluation program of test/Tuner/schedule-space.test: times mean()
 * and other() (Inputs/schedule.mlir, built with the configuration) and
 * scores them against their exact values (1 - mean relative error). */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>

double mean(int64_t n);
double other(int64_t n);

static double exact_mean(int64_t n, int a, int m) {
  double s = 0;
  for (int64_t i = 0; i < n; ++i)
    s += (double)((i * a) % m);
  return s / (double)n;
}

int main(void) {
  const int64_t n = 3000001;
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  double a = 0, b = 0;
  for (int r = 0; r < 5; ++r) {
    a += mean(n);
    b += other(n);
  }
  clock_gettime(CLOCK_MONOTONIC, &t1);
  a /= 5;
  b /= 5;
  double ea = exact_mean(n, 7, 13), eb = exact_mean(n, 5, 11);
  double err = (fabs(a - ea) / ea + fabs(b - eb) / eb) / 2;
  double qos = err < 1 ? 1 - err : 0;
  printf("approx-result: time=%.9f qos=%.9f\n",
         (t1.tv_sec - t0.tv_sec) + 1e-9 * (t1.tv_nsec - t0.tv_nsec), qos);
  return 0;
}
