/* Driver of transform-script.mlir: argv[1] = the knob value the build runs
 * with. Predicts mean(n) under that perforation and checks the QoS against
 * the exact mean. */
#include "check.h"
#include <stdint.h>

double mean(int64_t n);

static double predicted_mean(int64_t n, int stride) {
  double sum = 0, cnt = 0;
  for (int64_t i = 0; i < n; i += stride) {
    sum += (double)((i * 7) % 13);
    cnt += 1;
  }
  return sum / cnt;
}

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: %s k\n", argv[0]);
    return 2;
  }
  int k = atoi(argv[1]);
  int stride = k > 1 ? k : 1;
  const int64_t sizes[] = {1, 1000, 4096, 12345, 99991};
  enum { S = sizeof sizes / sizeof *sizes };
  double exact[S], approx[S];
  for (int i = 0; i < S; ++i) {
    char what[64];
    exact[i] = predicted_mean(sizes[i], 1);
    approx[i] = mean(sizes[i]);
    snprintf(what, sizeof what, "mean(%lld)", (long long)sizes[i]);
    expect_near(what, approx[i], predicted_mean(sizes[i], stride));
  }
  expect_qos("mean", exact, approx, S, 0.95);
  return finish("transform_script");
}
