/* Shared helpers of the execution-test drivers. */
#ifndef APPROX_TEST_CHECK_H
#define APPROX_TEST_CHECK_H
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

static int checks, failures;

/* got must equal the predicted value (up to rounding). */
static void expect_near(const char *what, double got, double want) {
  ++checks;
  if (fabs(got - want) > 1e-9 * (1.0 + fabs(want))) {
    ++failures;
    printf("FAIL %s: got %.12g, predicted %.12g\n", what, got, want);
  }
}

/* The paper's L2 accuracy, 1 - ||exact - approx|| / ||exact||, clamped to
 * [0, 1]. */
static double l2_accuracy(const double *exact, const double *approx, int n) {
  double num = 0, den = 0;
  for (int i = 0; i < n; ++i) {
    num += (exact[i] - approx[i]) * (exact[i] - approx[i]);
    den += exact[i] * exact[i];
  }
  if (den == 0)
    return num == 0 ? 1.0 : 0.0;
  double acc = 1.0 - sqrt(num) / sqrt(den);
  return acc < 0 ? 0 : acc;
}

/* QoS of the approximate outputs must be at least `bound`. */
static void expect_qos(const char *what, const double *exact,
                       const double *approx, int n, double bound) {
  ++checks;
  double q = l2_accuracy(exact, approx, n);
  printf("%s: qos=%.6f (bound %.3f)\n", what, q, bound);
  if (!(q >= bound && q <= 1.0)) {
    ++failures;
    printf("FAIL %s: qos %.6f below bound %.3f\n", what, q, bound);
  }
}

static int finish(const char *name) {
  if (failures) {
    printf("%s: %d of %d checks FAILED\n", name, failures, checks);
    return 1;
  }
  printf("%s: all %d checks passed\n", name, checks);
  return 0;
}

/* Index of the branch a decision tree takes: thresholds <= state. */
static int branch_of(const int *thresholds, int n, int state) {
  int b = 0;
  for (int i = 0; i < n; ++i)
    b += thresholds[i] <= state;
  return b;
}

/* FNV-1a over an output's bytes, printed: the same bits give the same line
 * whichever build or thread count made them. */
static void digest(const char *what, const void *p, size_t n) {
  uint64_t h = 1469598103934665603ull;
  for (size_t i = 0; i < n; ++i)
    h = (h ^ ((const unsigned char *)p)[i]) * 1099511628211ull;
  printf("%s digest %016llx\n", what, (unsigned long long)h);
}

#endif
