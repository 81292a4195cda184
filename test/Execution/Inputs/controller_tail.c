/* The runtime controller's percentile goal (approx_controller.h) on a
 * simulated plant whose units vary with their input: a unit at frontier
 * point p takes speed * 10 ms * r(p) * e, e log-normal (sigma SIGMA, median
 * 1, seeded), the machine's speed stepping from 1 to 2 (half as fast) and
 * back, 200 units each. Prints per phase the share of units that missed
 * the target (leaving out the 10 units after each change), the point used
 * most, the tail factor at the phase's end, the point changes and the unit
 * of the last one. With TIMES (comma-separated, one per point) the plant's
 * r(p) are those instead of the frontier's (a frontier tuned on other
 * inputs), and the model's learnt times are printed at the end.
 *
 *   controller_tail FRONTIER.csv TARGET_SECONDS SIGMA PERCENTILE [TIMES] */
#include "approx_controller.h"
#include "approx_runtime.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

static uint64_t state = 0x2545F4914F6CDD1Dull;
static double uniform(void) { /* xorshift64*, in (0, 1) */
  state ^= state >> 12, state ^= state << 25, state ^= state >> 27;
  return ((double)((state * 2685821657736338717ull) >> 11) + 0.5) * 0x1.0p-53;
}

int main(int argc, char **argv) {
  if (argc != 5 && argc != 6)
    return 2;
  approx_ctl_goal goal = approx_ctl_defaults();
  goal.target_seconds = atof(argv[2]);
  goal.check_params = 0;
  goal.percentile = atof(argv[4]);
  double sigma = atof(argv[3]);
  approx_ctl *c = approx_ctl_open(argv[1], &goal);
  if (!c) {
    fprintf(stderr, "controller_tail: error: %s\n", approx_rt_last_error());
    return 1;
  }
  size_t n = approx_ctl_num_points(c);
  double times[16];
  for (size_t p = 0; p < n && p < 16; ++p)
    times[p] = approx_ctl_point_relative_time(c, p);
  if (argc == 6) {
    char *s = argv[5];
    for (size_t p = 0; p < n && p < 16; ++p, ++s)
      times[p] = strtod(s, &s);
  }
  const double speeds[3] = {1, 2, 1};
  enum { Units = 200, Skip = 10 };
  for (int phase = 0; phase < 3; ++phase) {
    int misses = 0, used[16] = {0}, changes = 0, last = 0, before = approx_ctl_point(c);
    for (int i = 0; i < Units; ++i) {
      int p = approx_ctl_begin(c);
      if (p != before) {
        changes++;
        last = i;
        before = p;
      }
      /* Box-Muller: a standard normal draw. */
      double z = sqrt(-2 * log(uniform())) * cos(6.283185307179586 * uniform());
      double t = speeds[phase] * 0.010 * times[p < 16 ? p : 15] * exp(sigma * z);
      int missed = approx_ctl_end_with(c, t);
      if (i >= Skip) {
        misses += missed;
        used[p < 16 ? p : 15]++;
      }
    }
    int most = 0;
    for (int p = 1; p < 16; ++p)
      if (used[p] > used[most])
        most = p;
    printf("phase %d: speed %g, miss rate %.3f, mostly point %d, tail factor %.2f, changes %d, "
           "last at unit %d\n",
           phase, speeds[phase], (double)misses / (Units - Skip), most, approx_ctl_tail_factor(c),
           changes, last);
  }
  if (argc == 6) {
    printf("model times:");
    for (size_t p = 0; p < n; ++p)
      printf(" %.3f", approx_ctl_point_model_time(c, p));
    printf("\n");
  }
  approx_ctl_close(c);
  return 0;
}
