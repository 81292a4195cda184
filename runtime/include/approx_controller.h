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
 * A percentile goal (`percentile` in (0, 1), e.g. 0.9: that fraction of the
 * units must meet the target) is for units whose times vary with their
 * input (a question's answer length): the model also keeps the ratios of
 * the last 64 units' times to their predictions, and a point's predicted
 * time is b * r(p) times that ratio's `percentile` quantile (its largest
 * while fewer than 1 / (1 - percentile) units were seen): the spread of
 * the units, and the model's own error, are then paid for in speed. With
 * the default 0 the goal is on the typical unit (the ratio taken as 1).
 *
 * Such units also make the model above thrash: one slow unit moves b
 * enough to leave a point, and a frontier tuned on other inputs may be
 * wrong about how much slower one point is than another (a bigger model's
 * answers longer on these questions), so a move up finds the point slower
 * than predicted and moves back, again and again. Under a percentile goal
 * therefore b is the median of the last 5 units' times over their point's
 * model time; each point's model time r(p) is corrected by what its units
 * show: after 5 units on a point (or when leaving it after at least 2),
 * the median of those units' times over b before the move (when that b
 * was a median of 5) multiplies the point's correction, once per stay (so
 * a point visited again is predicted as measured, and a failed probe of a
 * more accurate point is not repeated on the same evidence; a point is
 * never predicted faster than a faster one,
 * approx_ctl_point_model_time); and a move to a more accurate point needs
 * it to be predicted within 70 % of the limit (a dead band; the move to a
 * faster point is at the limit). On questions served by an LLM + RAG
 * system under a load step these held the point within 4 questions of a
 * change, where the model above moved until the stream ended
 * (docs/runtime.md).
 *
 * The drift monitor (optional: `max_loss` > 0) checks that promise on the
 * live stream, as Green recalibrates with occasional exact runs: after a
 * unit, approx_ctl_shadow_due() says whether to run it again exactly (a
 * random `shadow_fraction` of the units run on a point that is not exact);
 * the caller does so between approx_ctl_begin_exact() and
 * approx_ctl_end_exact(), giving the unit's QoS loss against the exact
 * output (in [0, 1], the metric's loss):
 *
 *   approx_ctl_begin(c); out = do_one_unit(); approx_ctl_end(c);
 *   if (approx_ctl_shadow_due(c)) {
 *     approx_ctl_begin_exact(c);                  sets the exact configuration
 *     ref = do_one_unit();
 *     if (approx_ctl_end_exact(c, loss(out, ref)))  1: drift detected
 *       fprintf(stderr, "drift: ...");
 *   }
 *
 * The test is a betting martingale on the losses (anytime-valid: on a
 * stream whose mean loss stays at most `max_loss`, the probability of ever
 * raising an alarm is at most `drift_delta`, however long the stream): its
 * wealth W <- W (1 + l (x - max_loss)) grows when losses exceed the level,
 * with the bet l >= 0 chosen from the earlier losses only (an exponentially
 * weighted mean and variance; l = 0 while their mean is below the level),
 * and an alarm is raised at W >= 1 / drift_delta. Where the unshifted
 * losses lie near the level, that test spends its evidence before a shift
 * (each bet after a chance loss above the level loses wealth on the losses
 * below it that follow), so a late shift is detected late. A change
 * detector instead (`drift_horizon` = N > 0; the e-CUSUM of Shin, Ramdas
 * and Rinaldo's e-detectors) restarts the wealth at 1 whenever it is below
 * 1 and alarms at W >= N / drift_delta: its wealth is the largest of the
 * tests started at each observation, so the probability of a false alarm
 * within the first N observations is at most drift_delta (within T, at
 * most T drift_delta / N); it spends at most one restart before a shift
 * but has the higher bar. On an alarm the controller stops using the point
 * the unit ran on and every faster one (it moves to more accurate points;
 * the most accurate point is never given up), counts the alarm and starts
 * a new test. A shadow unit's time is not a unit's time: the model
 * learns from the approximate run only, and the shadow runs' total is
 * reported as the monitor's overhead.
 *
 * Screening. A program often knows for free that a unit's output is the
 * exact configuration's: the knob's state kept it exact, an answer ended
 * before the token cap that was its only approximation. It says so with
 * approx_ctl_clear() after approx_ctl_end(): the unit is not shadowed and
 * its loss, 0, is observed at no cost. With `screen` = 1 every unit on an
 * approximate point is an observation: 0 when it is cleared or not
 * shadowed, loss / shadow_fraction when it is (an unbiased estimate of its
 * loss, as a cleared unit's loss is 0), so detection is counted in units,
 * not in shadow samples, and only the uncleared units cost a shadow run
 * (with shadow_fraction 1, each of them). Clearing a unit whose output is
 * not the exact one breaks the false-alarm bound's premise: the check must
 * be sound.
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
  double smoothing;      /* weight of the newest unit in the model (0.5; unused
                            under a percentile goal, whose b is a median) */
  int check_params;      /* 1: every frontier parameter must be one the program
                            has registered (default 1; 0 for a controller
                            opened before the program's modules load) */
  /* The drift monitor (off when max_loss is 0, the default). */
  double max_loss;        /* the mean per-unit QoS loss the deployment was
                             certified for, in (0, 1) */
  double shadow_fraction; /* units also run exactly, in (0, 1] (default 0.05) */
  double drift_delta;     /* false-alarm probability, in (0, 1) (default 0.05) */
  unsigned shadow_seed;   /* the shadow units' random draw (default 1) */
  double percentile;      /* the fraction of units to meet the target, in (0, 1);
                             0 (default): the typical unit (see above) */
  int screen;             /* 1: every unit is an observation of the test and
                             shadow_fraction is the share of the uncleared ones
                             shadowed (screening, see above); 0 (default): the
                             shadowed units are the observations */
  long drift_horizon;     /* N > 0: a change detector whose false-alarm
                             probability within N observations is at most
                             drift_delta (see above); 0 (default): the test
                             over the whole stream */
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
/* The model's r(p): under a percentile goal corrected by the units seen on
 * the point (see above), else r(p). */
double approx_ctl_point_model_time(const approx_ctl *c, size_t point);
/* The model's time for a unit at the most accurate point (b; 0 before the
 * first unit), units so far, and those that missed the target. */
double approx_ctl_base_seconds(const approx_ctl *c);
/* The factor a point's predicted time is multiplied by for the percentile
 * goal (1 without one, and before the second unit). */
double approx_ctl_tail_factor(const approx_ctl *c);
long approx_ctl_units(const approx_ctl *c);
long approx_ctl_misses(const approx_ctl *c);

/* The frontier's parameters (names as in the file) and a point's values:
 * what approx_ctl_begin sets, for callers that apply a point themselves (a
 * library with its own runtime, the Python binding). */
size_t approx_ctl_num_params(const approx_ctl *c);
const char *approx_ctl_param_name(const approx_ctl *c, size_t param);
int approx_ctl_point_value(const approx_ctl *c, size_t point, size_t param);
/* 1 when the point is the exact configuration (every decision and knob
 * value 0): its loss is 0 by construction and it is never shadowed. */
int approx_ctl_point_is_exact(const approx_ctl *c, size_t point);
/* The value approx_ctl_begin_exact sets for a parameter: 0, or for a
 * threshold (<knob>_threshold_<i>) the current point's. */
int approx_ctl_exact_value(const approx_ctl *c, size_t param);

/* The drift monitor (see above). approx_ctl_shadow_due: 1 when the unit
 * approx_ctl_end just ended is to be run again exactly. approx_ctl_begin_exact
 * sets every decision and knob parameter of the frontier to 0 (thresholds
 * keep their values) and starts the shadow clock; approx_ctl_end_exact
 * stops it and tests the loss: 1 when it raises an alarm, 0 when not, -1
 * (approx_rt_last_error says why) when the loss is not a number in [0, 1]
 * or no shadow run was due. */
int approx_ctl_shadow_due(const approx_ctl *c);
void approx_ctl_begin_exact(approx_ctl *c);
int approx_ctl_end_exact(approx_ctl *c, double loss);
/* Alarms so far, the least accurate point still in use (0 before any
 * alarm), the current test's wealth (1 at its start), the shadow units and
 * their total seconds (the monitor's overhead). */
long approx_ctl_drift_alarms(const approx_ctl *c);
int approx_ctl_floor(const approx_ctl *c);
double approx_ctl_drift_wealth(const approx_ctl *c);
long approx_ctl_shadow_units(const approx_ctl *c);
double approx_ctl_shadow_seconds(const approx_ctl *c);
/* Screening (see above): the unit approx_ctl_end just ended is known to have
 * the exact configuration's output; it is not shadowed and the test observes
 * its loss, 0. Returns 0, or -1 (approx_rt_last_error says why) during a
 * unit or a shadow run. Units on an exact point, and any unit when the
 * monitor is off, need no clearing (a no-op). */
int approx_ctl_clear(approx_ctl *c);

#ifdef __cplusplus
}
#endif

#endif /* APPROX_CONTROLLER_H */
