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

static double median(double *t, int n) {
  for (int i = 1; i < n; ++i)
    for (int j = i; j > 0 && t[j] < t[j - 1]; --j) {
      double x = t[j];
      t[j] = t[j - 1];
      t[j - 1] = x;
    }
  return t[n / 2];
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

/* Exact and approximate calls alternate, so that both medians see the same
 * machine load. */
enum { kReps = 9 };
static void measure(int64_t n, int32_t pending, double *exact, double *approx,
                    double *tExact, double *tApprox) {
  double te[kReps], ta[kReps];
  for (int r = 0; r < kReps; ++r) {
    setDecisions(1);
    double t0 = seconds();
    *exact = integrate(n, pending);
    double t1 = seconds();
    setDecisions(0);
    *approx = integrate(n, pending);
    double t2 = seconds();
    te[r] = t1 - t0;
    ta[r] = t2 - t1;
  }
  *tExact = median(te, kReps);
  *tApprox = median(ta, kReps);
}

int main(void) {
  const int64_t n = 20000000;
  const int32_t loads[] = {0, 2, 5, 7, 12, 40};
  printf("pi by the midpoint rule, n = %lld; knob 'integrate' perforates the "
         "loop by load\n\n",
         (long long)n);
  printf("| pending | exact result | approx result | QoS (L2 acc.) | exact ms "
         "| approx ms | speedup |\n|---|---|---|---|---|---|---|\n");
  for (size_t i = 0; i < sizeof loads / sizeof *loads; ++i) {
    double exact, approx, te, ta;
    measure(n, loads[i], &exact, &approx, &te, &ta);
    double qos = 1.0 - fabs(exact - approx) / fabs(exact);
    printf("| %d | %.12f | %.12f | %.9f | %.2f | %.2f | %.2fx |\n", loads[i],
           exact, approx, qos, 1e3 * te, 1e3 * ta, te / ta);
  }
  return 0;
}
