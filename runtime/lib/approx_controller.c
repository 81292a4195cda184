/*===- approx_controller.c - runtime adaptation on a tuned frontier ------===*
 *
 * approx_controller.h: the frontier (approx-tune's pareto.csv), the model
 * of a unit's time and the choice of the next point.
 *===----------------------------------------------------------------------===*/
#define _POSIX_C_SOURCE 200809L /* strdup, clock_gettime */
#include "approx_controller.h"
#include "approx_runtime.h"
#include "approx_runtime_internal.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* The units whose time over prediction the percentile goal keeps; the
 * units its level is the median of; how far below the limit a more accurate
 * point must be predicted for a move to it (the percentile goal's dead
 * band); the fewest units on a point its time is learnt from when the
 * controller leaves it. */
enum { kTailUnits = 64, kLevelUnits = 5, kLearnUnits = 2 };
static const double kBand = 0.3;

typedef struct {
  double time, qos;
  double learnt;   /* the percentile goal's correction of the time (1 at first) */
  int32_t *values; /* one per parameter */
  int exact;       /* every decision and knob value 0 */
} Point;

struct approx_ctl {
  approx_ctl_goal goal;
  char **names;
  int *thresholds; /* per parameter: 1 for <knob>_threshold_<i> */
  size_t numParams;
  Point *points; /* ascending time: 0 the fastest */
  size_t numPoints;
  size_t current;
  size_t floor; /* the least accurate point still in use (the drift monitor) */
  long units, misses, onPoint; /* onPoint: units run on the current point */
  double base;                 /* b: a unit's time at the most accurate point */
  struct timespec started;
  int running;
  /* The drift monitor. */
  size_t lastPoint; /* the point of the unit approx_ctl_end ended */
  int shadowDue, inShadow;
  double wealth, mean, var; /* the test: its wealth, the losses' weighted mean, variance */
  long alarms, shadowUnits;
  double shadowSeconds;
  struct timespec shadowStarted;
  uint64_t rng;
  /* The percentile goal: the last units' time over their prediction. */
  double ratios[kTailUnits];
  size_t numRatios, nextRatio;
  double tail; /* the ratios' percentile quantile (1 without a percentile goal) */
  /* The percentile goal's level: the last units' times over their point's
   * model time, and the level when the controller moved to the current
   * point (what the point's first units are compared with). */
  double levels[kLevelUnits];
  size_t numLevels, nextLevel;
  double before;
  int haveBefore, stayLearnt;
};

approx_ctl_goal approx_ctl_defaults(void) {
  approx_ctl_goal g = {0, 0.1, 3, 0.5, 1, 0, 0.05, 0.05, 1, 0, 0, 0};
  return g;
}

static double secondsSince(const struct timespec *t) {
  struct timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  return (double)(now.tv_sec - t->tv_sec) + 1e-9 * (double)(now.tv_nsec - t->tv_nsec);
}

/* <knob>_threshold_<i>: the one parameter kind the exact configuration
 * keeps (approx_runtime.h's names; the tuner's exactConfig does the same). */
static int isThreshold(const char *name) {
  const char *t = strstr(name, "_threshold_");
  if (!t)
    return 0;
  for (t += strlen("_threshold_"); *t; ++t)
    if (*t < '0' || *t > '9')
      return 0;
  return 1;
}

/*--- the frontier file ----------------------------------------------------*/

static char *readAll(const char *path) {
  size_t n;
  char *buf = approx_rt_read_file(path, "a frontier", &n);
  if (!buf)
    return NULL;
  if (memchr(buf, 0, n)) {
    approx_rt_fail("%s: a NUL byte: not a pareto.csv", path);
    free(buf);
    return NULL;
  }
  return buf;
}

/* Splits `line` at commas in place; at most `cap` fields. */
static size_t splitFields(char *line, char **fields, size_t cap) {
  size_t n = 0;
  for (char *p = line;; ++p) {
    if (n < cap)
      fields[n] = p;
    ++n;
    p = strchr(p, ',');
    if (!p)
      break;
    *p = 0;
  }
  return n;
}

static int parseNumber(const char *s, double *out) {
  char *end;
  errno = 0;
  *out = strtod(s, &end);
  return end != s && *end == 0 && errno == 0 && isfinite(*out);
}

static void freeController(approx_ctl *c) {
  if (!c)
    return;
  for (size_t i = 0; i < c->numParams; ++i)
    free(c->names[i]);
  for (size_t i = 0; i < c->numPoints; ++i)
    free(c->points[i].values);
  free(c->names);
  free(c->thresholds);
  free(c->points);
  free(c);
}

static int byTime(const void *a, const void *b) {
  const Point *x = a, *y = b;
  return x->time < y->time ? -1 : x->time > y->time ? 1 : (x->qos > y->qos) - (x->qos < y->qos);
}

/* Reads the frontier; 0 on success. */
static int readFrontier(approx_ctl *c, const char *path) {
  char *text = readAll(path);
  if (!text)
    return -1;
  int rc = -1;
  char **fields = NULL;
  size_t line = 0, width = 0;
  long col[6] = {-1, -1, -1, -1, -1, -1}; /* time_s qos speedup eval_time_s eval_qos eval_speedup */
  static const char *const known[6] = {"time_s",      "qos",      "speedup",
                                       "eval_time_s", "eval_qos", "eval_speedup"};
  size_t firstParam = 0;
  for (char *p = text, *next; p && *p; p = next) {
    next = strchr(p, '\n');
    if (next)
      *next++ = 0;
    ++line;
    size_t len = strlen(p);
    if (len && p[len - 1] == '\r')
      p[--len] = 0;
    if (!len)
      continue;
    if (!fields) { /* the header */
      size_t n = splitFields(p, NULL, 0);
      fields = calloc(n, sizeof *fields);
      if (!fields)
        goto out;
      /* splitFields cut the line already: walk the pieces. */
      char *f = p;
      for (size_t i = 0; i < n; ++i, f += strlen(f) + 1)
        fields[i] = f;
      width = n;
      for (size_t i = 0; i < n; ++i) {
        int k = -1;
        for (int j = 0; j < 6; ++j)
          if (!strcmp(fields[i], known[j]))
            k = j;
        if (k >= 0) {
          col[k] = (long)i;
          firstParam = i + 1;
        }
      }
      if (col[0] != 0 || col[1] != 1) {
        approx_rt_fail("%s:%zu: not a pareto.csv: the header must start with time_s,qos", path,
                       line);
        goto out;
      }
      c->numParams = width - firstParam;
      if (c->numParams == 0) {
        approx_rt_fail("%s:%zu: the frontier has no parameters", path, line);
        goto out;
      }
      c->names = calloc(c->numParams, sizeof *c->names);
      c->thresholds = calloc(c->numParams, sizeof *c->thresholds);
      if (!c->names || !c->thresholds)
        goto out;
      for (size_t i = 0; i < c->numParams; ++i) {
        c->names[i] = strdup(fields[firstParam + i]);
        if (!c->names[i])
          goto out;
        c->thresholds[i] = isThreshold(c->names[i]);
        int32_t v;
        if (c->goal.check_params && approx_rt_get(c->names[i], &v) != 0) {
          approx_rt_fail("%s:%zu: parameter '%s' is no parameter of this program (a frontier "
                         "of another program?)",
                         path, line, c->names[i]);
          goto out;
        }
      }
      continue;
    }
    size_t n = splitFields(p, fields, width);
    if (n != width) {
      approx_rt_fail("%s:%zu: %zu fields, the header has %zu", path, line, n, width);
      goto out;
    }
    Point pt = {0, 0, 1, NULL, 1};
    int timeCol = col[3] >= 0 ? 3 : 0, qosCol = col[4] >= 0 ? 4 : 1;
    if (!parseNumber(fields[col[timeCol]], &pt.time) || pt.time <= 0 ||
        !parseNumber(fields[col[qosCol]], &pt.qos) || pt.qos < 0) {
      approx_rt_fail("%s:%zu: %s and %s must be numbers, the time positive, the QoS not "
                     "negative",
                     path, line, known[timeCol], known[qosCol]);
      goto out;
    }
    pt.values = calloc(c->numParams, sizeof *pt.values);
    if (!pt.values)
      goto out;
    for (size_t i = 0; i < c->numParams; ++i) {
      double v;
      if (!parseNumber(fields[firstParam + i], &v) || v != floor(v) || v < INT32_MIN ||
          v > INT32_MAX) {
        approx_rt_fail("%s:%zu: %s = '%s' is not a 32-bit integer", path, line,
                       c->names[i], fields[firstParam + i]);
        free(pt.values);
        goto out;
      }
      pt.values[i] = (int32_t)v;
      if (!c->thresholds[i] && pt.values[i] != 0)
        pt.exact = 0;
    }
    Point *grown = realloc(c->points, (c->numPoints + 1) * sizeof *grown);
    if (!grown) {
      free(pt.values);
      goto out;
    }
    c->points = grown;
    c->points[c->numPoints++] = pt;
  }
  if (!fields) {
    approx_rt_fail("%s: empty: no header, no frontier", path);
    goto out;
  }
  if (c->numPoints == 0) {
    approx_rt_fail("%s: the frontier has no points", path);
    goto out;
  }
  /* Fastest first; a point no more accurate than a faster one is dropped
   * (the file's rows should be a frontier already). */
  qsort(c->points, c->numPoints, sizeof *c->points, byTime);
  size_t kept = 0;
  for (size_t i = 0; i < c->numPoints; ++i) {
    if (kept && c->points[i].qos <= c->points[kept - 1].qos) {
      free(c->points[i].values);
      continue;
    }
    c->points[kept++] = c->points[i];
  }
  c->numPoints = kept;
  rc = 0;
out:
  if (rc != 0 && !*approx_rt_last_error())
    approx_rt_fail("%s: out of memory", path);
  free(fields);
  free(text);
  return rc;
}

static void moveTo(approx_ctl *c, size_t point);

/*--- the drift monitor's test ------------------------------------------------*/

/* The weight of the newest loss in the estimates the bet is chosen from,
 * and the cap on the bet (a fraction of 1 / max_loss, the most that keeps
 * the wealth non-negative). */
static const double kLossWeight = 0.15, kMaxBet = 0.5;

static void resetTest(approx_ctl *c) {
  double e = c->goal.max_loss;
  c->wealth = 1;
  c->mean = e;           /* the level: no bet before a loss above it */
  c->var = e * (1 - e);  /* a Bernoulli loss at the level */
}

/* splitmix64, uniform in [0, 1). */
static double uniform(uint64_t *s) {
  uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return (double)((z ^ (z >> 31)) >> 11) * 0x1.0p-53;
}

/* The bet on the next loss, from the earlier ones only (so the wealth stays
 * a supermartingale under a mean loss at most the level, whatever the bets):
 * never negative, the larger of the growth-optimal bets of a loss with the
 * estimated mean and variance (second order) and of a 0/1 loss with the
 * estimated mean (exact; the second-order bet is timid on the skewed 0/1
 * losses of questions answered right or wrong). Under screening the
 * observations are 0 or loss / shadow_fraction, and the 0/1 bet is that of a
 * loss of 0 or 1 / shadow_fraction (Kelly's (mean - e) / (e (s - e)) for
 * observations in {0, s}). */
static double nextBet(const approx_ctl *c) {
  double e = c->goal.max_loss, gap = c->mean - e;
  if (gap <= 0)
    return 0;
  double s = c->goal.screen ? 1 / c->goal.shadow_fraction : 1;
  double bet = fmax(gap / (c->var + gap * gap), gap / (e * (s - e)));
  return bet < kMaxBet / e ? bet : kMaxBet / e;
}

/* One step of the test on an observation x >= 0 (a loss, or under
 * screening a weighted one): 1 when it raises an alarm, which gives up the
 * point the unit ran on and every faster one and starts a new test. As a
 * change detector (drift_horizon > 0) the wealth restarts at 1 when below
 * it (the e-CUSUM: the largest wealth of the tests started at each
 * observation) and the bar is drift_horizon / drift_delta. */
static int observe(approx_ctl *c, double x) {
  double e = c->goal.max_loss;
  long horizon = c->goal.drift_horizon;
  if (horizon > 0 && c->wealth < 1)
    c->wealth = 1;
  c->wealth *= 1 + nextBet(c) * (x - e);
  double d = x - c->mean;
  c->mean += kLossWeight * d;
  c->var = (1 - kLossWeight) * (c->var + kLossWeight * d * d);
  if (c->wealth < (horizon > 0 ? (double)horizon : 1) / c->goal.drift_delta)
    return 0;
  c->alarms++;
  size_t floor = c->lastPoint + 1 < c->numPoints ? c->lastPoint + 1 : c->numPoints - 1;
  if (floor > c->floor)
    c->floor = floor;
  if (c->current < c->floor)
    moveTo(c, c->floor);
  resetTest(c);
  return 1;
}

/*--- the controller ---------------------------------------------------------*/

approx_ctl *approx_ctl_open(const char *path, const approx_ctl_goal *goal) {
  approx_rt_fail("%s", "");
  if (!path || !goal) {
    approx_rt_fail("approx_ctl_open: no frontier file or no goal");
    return NULL;
  }
  const approx_ctl_goal *g = goal;
  if (!(g->target_seconds > 0) || !isfinite(g->target_seconds)) {
    approx_rt_fail("approx_ctl_open: target_seconds = %g: give the latency goal per unit, in "
                   "seconds (> 0)",
                   g->target_seconds);
    return NULL;
  }
  if (!(g->margin >= 0 && g->margin < 1) || !(g->smoothing > 0 && g->smoothing <= 1) ||
      g->hold_units < 0) {
    approx_ctl_goal d = approx_ctl_defaults();
    approx_rt_fail("approx_ctl_open: margin must be in [0, 1) (default %g), smoothing in (0, 1] "
                   "(default %g), hold_units >= 0 (default %d)",
                   d.margin, d.smoothing, d.hold_units);
    return NULL;
  }
  if (!(g->percentile >= 0 && g->percentile < 1)) {
    approx_rt_fail("approx_ctl_open: percentile = %g: give the fraction of units that must meet "
                   "the target, in (0, 1) (0: a goal on the typical unit)",
                   g->percentile);
    return NULL;
  }
  if (g->screen != 0 && g->screen != 1) {
    approx_rt_fail("approx_ctl_open: screen = %d: give 1 (every unit observed, uncleared ones "
                   "shadowed) or 0 (the shadowed units observed; default)",
                   g->screen);
    return NULL;
  }
  if (!(g->max_loss >= 0 && g->max_loss < 1) ||
      (g->max_loss > 0 && (!(g->shadow_fraction > 0 && g->shadow_fraction <= 1) ||
                           !(g->drift_delta > 0 && g->drift_delta < 1)))) {
    approx_ctl_goal d = approx_ctl_defaults();
    approx_rt_fail("approx_ctl_open: the drift monitor needs max_loss in (0, 1) (0: no monitor), "
                   "shadow_fraction in (0, 1] (default %g), drift_delta in (0, 1) (default %g); "
                   "given %g, %g, %g",
                   d.shadow_fraction, d.drift_delta, g->max_loss, g->shadow_fraction,
                   g->drift_delta);
    return NULL;
  }
  if (g->drift_horizon < 0) {
    approx_rt_fail("approx_ctl_open: drift_horizon = %ld: give the observations a false alarm "
                   "is bounded over (> 0, a change detector) or 0 (the test over the whole "
                   "stream; default)",
                   g->drift_horizon);
    return NULL;
  }
  approx_ctl *c = calloc(1, sizeof *c);
  if (!c) {
    approx_rt_fail("approx_ctl_open: out of memory");
    return NULL;
  }
  c->goal = *g;
  if (readFrontier(c, path) != 0) {
    freeController(c);
    return NULL;
  }
  c->current = c->numPoints - 1; /* the most accurate until the machine is measured */
  c->tail = 1;
  c->rng = 0x9E3779B97F4A7C15ull * ((uint64_t)g->shadow_seed + 1);
  resetTest(c);
  return c;
}

void approx_ctl_close(approx_ctl *c) { freeController(c); }

int approx_ctl_begin(approx_ctl *c) {
  const Point *p = &c->points[c->current];
  for (size_t i = 0; i < c->numParams; ++i)
    approx_rt_set(c->names[i], p->values[i]);
  clock_gettime(CLOCK_MONOTONIC, &c->started);
  c->running = 1;
  return (int)c->current;
}

int approx_ctl_end(approx_ctl *c) {
  return approx_ctl_end_with(c, c->running ? secondsSince(&c->started) : 0);
}

double approx_ctl_point_relative_time(const approx_ctl *c, size_t point) {
  return point < c->numPoints ? c->points[point].time / c->points[c->numPoints - 1].time : 0;
}

static int ascending(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

/* The model's time for a unit at `point` relative to the most accurate
 * point's: r(p), or under a percentile goal r(p) times its learnt
 * correction, and never below a faster point's (the frontier's order). */
double approx_ctl_point_model_time(const approx_ctl *c, size_t point) {
  if (point >= c->numPoints)
    return 0;
  if (c->goal.percentile <= 0)
    return approx_ctl_point_relative_time(c, point);
  double t = 0;
  for (size_t q = 0; q <= point; ++q)
    t = fmax(t, approx_ctl_point_relative_time(c, q) * c->points[q].learnt);
  return t;
}

/* The median of the last `m` levels (m <= numLevels). */
static double lastMedian(const approx_ctl *c, size_t m) {
  double v[kLevelUnits];
  for (size_t i = 0; i < m; ++i)
    v[i] = c->levels[(c->nextLevel + kLevelUnits - 1 - i) % kLevelUnits];
  qsort(v, m, sizeof *v, ascending);
  return m % 2 ? v[m / 2] : 0.5 * (v[m / 2 - 1] + v[m / 2]);
}

/* The percentile goal: learns the current point's correction from its
 * units since the controller moved to it (at most kLevelUnits, at least
 * kLearnUnits), once per stay: their median level over the level before
 * the move is how much slower (or faster) the point is than the model
 * said. Its units' levels are rescaled to the corrected model. */
static void learnStay(approx_ctl *c) {
  if (c->goal.percentile <= 0 || c->stayLearnt || !c->haveBefore || c->onPoint < kLearnUnits)
    return;
  /* haveBefore: the window was full at the move, so it holds the stay's units. */
  size_t m = c->onPoint < kLevelUnits ? (size_t)c->onPoint : kLevelUnits;
  double f = lastMedian(c, m) / c->before;
  if (!(f > 0) || !isfinite(f))
    return;
  c->points[c->current].learnt *= f;
  for (size_t i = 0; i < m; ++i)
    c->levels[(c->nextLevel + kLevelUnits - 1 - i) % kLevelUnits] /= f;
  c->base = lastMedian(c, c->numLevels);
  c->stayLearnt = 1;
}

static void moveTo(approx_ctl *c, size_t point) {
  c->current = point;
  c->onPoint = 0;
  c->before = c->base; /* learnt from only when it is a full window's median */
  c->haveBefore = c->base > 0 && c->numLevels == kLevelUnits;
  c->stayLearnt = 0;
}

/* The most accurate point (not below the floor) predicted to take at most
 * `limit`; the floor when none is. */
static size_t fitting(const approx_ctl *c, double limit) {
  for (size_t p = c->numPoints; p-- > c->floor;)
    if (c->base * approx_ctl_point_model_time(c, p) <= limit)
      return p;
  return c->floor;
}

/* The next point: a faster one at once when the current one is predicted
 * to miss; a more accurate one after hold_units units on the current one,
 * under a percentile goal only when predicted to take at most (1 - kBand)
 * of the limit. */
static size_t nextPoint(const approx_ctl *c, double limit) {
  size_t best = fitting(c, limit);
  if (best < c->current)
    return best;
  size_t up = c->goal.percentile > 0 ? fitting(c, (1 - kBand) * limit) : best;
  return up > c->current && c->onPoint >= c->goal.hold_units ? up : c->current;
}

/* The percentile goal: records the unit's time over the model's prediction
 * and updates the tail factor, the ratios' `percentile` quantile (their
 * largest while too few units were seen to tell that quantile). */
static void updateTail(approx_ctl *c, double observed) {
  if (c->goal.percentile <= 0 || !c->units || !(c->base > 0))
    return;
  c->ratios[c->nextRatio] = observed / c->base;
  c->nextRatio = (c->nextRatio + 1) % kTailUnits;
  if (c->numRatios < kTailUnits)
    c->numRatios++;
  double sorted[kTailUnits];
  memcpy(sorted, c->ratios, c->numRatios * sizeof *sorted);
  qsort(sorted, c->numRatios, sizeof *sorted, ascending);
  double q = c->goal.percentile, n = (double)c->numRatios;
  size_t k = n * (1 - q) < 1 ? c->numRatios - 1 : (size_t)ceil(q * n) - 1;
  c->tail = sorted[k] > 0 ? sorted[k] : 1;
}

int approx_ctl_end_with(approx_ctl *c, double seconds) {
  c->running = 0;
  if (!(seconds >= 0) || !isfinite(seconds))
    seconds = 0;
  double observed = seconds / approx_ctl_point_model_time(c, c->current);
  updateTail(c, observed);
  if (c->goal.percentile > 0) { /* the median of the last levels */
    c->levels[c->nextLevel] = observed;
    c->nextLevel = (c->nextLevel + 1) % kLevelUnits;
    if (c->numLevels < kLevelUnits)
      c->numLevels++;
    c->base = lastMedian(c, c->numLevels);
  } else {
    c->base = c->units ? (1 - c->goal.smoothing) * c->base + c->goal.smoothing * observed
                       : observed;
  }
  int missed = seconds > c->goal.target_seconds;
  c->units++;
  c->misses += missed;
  c->onPoint++;
  c->lastPoint = c->current;
  int monitored = c->goal.max_loss > 0 && !c->points[c->current].exact;
  c->shadowDue = monitored && uniform(&c->rng) < c->goal.shadow_fraction;
  if (monitored && c->goal.screen && !c->shadowDue)
    observe(c, 0); /* a 0 never raises an alarm */
  if (c->onPoint == kLevelUnits)
    learnStay(c);
  /* Predicted to meet the target with the margin. */
  double limit = (1 - c->goal.margin) * c->goal.target_seconds / c->tail;
  size_t next = nextPoint(c, limit);
  if (next != c->current) {
    learnStay(c); /* a short stay: learnt on leaving; the choice is made again */
    next = nextPoint(c, limit);
    if (next != c->current)
      moveTo(c, next);
  }
  return missed;
}

size_t approx_ctl_num_points(const approx_ctl *c) { return c->numPoints; }
int approx_ctl_point(const approx_ctl *c) { return (int)c->current; }
double approx_ctl_point_qos(const approx_ctl *c, size_t point) {
  return point < c->numPoints ? c->points[point].qos : 0;
}
double approx_ctl_base_seconds(const approx_ctl *c) { return c->base; }
double approx_ctl_tail_factor(const approx_ctl *c) { return c->tail; }
long approx_ctl_units(const approx_ctl *c) { return c->units; }
long approx_ctl_misses(const approx_ctl *c) { return c->misses; }

size_t approx_ctl_num_params(const approx_ctl *c) { return c->numParams; }
const char *approx_ctl_param_name(const approx_ctl *c, size_t param) {
  return param < c->numParams ? c->names[param] : NULL;
}
int approx_ctl_point_value(const approx_ctl *c, size_t point, size_t param) {
  return point < c->numPoints && param < c->numParams ? c->points[point].values[param] : 0;
}
int approx_ctl_point_is_exact(const approx_ctl *c, size_t point) {
  return point < c->numPoints && c->points[point].exact;
}
int approx_ctl_exact_value(const approx_ctl *c, size_t param) {
  return param < c->numParams && c->thresholds[param] ? c->points[c->current].values[param] : 0;
}

/*--- the drift monitor ------------------------------------------------------*/

int approx_ctl_shadow_due(const approx_ctl *c) { return c->shadowDue; }

void approx_ctl_begin_exact(approx_ctl *c) {
  for (size_t i = 0; i < c->numParams; ++i)
    approx_rt_set(c->names[i], approx_ctl_exact_value(c, i));
  c->inShadow = 1;
  clock_gettime(CLOCK_MONOTONIC, &c->shadowStarted);
}

int approx_ctl_end_exact(approx_ctl *c, double loss) {
  if (!c->shadowDue || !c->inShadow) {
    approx_rt_fail("approx_ctl_end_exact: no shadow run is due (approx_ctl_shadow_due after "
                   "approx_ctl_end, then approx_ctl_begin_exact)");
    return -1;
  }
  c->shadowSeconds += secondsSince(&c->shadowStarted);
  c->inShadow = 0;
  c->shadowDue = 0;
  c->shadowUnits++;
  if (!(loss >= 0 && loss <= 1)) {
    approx_rt_fail("approx_ctl_end_exact: loss = %g: give the unit's QoS loss against the "
                   "exact output, in [0, 1]",
                   loss);
    return -1;
  }
  return observe(c, c->goal.screen ? loss / c->goal.shadow_fraction : loss);
}

int approx_ctl_clear(approx_ctl *c) {
  if (c->running || c->inShadow) {
    approx_rt_fail("approx_ctl_clear: no unit has just ended (call it after approx_ctl_end, "
                   "before a shadow run)");
    return -1;
  }
  if (c->shadowDue) { /* otherwise observed already, or not monitored */
    c->shadowDue = 0;
    observe(c, 0);
  }
  return 0;
}

long approx_ctl_drift_alarms(const approx_ctl *c) { return c->alarms; }
int approx_ctl_floor(const approx_ctl *c) { return (int)c->floor; }
double approx_ctl_drift_wealth(const approx_ctl *c) { return c->wealth; }
long approx_ctl_shadow_units(const approx_ctl *c) { return c->shadowUnits; }
double approx_ctl_shadow_seconds(const approx_ctl *c) { return c->shadowSeconds; }
