/* Evaluation program of benchmarks/schedule (approx-tune's protocol):
 * times chain() (chain.mlir built with one configuration) on seeded inputs
 * and scores it against an exact double-precision reference: L2 accuracy
 * 1 - ||exact - approx|| / ||exact||. APPROX_INPUT_SET=evaluation draws
 * other inputs than the tuning set (held out); SCHEDULE_RUNS sets the timed
 * runs (median reported, default 101, after 10 untimed ones). */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { N = 512 };
typedef struct { float *alloc, *aligned; int64_t offset, sizes[2], strides[2]; } M2;
void _mlir_ciface_chain(M2 *r, M2 *x, M2 *w1, M2 *w2);
/* Results are the module's buffers (its buffer cache): released by it. */
void _mlir_memref_to_llvm_free(void *p);

static M2 m2(float *p) { M2 m = {p, p, 0, {N, N}, {N, 1}}; return m; }

static uint64_t state;
static float rnd(void) { /* uniform in [-1, 1) */
  state = state * 6364136223846793005ull + 1442695040888963407ull;
  return (float)((state >> 40) & 0xFFFFFF) / 8388608.0f - 1.0f;
}

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + 1e-9 * t.tv_nsec;
}

static int cmp(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

/* out = a b in double (i, k, j order). */
static void matmul(const double *a, const double *b, double *out) {
  memset(out, 0, sizeof(double) * N * N);
  for (int i = 0; i < N; ++i)
    for (int k = 0; k < N; ++k) {
      double s = a[i * N + k];
      for (int j = 0; j < N; ++j)
        out[i * N + j] += s * b[k * N + j];
    }
}

int main(void) {
  const char *set = getenv("APPROX_INPUT_SET");
  state = set && strcmp(set, "evaluation") == 0 ? 2 : 1;
  const char *r = getenv("SCHEDULE_RUNS");
  int runs = r ? atoi(r) : 101;
  if (runs < 1 || runs > 1000) {
    fprintf(stderr, "chain_driver: SCHEDULE_RUNS must be 1..1000\n");
    return 2;
  }
  float *x = malloc(sizeof(float) * N * N), *w1 = malloc(sizeof(float) * N * N),
        *w2 = malloc(sizeof(float) * N * N);
  for (int i = 0; i < N * N; ++i) x[i] = rnd();
  /* Weights scaled as in a trained layer (outputs of unit scale). */
  for (int i = 0; i < N * N; ++i) w1[i] = rnd() / sqrtf(N);
  for (int i = 0; i < N * N; ++i) w2[i] = rnd() / sqrtf(N);

  double *times = malloc(sizeof(double) * runs);
  M2 mx = m2(x), mw1 = m2(w1), mw2 = m2(w2), out = {0};
  for (int i = -10; i < runs; ++i) { /* warm-up: threads, caches, clocks */
    if (out.alloc)
      _mlir_memref_to_llvm_free(out.alloc);
    double t0 = now();
    _mlir_ciface_chain(&out, &mx, &mw1, &mw2);
    double t = now() - t0;
    if (i >= 0)
      times[i] = t;
  }
  qsort(times, runs, sizeof(double), cmp);

  double *dx = malloc(sizeof(double) * N * N), *d1 = malloc(sizeof(double) * N * N),
         *d2 = malloc(sizeof(double) * N * N), *h = malloc(sizeof(double) * N * N),
         *e = malloc(sizeof(double) * N * N);
  for (int i = 0; i < N * N; ++i) {
    dx[i] = x[i];
    d1[i] = w1[i];
    d2[i] = w2[i];
  }
  matmul(dx, d1, h);
  matmul(h, d2, e);
  double num = 0, den = 0;
  for (int i = 0; i < N; ++i)
    for (int j = 0; j < N; ++j) {
      double a = out.aligned[out.offset + i * out.strides[0] + j * out.strides[1]];
      num += (e[i * N + j] - a) * (e[i * N + j] - a);
      den += e[i * N + j] * e[i * N + j];
    }
  double qos = 1 - sqrt(num) / sqrt(den);
  printf("approx-result: time=%.9f qos=%.9f\n", times[runs / 2], qos < 0 ? 0 : qos);
  return 0;
}
