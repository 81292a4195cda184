#include "check.h"
#include <stdbool.h>

double root(double x);

static int recoveries;

/* A cheap guess, good only near 1 (first-order Taylor). */
double approx_root_1(double x) { return 0.5 * (1.0 + x); }
/* Accept when the square is within 1% of x. */
bool root_ok(double r, double x) { return fabs(r * r - x) <= 0.01 * x; }
double root_exact(double x) {
  ++recoveries;
  return sqrt(x);
}

int main(void) {
  const double xs[] = {1.0, 1.05, 0.98, 4.0, 9.0, 100.0};
  enum { X = sizeof xs / sizeof *xs };
  double exact[X], approx[X];
  int wantRecoveries = 0;
  for (int i = 0; i < X; ++i) {
    double guess = approx_root_1(xs[i]);
    int ok = root_ok(guess, xs[i]);
    wantRecoveries += !ok;
    char what[64];
    snprintf(what, sizeof what, "root(%g)", xs[i]);
    exact[i] = sqrt(xs[i]);
    approx[i] = root(xs[i]);
    expect_near(what, approx[i], ok ? guess : sqrt(xs[i]));
  }
  expect_near("recoveries", recoveries, wantRecoveries);
  expect_qos("root", exact, approx, X, 0.99);
  return finish("safety_contract");
}
