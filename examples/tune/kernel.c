/* A small program to tune: per-row means of a matrix whose rows differ in
 * roughness (the state), and a squashing function with two cheaper
 * variants. It follows approx-tune's protocol: the knobs come from
 * APPROX_CONFIG (runtime-table build), the input from APPROX_INPUT_SET
 * (tuning: seed 1; evaluation: seed 2, five times the rows), and it prints
 * `approx-result: time=<s> qos=<L2 accuracy>` against a plain reference. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

int row_state(int roughness) { return roughness; }

// @approx:decision_tree {
//   transform_type: loop_perforate
//   state_indices: [-1]
//   state_function: row_state
//   thresholds: [5]
//   thresholds_lower: [0]
//   thresholds_upper: [9]
//   decisions: [0, 0]
//   decision_values: [0, 2, 4, 8]
// }
double row_mean(const double *x, int n, int roughness) {
  double s = 0;
  int c = 0;
  for (int i = 0; i < n; i++) {
    s += x[i];
    c++;
  }
  return s / c;
}

double approx_squash_1(double v) { return v / (1 + fabs(v)); }
double approx_squash_2(double v) { return v < -1 ? -1 : v > 1 ? 1 : v; }

// @approx:static_transform transform_type=func_substitute knob_val=0 decision_values=[0, 1, 2]
double squash(double v) { return tanh(v); }

void kernel(const double *m, const int *rough, int rows, int cols,
            double *out) {
  for (int r = 0; r < rows; r++)
    out[r] = squash(row_mean(m + (long)r * cols, cols, rough[r]));
}

static void reference(const double *m, int rows, int cols, double *out) {
  for (int r = 0; r < rows; r++) {
    double s = 0;
    for (int i = 0; i < cols; i++)
      s += m[(long)r * cols + i];
    out[r] = tanh(s / cols);
  }
}

/* xorshift64*: a fast, seeded generator for the input. */
static unsigned long long state;
static double uniform(void) { /* in [-1, 1) */
  state ^= state >> 12;
  state ^= state << 25;
  state ^= state >> 27;
  return (double)((state * 2685821657736338717ull) >> 11) * 0x1.0p-52 - 1;
}

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + 1e-9 * t.tv_nsec;
}

int main(void) {
  const char *set = getenv("APPROX_INPUT_SET");
  int evaluation = set && !strcmp(set, "evaluation");
  int rows = evaluation ? 2000 : 400, cols = 2000;
  state = evaluation ? 2 : 1;
  double *m = malloc(sizeof(double) * rows * cols);
  int *rough = malloc(sizeof(int) * rows);
  double *exact = malloc(sizeof(double) * rows);
  double *approx = malloc(sizeof(double) * rows);
  for (int r = 0; r < rows; r++) {
    rough[r] = (int)(5 * (uniform() + 1)) % 10;
    double level = uniform();
    for (int i = 0; i < cols; i++)
      m[(long)r * cols + i] = level + rough[r] * 0.2 * uniform();
  }
  reference(m, rows, cols, exact);
  double best = 1e30;
  for (int rep = 0; rep < 3; rep++) {
    double t0 = now();
    kernel(m, rough, rows, cols, approx);
    double t = now() - t0;
    best = t < best ? t : best;
  }
  double num = 0, den = 0;
  for (int r = 0; r < rows; r++) {
    num += (exact[r] - approx[r]) * (exact[r] - approx[r]);
    den += exact[r] * exact[r];
  }
  double qos = 1 - sqrt(num / den);
  printf("approx-result: time=%.9f qos=%.9f\n", best, qos < 0 ? 0 : qos);
  return 0;
}
