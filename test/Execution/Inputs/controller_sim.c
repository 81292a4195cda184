/* The runtime controller (approx_controller.h) on a simulated plant: a
 * program whose unit of work at frontier point p takes speed * 10 ms * r(p)
 * (r: the point's time relative to the most accurate one), the machine's
 * speed stepping from 1 to 2 (half as fast) and back, with a small
 * deterministic jitter. Prints one line per unit (unit, speed, point,
 * seconds, missed) and, per phase, the units the controller took to settle
 * (the first unit from which the point never changes again in the phase),
 * the misses and the points used.
 *
 *   controller_sim FRONTIER.csv TARGET_SECONDS [check]
 * With `check`, the program registers the parameters a/b (as a module of
 * an annotated program would) and the controller checks the frontier's. */
#include "approx_controller.h"
#include "approx_runtime.h"

#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
  if (argc < 3)
    return 2;
  static int32_t cells[2];
  approx_ctl_goal goal = approx_ctl_defaults();
  goal.target_seconds = atof(argv[2]);
  goal.check_params = argc > 3;
  if (goal.check_params) {
    approx_rt_param(&cells[0], 0, "a_knob_val");
    approx_rt_param(&cells[1], 0, "b_knob_val");
  }
  approx_ctl *c = approx_ctl_open(argv[1], &goal);
  if (!c) {
    fprintf(stderr, "controller_sim: error: %s\n", approx_rt_last_error());
    return 1;
  }
  printf("points %zu\n", approx_ctl_num_points(c));
  const double speeds[3] = {1, 2, 1};
  int unit = 0;
  for (int phase = 0; phase < 3; ++phase) {
    int points[40], misses = 0;
    for (int i = 0; i < 40; ++i, ++unit) {
      int p = approx_ctl_begin(c);
      int32_t a = -1;
      approx_rt_get("a_knob_val", &a);
      double jitter = 1 + 0.02 * ((unit * 7919) % 5 - 2) / 2.0;
      double t = speeds[phase] * 0.010 * approx_ctl_point_relative_time(c, (size_t)p) * jitter;
      int missed = approx_ctl_end_with(c, t);
      misses += missed;
      points[i] = p;
      printf("unit %d speed %g point %d a %d seconds %.4f missed %d\n", unit, speeds[phase], p,
             a, t, missed);
    }
    int settled = 40;
    while (settled > 0 && points[settled - 1] == points[39])
      --settled;
    printf("phase %d: speed %g, settled after %d units on point %d, %d misses\n", phase,
           speeds[phase], settled, points[39], misses);
  }
  printf("units %ld misses %ld\n", approx_ctl_units(c), approx_ctl_misses(c));
  approx_ctl_close(c);
  return 0;
}
