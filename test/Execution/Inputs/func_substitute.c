/* Driver for func-substitute.mlir; argv[1] == "exact" for an exact build. */
#include "check.h"
#include <stdint.h>
#include <string.h>

double root(double x, int32_t state);
double total(int32_t n, int32_t state);

/* Approximate variants, bound by name: fewer Newton steps. */
static double newton(double x, int steps) {
  double y = x;
  for (int i = 0; i < steps; ++i)
    y = 0.5 * (y + x / y);
  return y;
}
double approx_root_1(double x, int32_t state) { return newton(x, 6); }
double approx_root_2(double x, int32_t state) { return newton(x, 4); }

/* The exact weight and its cheap stand-in (a truncated series). */
double weight(int32_t i) { return 1.0 / (1.0 + i) + 1.0 / ((1.0 + i) * (2.0 + i)); }
double approx_weight_1(int32_t i) { return 1.0 / (1.0 + i); }

int main(int argc, char **argv) {
  int exactBuild = argc > 1 && strcmp(argv[1], "exact") == 0;
  const int rootThresholds[] = {5, 10};
  const int states[] = {0, 4, 5, 9, 10, 60};
  enum { S = sizeof states / sizeof *states };
  double exact[S], approx[S];
  for (int i = 0; i < S; ++i) {
    double x = 2.0 + 3.0 * i;
    int k = exactBuild ? 0 : branch_of(rootThresholds, 2, states[i]);
    double want = k == 0 ? newton(x, 40) : newton(x, k == 1 ? 6 : 4);
    char what[64];
    snprintf(what, sizeof what, "root(%g, state=%d)", x, states[i]);
    exact[i] = newton(x, 40);
    approx[i] = root(x, states[i]);
    expect_near(what, approx[i], want);
  }
  expect_qos("root", exact, approx, S, exactBuild ? 1.0 : 0.9);

  double totalExact[S], totalApprox[S];
  for (int i = 0; i < S; ++i) {
    int n = 1000;
    int useApprox = !exactBuild && states[i] >= 50;
    double want = 0, ref = 0;
    for (int j = 0; j < n; ++j) {
      want += useApprox ? approx_weight_1(j) : weight(j);
      ref += weight(j);
    }
    char what[64];
    snprintf(what, sizeof what, "total(state=%d)", states[i]);
    totalExact[i] = ref;
    totalApprox[i] = total(n, states[i]);
    expect_near(what, totalApprox[i], want);
  }
  expect_qos("total", totalExact, totalApprox, S, exactBuild ? 1.0 : 0.8);
  return finish("func_substitute");
}
