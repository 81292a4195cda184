/* The runtime controller's drift monitor (approx_controller.h) on
 * synthetic streams with a known shift. A frontier of three points (the
 * fastest two approximate, the last exact), a target only the fastest
 * meets, and a unit's QoS loss against the exact output drawn per unit:
 * a Bernoulli loss with rate 0.02 on point 0 and 0.01 on point 1 before
 * the shift (unit SHIFT), 0.30 and 0.10 after it, the deployment certified
 * for a mean loss of at most 0.05. Runs STREAMS streams (seeds 1..STREAMS)
 * of UNITS units and prints, over them, the streams that raised an alarm
 * before the shift (false alarms), the units from the shift to the first
 * alarm (median, 90th percentile, the streams that never detect),
 * the points the streams end on, and the shadow units' share.
 *
 * With `continuous`, the loss is continuous instead, uniform on [0, 2 rate]
 * (the same means, a family the monitor's constants were not chosen on).
 *
 * With `screened`, the losses are Bernoulli and the program has a sound but
 * incomplete free check (approx_ctl_clear): a unit whose loss is 0 is
 * cleared with probability 0.9, one whose loss is 1 never; the controller
 * screens (goal.screen = 1), SHADOW_FRACTION of the uncleared units are
 * shadowed, and every unit is an observation of the test.
 *
 * DRIFT_HORIZON=N in the environment makes the monitor a change detector
 * (goal.drift_horizon = N); DRIFT_BEFORE=RATE sets point 0's loss rate
 * before the shift (default 0.02).
 *
 *   drift_sim FRONTIER.csv SHADOW_FRACTION STREAMS UNITS SHIFT
 *             [continuous | screened]
 *   drift_sim FRONTIER.csv errors      the API's errors */
#include "approx_controller.h"
#include "approx_runtime.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t state;
static double draw(void) { /* xorshift64*, uniform in [0, 1) */
  state ^= state >> 12, state ^= state << 25, state ^= state >> 27;
  return (double)((state * 2685821657736338717ull) >> 11) * 0x1.0p-53;
}

static int cmp(const void *a, const void *b) { return *(const int *)a - *(const int *)b; }

static approx_ctl *open(const char *path, double fraction, unsigned seed, int screen) {
  approx_ctl_goal goal = approx_ctl_defaults();
  goal.target_seconds = 0.012; /* only point 0 (10 ms; 20, 40 ms) meets it */
  goal.check_params = 0;
  goal.max_loss = 0.05;
  goal.shadow_fraction = fraction;
  goal.shadow_seed = seed;
  goal.screen = screen;
  if (getenv("DRIFT_HORIZON"))
    goal.drift_horizon = atol(getenv("DRIFT_HORIZON"));
  approx_ctl *c = approx_ctl_open(path, &goal);
  if (!c) {
    fprintf(stderr, "drift_sim: error: %s\n", approx_rt_last_error());
    exit(1);
  }
  return c;
}

int main(int argc, char **argv) {
  if (argc == 3 && !strcmp(argv[2], "errors")) {
    approx_ctl *c = open(argv[1], 1.0, 1, 0);
    printf("early: %d %s\n", approx_ctl_end_exact(c, 0), approx_rt_last_error());
    for (int u = 0; u < 2; ++u) { /* the first on the exact point, never shadowed */
      int p = approx_ctl_begin(c);
      approx_ctl_end_with(c, 0.040 * approx_ctl_point_relative_time(c, (size_t)p));
    }
    printf("due %d on point %d\n", approx_ctl_shadow_due(c), approx_ctl_point(c));
    approx_ctl_begin_exact(c);
    printf("clear in a shadow run: %d %s\n", approx_ctl_clear(c), approx_rt_last_error());
    printf("exact values:");
    for (size_t i = 0; i < approx_ctl_num_params(c); ++i)
      printf(" %s=%d", approx_ctl_param_name(c, i), approx_ctl_exact_value(c, i));
    printf("\nbad loss: %d %s\n", approx_ctl_end_exact(c, 1.5), approx_rt_last_error());
    approx_ctl_close(c);
    approx_ctl_goal goal = approx_ctl_defaults();
    goal.target_seconds = 0.012;
    goal.check_params = 0;
    goal.max_loss = 0.05;
    goal.shadow_fraction = 0;
    printf("open: %s\n", approx_ctl_open(argv[1], &goal) ? "ok" : approx_rt_last_error());
    goal.shadow_fraction = 1;
    goal.screen = 2;
    printf("screen: %s\n", approx_ctl_open(argv[1], &goal) ? "ok" : approx_rt_last_error());
    goal.screen = 0;
    goal.drift_horizon = -1;
    printf("horizon: %s\n", approx_ctl_open(argv[1], &goal) ? "ok" : approx_rt_last_error());
    return 0;
  }
  if (argc != 6 && argc != 7)
    return 2;
  int continuous = argc == 7 && !strcmp(argv[6], "continuous");
  int screened = argc == 7 && !strcmp(argv[6], "screened");
  double fraction = atof(argv[2]);
  int streams = atoi(argv[3]), units = atoi(argv[4]), shift = atoi(argv[5]);
  const double before[2] = {getenv("DRIFT_BEFORE") ? atof(getenv("DRIFT_BEFORE")) : 0.02, 0.01},
               after[2] = {0.30, 0.10};
  int falseAlarms = 0, ends[3] = {0, 0, 0};
  int *delays = calloc((size_t)streams, sizeof *delays);
  long shadows = 0, total = 0;
  for (int s = 0; s < streams; ++s) {
    state = 0x2545F4914F6CDD1Dull * (uint64_t)(s + 1);
    approx_ctl *c = open(argv[1], fraction, (unsigned)s + 1, screened);
    int detected = -1, falseAlarm = 0;
    for (int u = 0; u < units; ++u) {
      int p = approx_ctl_begin(c);
      approx_ctl_end_with(c, 0.040 * approx_ctl_point_relative_time(c, (size_t)p));
      double rate = (u < shift ? before : after)[p < 2 ? p : 1], loss = -1;
      if (screened && p < 2) { /* the check sees every unit on an approximate point */
        loss = draw() < rate ? 1.0 : 0.0;
        if (loss == 0 && draw() < 0.9)
          approx_ctl_clear(c);
      }
      if (!approx_ctl_shadow_due(c))
        continue;
      approx_ctl_begin_exact(c);
      if (loss < 0)
        loss = continuous ? 2 * rate * draw() : draw() < rate ? 1.0 : 0.0;
      if (approx_ctl_end_exact(c, loss) == 1) {
        if (u < shift)
          falseAlarm = 1;
        else if (detected < 0)
          detected = u - shift;
      }
    }
    falseAlarms += falseAlarm;
    delays[s] = detected < 0 ? units : detected;
    ends[approx_ctl_point(c)]++;
    shadows += approx_ctl_shadow_units(c);
    total += approx_ctl_units(c);
    approx_ctl_close(c);
  }
  qsort(delays, (size_t)streams, sizeof *delays, cmp);
  printf("streams %d: false alarms %d (%.3f)\n", streams, falseAlarms,
         (double)falseAlarms / streams);
  int undetected = 0;
  for (int s = 0; s < streams; ++s)
    undetected += delays[s] >= units;
  printf("detection after the shift: median %d units, 90th percentile %d, undetected %d\n",
         delays[streams / 2], delays[streams * 9 / 10], undetected);
  printf("ends on points: 0 %d, 1 %d, 2 %d\n", ends[0], ends[1], ends[2]);
  printf("shadow share %.3f\n", (double)shadows / (double)total);
  free(delays);
  return 0;
}
