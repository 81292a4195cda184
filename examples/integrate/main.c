/* Runs the load-adaptive integration exactly and approximately, side by
 * side. The program is built once in runtime-table mode: the exact runs set
 * every decision to 0 through the runtime API, the approximate runs use the
 * configuration compiled in (or the one in APPROX_CONFIG). */
#include "approx_runtime.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>

double integrate(int64_t n, int32_t pending);

static double seconds(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + 1e-9 * ts.tv_nsec;
}

/* Median time of `reps` calls, and the result. */
static double timed(int64_t n, int32_t pending, int reps, double *result) {
  double t[15];
  for (int r = 0; r < reps; ++r) {
    double t0 = seconds();
    *result = integrate(n, pending);
    t[r] = seconds() - t0;
  }
  for (int i = 1; i < reps; ++i)
    for (int j = i; j > 0 && t[j] < t[j - 1]; --j) {
      double x = t[j];
      t[j] = t[j - 1];
      t[j - 1] = x;
    }
  return t[reps / 2];
}

/* The knob's tunable parameters are integrate_threshold_{0,1} and
 * integrate_decision_{0,1,2}; decision 0 everywhere is the exact program. */
static void setDecisions(int exact) {
  approx_rt_reset();
  if (!exact)
    return;
  for (int j = 0; j < 3; ++j) {
    char name[64];
    snprintf(name, sizeof name, "integrate_decision_%d", j);
    approx_rt_set(name, 0);
  }
}

int main(void) {
  const int64_t n = 20000000;
  const int reps = 7;
  const int32_t loads[] = {0, 2, 5, 7, 12, 40};
  printf("pi by the midpoint rule, n = %lld; knob 'integrate' perforates the "
         "loop by load\n\n",
         (long long)n);
  printf("| pending | exact result | approx result | QoS (L2 acc.) | exact ms "
         "| approx ms | speedup |\n|---|---|---|---|---|---|---|\n");
  for (size_t i = 0; i < sizeof loads / sizeof *loads; ++i) {
    double exact, approx;
    setDecisions(1);
    double te = timed(n, loads[i], reps, &exact);
    setDecisions(0);
    double ta = timed(n, loads[i], reps, &approx);
    double qos = 1.0 - fabs(exact - approx) / fabs(exact);
    printf("| %d | %.12f | %.12f | %.9f | %.2f | %.2f | %.2fx |\n", loads[i],
           exact, approx, qos, 1e3 * te, 1e3 * ta, te / ta);
  }
  return 0;
}
