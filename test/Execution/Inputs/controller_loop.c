/* An annotated program whose main loop runs under the runtime controller
 * (approx_controller.h): each unit runs `work`, a loop the knob perforates,
 * then sleeps 1 ms per iteration done times `slow`, the injected slowdown
 * (1, then 2 for units 20-39, then 1 again). Prints one line per unit
 * (unit, slow, point, iterations done, missed) and per phase the point its
 * last 10 units ran most and its misses.
 *
 *   controller_loop FRONTIER.csv TARGET_SECONDS */
#include "approx_controller.h"
#include "approx_runtime.h"

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static long slow = 1;

// @approx:static_transform transform_type=loop_perforate knob_val=0 decision_values=[0, 2, 4]
int work(int n) {
  int done = 0;
  for (int i = 0; i < n; i++)
    done++;
  return done;
}

int main(int argc, char **argv) {
  if (argc != 3)
    return 2;
  approx_ctl_goal goal = approx_ctl_defaults();
  goal.target_seconds = atof(argv[2]);
  approx_ctl *c = approx_ctl_open(argv[1], &goal);
  if (!c) {
    fprintf(stderr, "controller_loop: error: %s\n", approx_rt_last_error());
    return 1;
  }
  for (int phase = 0, unit = 0; phase < 3; ++phase) {
    slow = phase == 1 ? 2 : 1;
    int misses = 0, count[3] = {0, 0, 0};
    for (int i = 0; i < 20; ++i, ++unit) {
      int point = approx_ctl_begin(c);
      if (i >= 10)
        count[point]++;
      int done = work(100);
      struct timespec ts = {0, 1000000L * done * slow};
      nanosleep(&ts, 0);
      int missed = approx_ctl_end(c);
      misses += missed;
      printf("unit %d slow %ld point %d done %d missed %d\n", unit, slow, point, done, missed);
    }
    int most = count[1] > count[0] ? 1 : 0;
    most = count[2] > count[most] ? 2 : most;
    printf("phase %d: slow %ld, mostly point %d, %d misses\n", phase, slow, most, misses);
  }
  approx_ctl_close(c);
  return 0;
}
