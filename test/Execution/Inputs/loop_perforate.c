/* Driver: argv = t0 t1 d0 d1 d2, the configuration the program was built
 * (or is run) with. Predicts every result independently and checks it. */
#include "check.h"
#include <stdint.h>

double mean_for(int64_t n, int32_t state);
double mean_while(int32_t n, int32_t state);

static double predicted_mean(int n, int stride) {
  double sum = 0, cnt = 0;
  for (int i = 0; i < n; i += stride) {
    sum += (double)((i * 7) % 13);
    cnt += 1;
  }
  return sum / cnt;
}

int main(int argc, char **argv) {
  if (argc != 6) {
    fprintf(stderr, "usage: %s t0 t1 d0 d1 d2\n", argv[0]);
    return 2;
  }
  int t[2] = {atoi(argv[1]), atoi(argv[2])};
  int d[3] = {atoi(argv[3]), atoi(argv[4]), atoi(argv[5])};
  const int n = 100000;
  const int states[] = {0, 2, 3, 9, 10, 15, 20, 29, 30, 35};
  enum { S = sizeof states / sizeof *states };
  double exact[S], approxFor[S], approxWhile[S];
  for (int i = 0; i < S; ++i) {
    int k = d[branch_of(t, 2, states[i])];
    int stride = k > 1 ? k : 1;
    char what[64];
    exact[i] = predicted_mean(n, 1);
    approxFor[i] = mean_for(n, states[i]);
    approxWhile[i] = mean_while(n, states[i]);
    snprintf(what, sizeof what, "mean_for(state=%d)", states[i]);
    expect_near(what, approxFor[i], predicted_mean(n, stride));
    snprintf(what, sizeof what, "mean_while(state=%d)", states[i]);
    expect_near(what, approxWhile[i], predicted_mean(n, stride));
    printf("state=%2d k=%d mean_for=%.9f mean_while=%.9f exact=%.9f\n",
           states[i], k, approxFor[i], approxWhile[i], exact[i]);
  }
  expect_qos("mean_for", exact, approxFor, S, 0.95);
  expect_qos("mean_while", exact, approxWhile, S, 0.95);
  return finish("loop_perforate");
}
