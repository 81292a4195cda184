/* Kernels for comparing approx-cc's exact build with clang -O3. Each kernel
 * runs on fixed data and prints its checksum and its time in seconds. */
#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + 1e-9 * ts.tv_nsec;
}

enum { N = 320 };
static double A[N][N], B[N][N], C[N][N];

double matmul(void) {
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) {
      double s = 0;
      for (int k = 0; k < N; k++)
        s += A[i][k] * B[k][j];
      C[i][j] = s;
    }
  return C[N / 2][N / 3];
}

long sieve(int n) {
  char *composite = calloc(n + 1, 1);
  long count = 0;
  for (int i = 2; i <= n; i++) {
    if (composite[i])
      continue;
    count += i;
    for (long j = (long)i * i; j <= n; j += i)
      composite[j] = 1;
  }
  free(composite);
  return count;
}

long histogram(const unsigned *data, int n, long *bins) {
  for (int i = 0; i < 256; i++)
    bins[i] = 0;
  for (int i = 0; i < n; i++)
    bins[(data[i] * 2654435761u) >> 24]++;
  long m = 0;
  for (int i = 0; i < 256; i++)
    m = bins[i] > m ? bins[i] : m;
  return m;
}

double stencil(double *u, double *v, int n, int steps) {
  for (int t = 0; t < steps; t++) {
    for (int i = 1; i < n - 1; i++)
      v[i] = 0.25 * u[i - 1] + 0.5 * u[i] + 0.25 * u[i + 1];
    double *w = u;
    u = v;
    v = w;
  }
  return u[n / 2];
}

/* Asserts in a hot loop, built without -DNDEBUG (issue 43, defect 5): the
 * failure path is a call that never returns, inside a loop with a knob. */
double checked_norm(const double *x, int n, int reps) {
  double s = 0;
  for (int r = 0; r < reps; r++) {
    // @approx:static_transform transform_type=loop_perforate knob_val=0 decision_values=[0, 2]
    for (int i = 0; i < n; i++) {
      assert(x[i] >= 0 && x[i] < 1e6);
      s += x[i] * x[i];
    }
  }
  return s;
}

int main(void) {
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) {
      A[i][j] = (i * 31 + j) % 17 * 0.25;
      B[i][j] = (i + j * 7) % 13 * 0.5;
    }
  int n = 1 << 24;
  unsigned *data = malloc(n * sizeof *data);
  for (int i = 0; i < n; i++)
    data[i] = i * 7919u + 13;
  long bins[256];
  double *u = calloc(100000, sizeof *u), *v = calloc(100000, sizeof *v);
  u[50000] = 1000;

  double t0 = now();
  double r1 = matmul();
  double t1 = now();
  long r2 = sieve(20000000);
  double t2 = now();
  long r3 = histogram(data, n, bins);
  double t3 = now();
  double r4 = stencil(u, v, 100000, 1000);
  double t4 = now();
  for (int i = 0; i < 100000; i++)
    v[i] = (i % 101) * 0.5;
  double r5 = checked_norm(v, 100000, 400);
  double t5 = now();
  printf("matmul %.6f %.6f\n", r1, t1 - t0);
  printf("sieve %ld %.6f\n", r2, t2 - t1);
  printf("histogram %ld %.6f\n", r3, t3 - t2);
  printf("stencil %.9f %.6f\n", r4, t4 - t3);
  printf("asserts %.6f %.6f\n", r5, t5 - t4);
  free(data);
  free(u);
  free(v);
  return 0;
}
