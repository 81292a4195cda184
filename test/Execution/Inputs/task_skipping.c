#include "check.h"
#include <stdint.h>

double refine(double x, int32_t state);
int32_t classify(int64_t sel);

static double refine_ref(double x, int branch) {
  /* branch: -1 = test x > 1, 0 = then, 1 = else */
  int big = branch < 0 ? x > 1.0 : branch == 0;
  if (!big)
    return x;
  double y = x;
  for (int i = 0; i < 30; ++i)
    y = 0.5 * (y + x / y);
  return y;
}

int main(void) {
  const int thresholds[] = {10, 20};
  const double xs[] = {0.25, 0.5, 2.0, 9.0, 16.0};
  const int states[] = {0, 10, 25};
  enum { X = sizeof xs / sizeof *xs };
  for (int s = 0; s < 3; ++s) {
    int k = branch_of(thresholds, 2, states[s]); /* decisions = 0, 1, 2 */
    double exact[X], approx[X];
    for (int i = 0; i < X; ++i) {
      char what[64];
      snprintf(what, sizeof what, "refine(%g, state=%d)", xs[i], states[s]);
      exact[i] = refine_ref(xs[i], -1);
      approx[i] = refine(xs[i], states[s]);
      expect_near(what, approx[i], refine_ref(xs[i], k - 1));
    }
    char what[64];
    snprintf(what, sizeof what, "refine k=%d", k);
    /* k = 1 refines small x too (close); k = 2 skips the costly branch
     * and loses quality on purpose */
    expect_qos(what, exact, approx, X, k == 0 ? 1.0 : k == 1 ? 0.9 : 0.0);
  }
  /* static knob 2: always the second case (value 200) */
  for (int64_t sel = 0; sel < 4; ++sel) {
    char what[64];
    snprintf(what, sizeof what, "classify(%ld)", (long)sel);
    expect_near(what, classify(sel), 200);
  }
  return finish("task_skipping");
}
