/*===- approx_controller.h - runtime adaptation on a tuned frontier (C ABI) -===*
 *
 * A controller that holds a latency goal per unit of work (a call, a
 * question, a frame) by moving a runtime-table build (`--approx-runtime-
 * table`, approx_runtime.h) among the points of its tuned frontier, as
 * PowerDial moves dynamic knobs under a feedback controller:
 *
 *   approx_ctl_goal goal = approx_ctl_defaults();
 *   goal.target_seconds = 0.050;                  50 ms per unit
 *   approx_ctl *c = approx_ctl_open("pareto.csv", &goal);
 *   if (!c) { fprintf(stderr, "%s\n", approx_rt_last_error()); exit(1); }
 *   while (work) {
 *     approx_ctl_begin(c);                        sets the point's parameters
 *     do_one_unit();
 *     approx_ctl_end(c);                          measures, chooses the next
 *   }
 *   approx_ctl_close(c);
 *
 * The frontier is approx-tune's pareto.csv (header time_s,qos,speedup
 * [,eval_time_s,eval_qos,eval_speedup],<parameters...>; the held-out
 * columns are used when present). Its points, from the fastest to the most
 * accurate, are the only configurations the controller ever sets.
 *
 * The model: a unit on point p takes b * r(p), r(p) the point's frontier
 * time relative to the most accurate point's, b the machine's current time
 * for a unit at that point, learnt online from every unit (b <- (1 - a) b +
 * a * t / r(p), a = `smoothing`). After each unit it chooses the most
 * accurate point predicted to take at most (1 - margin) * target; a point
 * predicted to miss is left at once for a faster one, while a move to a
 * more accurate one waits until `hold_units` units have passed on the
 * current point (hysteresis: no thrashing on noise). When even the fastest
 * point is predicted to miss, it stays on the fastest.
 *
 * Not thread-safe: one controller per loop; the parameters it sets are the
 * process's (approx_rt_set).
 *===----------------------------------------------------------------------===*/
#ifndef APPROX_CONTROLLER_H
#define APPROX_CONTROLLER_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
  double target_seconds; /* the latency goal per unit (> 0; no default) */
  double margin;         /* aim this fraction below the target (default 0.1) */
  int hold_units;        /* units on a point before a move to a slower one (3) */
  double smoothing;      /* weight of the newest unit in the model (0.5) */
  int check_params;      /* 1: every frontier parameter must be one the program
                            has registered (default 1; 0 for a controller
                            opened before the program's modules load) */
} approx_ctl_goal;

typedef struct approx_ctl approx_ctl;

approx_ctl_goal approx_ctl_defaults(void);

/* Reads the frontier and checks the goal; starts on the most accurate point.
 * NULL on error, approx_rt_last_error() says why (the file and line, the
 * parameter, the goal's field). */
approx_ctl *approx_ctl_open(const char *pareto_csv, const approx_ctl_goal *goal);
void approx_ctl_close(approx_ctl *c);

/* Sets the current point's parameters (approx_rt_set) and starts the unit's
 * clock; returns the point's index (0 = the fastest). */
int approx_ctl_begin(approx_ctl *c);
/* Ends the unit: its wall time since approx_ctl_begin updates the model and
 * chooses the next point. Returns 1 when the unit missed the target, else 0. */
int approx_ctl_end(approx_ctl *c);
/* The same with a duration the caller measured (simulations, tests). */
int approx_ctl_end_with(approx_ctl *c, double seconds);

/* The frontier's points, from the fastest (0) to the most accurate. */
size_t approx_ctl_num_points(const approx_ctl *c);
int approx_ctl_point(const approx_ctl *c); /* the current point */
double approx_ctl_point_qos(const approx_ctl *c, size_t point);
double approx_ctl_point_relative_time(const approx_ctl *c, size_t point); /* r(p) */
/* The model's time for a unit at the most accurate point (b; 0 before the
 * first unit), units so far, and those that missed the target. */
double approx_ctl_base_seconds(const approx_ctl *c);
long approx_ctl_units(const approx_ctl *c);
long approx_ctl_misses(const approx_ctl *c);

#ifdef __cplusplus
}
#endif

#endif /* APPROX_CONTROLLER_H */
