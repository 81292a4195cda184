/* Driver: argv = t0 d0 d1, the configuration every knob of the program was
 * built (or is run) with. Predicts the truncated results exactly and checks
 * random skipping statistically; QoS of the means against the exact loop. */
#include "check.h"
#include <stdint.h>

typedef struct {
  double sum, cnt;
} SumCount;

SumCount sum_end(int64_t n, int32_t state);
SumCount sum_start(int64_t n, int32_t state);
SumCount sum_random(int32_t n, int32_t state);

/* The iterations j in [first, first + count) of i = 5 + 3j. */
static SumCount predicted(int first, int count) {
  SumCount r = {0, 0};
  for (int j = first; j < first + count; ++j) {
    int i = 5 + 3 * j;
    r.sum += (double)((i * 7) % 13);
    r.cnt += 1;
  }
  return r;
}

int main(int argc, char **argv) {
  if (argc != 4) {
    fprintf(stderr, "usage: %s t0 d0 d1\n", argv[0]);
    return 2;
  }
  int t[1] = {atoi(argv[1])};
  int d[2] = {atoi(argv[2]), atoi(argv[3])};
  const int n = 300005;
  const int trips = (n - 5 + 2) / 3; /* ceil((n - 5) / 3) */
  const int states[] = {0, 4, 5, 9, 10, 30};
  enum { S = sizeof states / sizeof *states };
  double exact[S], end[S], start[S], rnd[S];
  for (int s = 0; s < S; ++s) {
    int k = d[branch_of(t, 1, states[s])];
    int div = k > 1 ? k : 1;
    int keep = (trips + div - 1) / div;
    char what[64];
    SumCount e = predicted(0, trips);
    SumCount a = sum_end(n, states[s]);
    SumCount b = sum_start(n, states[s]);
    SumCount r = sum_random(n, states[s]);
    SumCount r2 = sum_random(n, states[s]);
    SumCount pe = predicted(0, keep), ps = predicted(trips - keep, keep);
    snprintf(what, sizeof what, "sum_end(state=%d) sum", states[s]);
    expect_near(what, a.sum, pe.sum);
    snprintf(what, sizeof what, "sum_end(state=%d) count", states[s]);
    expect_near(what, a.cnt, pe.cnt);
    snprintf(what, sizeof what, "sum_start(state=%d) sum", states[s]);
    expect_near(what, b.sum, ps.sum);
    snprintf(what, sizeof what, "sum_start(state=%d) count", states[s]);
    expect_near(what, b.cnt, ps.cnt);
    /* Random skipping: deterministic, and ~trips/k iterations (within 5 %,
     * over 9 standard deviations at k <= 8). */
    snprintf(what, sizeof what, "sum_random(state=%d) repeatable", states[s]);
    expect_near(what, r.sum, r2.sum);
    ++checks;
    double want = (double)trips / div;
    if (div == 1 ? r.cnt != trips : fabs(r.cnt - want) > 0.05 * want) {
      ++failures;
      printf("FAIL sum_random(state=%d): %.0f iterations, expected ~%.0f\n",
             states[s], r.cnt, want);
    }
    exact[s] = e.sum / e.cnt;
    end[s] = a.sum / a.cnt;
    start[s] = b.sum / b.cnt;
    rnd[s] = r.sum / r.cnt;
    printf("state=%2d k=%d end=%.6f start=%.6f random=%.6f (%.0f of %d) "
           "exact=%.6f\n",
           states[s], k, end[s], start[s], rnd[s], r.cnt, trips, exact[s]);
  }
  expect_qos("loop_truncate_end", exact, end, S, 0.95);
  expect_qos("loop_truncate_start", exact, start, S, 0.95);
  expect_qos("loop_random_skip", exact, rnd, S, 0.95);
  return finish("loop_modes");
}
