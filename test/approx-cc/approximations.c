// Perforated loop (for and while), truncated loop, substituted function, skipped task and a
// safety contract, each printing its result next to the value predicted by a
// plain reference implementation in the same program.
// RUN: approx-cc %s -O2 -o %t
// RUN: %t | FileCheck %s
// The same program built exact prints the exact values in every column.
// RUN: approx-cc %s -O2 --approx-exact -DEXACT -o %t.exact
// RUN: %t.exact | FileCheck %s
// Runtime-table build with a configuration file: same as baked with it.
// RUN: approx-cc %s -O2 --approx-runtime-table -o %t.rt
// RUN: env APPROX_CONFIG=%S/Inputs/approximations.json %t.rt > %t.rt.out
// RUN: approx-cc %s -O2 --approx-config=%S/Inputs/approximations.json -o %t.baked
// RUN: %t.baked > %t.baked.out
// RUN: diff %t.rt.out %t.baked.out

#include <math.h>
#include <stdio.h>

#ifdef EXACT
#define K(k) 0
#else
#define K(k) (k)
#endif

static double mean_ref(const double *x, int n, int stride) {
  double s = 0;
  int c = 0;
  for (int i = 0; i < n; i += stride > 0 ? stride : 1) {
    s += x[i];
    ++c;
  }
  return s / c;
}

// @approx:loop_perforate thresholds=[10] decisions=[0, 4]
double mean(const double *x, int n, int load) {
  double s = 0;
  int c = 0;
  for (int i = 0; i < n; i++) {
    s += x[i];
    ++c;
  }
  return s / c;
}

// while loop with the bound re-read through a pointer: stays scf.while
// @approx:static_transform transform_type=loop_perforate knob_val=3
long count_down(const int *bound) {
  long s = 0;
  int i = 0;
  while (i < *bound) {
    s += i;
    i++;
  }
  return s;
}

// The first quarter of the samples (ceil(n/4) of them).
// @approx:loop_truncate_end knob_val=4
double head_mean(const double *x, int n) {
  double s = 0;
  int c = 0;
  for (int i = 0; i < n; i++) {
    s += x[i];
    ++c;
  }
  return s / c;
}

static double newton(double x, int steps) {
  double y = x;
  for (int i = 0; i < steps; i++)
    y = 0.5 * (y + x / y);
  return y;
}
double approx_root_1(double x, int quality) { return newton(x, 3); }

// @approx:func_substitute thresholds=[50] decisions=[1, 0] state_indices=[1]
double root(double x, int quality) { return newton(x, 30); }

// @approx:task_skipping knob_val=2
double refine(double x, int flag) {
  double r;
  if (flag)
    r = newton(x, 30);
  else
    r = x / 2;
  return r;
}

// A cheap guess, checked; the exact square root recovers when it is off.
double approx_guarded_root_1(double x) { return 0.5 * (1.0 + x); }
_Bool root_ok(double r, double x) { return fabs(r * r - x) <= 0.01 * x; }
double exact_root(double x) { return sqrt(x); }
// @approx:func_substitute knob_val=1
// @approx:safety_contract checker=root_ok recover=exact_root
double guarded_root(double x) { return sqrt(x); }

int checks_failed;
static void show(const char *what, double got, double want) {
  int ok = fabs(got - want) <= 1e-12 * (1 + fabs(want));
  checks_failed += !ok;
  printf("%s %s got=%.9f predicted=%.9f\n", ok ? "ok" : "MISMATCH", what, got, want);
}

int main(void) {
  double x[1000];
  for (int i = 0; i < 1000; i++)
    x[i] = sin(i * 0.1) + 2;
  show("mean load=3", mean(x, 1000, 3), mean_ref(x, 1000, 1));
  show("mean load=30", mean(x, 1000, 30), mean_ref(x, 1000, K(4)));
  show("head_mean", head_mean(x, 999), mean_ref(x, K(4) ? 250 : 999, 1));
  int bound = 100;
  long want = 0;
  for (int i = 0; i < bound; i += K(3) ? K(3) : 1)
    want += i;
  show("count_down", count_down(&bound), want);
  show("root quality=10", root(2.0, 10), K(1) ? newton(2.0, 3) : newton(2.0, 30));
  show("root quality=90", root(2.0, 90), newton(2.0, 30));
  show("refine", refine(9.0, 1), K(2) ? 4.5 : newton(9.0, 30));
  show("guarded_root(1.02)", guarded_root(1.02),
       K(1) ? approx_guarded_root_1(1.02) : sqrt(1.02));
  show("guarded_root(9)", guarded_root(9.0), 3.0);
  printf("failed %d\n", checks_failed);
  return 0; // the checks are read by FileCheck; config runs differ on purpose
}

// CHECK-NOT: MISMATCH
// CHECK: failed 0
