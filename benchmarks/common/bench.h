/* Shared harness of the kernel benchmarks (header only, plain C).
 *
 *   <kernel> --size tiny|small|paper --instance N --output FILE
 *
 * generates input instance N of the given size from a seed (instance 0 is
 * the tuning input, 1..5 the evaluation inputs), runs the kernel, writes its
 * result to FILE and prints the kernel's time in seconds on stdout. */
#ifndef APPROX_BENCH_H
#define APPROX_BENCH_H

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef struct {
  int size; /* 0 tiny, 1 small, 2 paper */
  int instance;
  const char *output;
} bench_args;

static void bench_usage(const char *argv0) {
  fprintf(stderr,
          "usage: %s --size tiny|small|paper [--instance N] --output FILE\n",
          argv0);
  exit(2);
}

static bench_args bench_parse(int argc, char **argv) {
  bench_args a = {-1, 0, 0};
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--size") && i + 1 < argc) {
      const char *s = argv[++i];
      a.size = !strcmp(s, "tiny") ? 0 : !strcmp(s, "small") ? 1
               : !strcmp(s, "paper") ? 2 : -1;
      if (a.size < 0) {
        fprintf(stderr, "%s: unknown size '%s'\n", argv[0], s);
        exit(2);
      }
    } else if (!strcmp(argv[i], "--instance") && i + 1 < argc) {
      a.instance = atoi(argv[++i]);
    } else if (!strcmp(argv[i], "--output") && i + 1 < argc) {
      a.output = argv[++i];
    } else {
      bench_usage(argv[0]);
    }
  }
  if (a.size < 0 || !a.output)
    bench_usage(argv[0]);
  return a;
}

static FILE *bench_open(const char *path) {
  FILE *f = fopen(path, "w");
  if (!f) {
    fprintf(stderr, "cannot write '%s'\n", path);
    exit(1);
  }
  return f;
}

/* xorshift64*: seeded, fast, the same everywhere. */
static uint64_t bench_rng = 88172645463325252ull;
static void bench_seed(uint64_t kernel, int instance) {
  bench_rng = 0x9E3779B97F4A7C15ull * (kernel * 1000003ull + (uint64_t)instance + 1);
  for (int i = 0; i < 8; i++) { /* mix the seed */
    bench_rng ^= bench_rng >> 12;
    bench_rng ^= bench_rng << 25;
    bench_rng ^= bench_rng >> 27;
  }
}
static uint64_t bench_u64(void) {
  bench_rng ^= bench_rng >> 12;
  bench_rng ^= bench_rng << 25;
  bench_rng ^= bench_rng >> 27;
  return bench_rng * 2685821657736338717ull;
}
static double bench_uniform(void) { /* [0, 1) */
  return (double)(bench_u64() >> 11) * 0x1.0p-53;
}
static double bench_normal(void) {
  double u = bench_uniform(), v = bench_uniform();
  return sqrt(-2 * log(u + 1e-300)) * cos(6.283185307179586 * v);
}
/* Zipf(s) over 0..n-1 by inverting the CDF in `cdf` (n entries). */
static double *bench_zipf_cdf(int n, double s) {
  double *cdf = (double *)malloc(sizeof(double) * n), total = 0;
  for (int i = 0; i < n; i++)
    cdf[i] = total += 1 / pow(i + 1, s);
  for (int i = 0; i < n; i++)
    cdf[i] /= total;
  return cdf;
}
static int bench_zipf(const double *cdf, int n) {
  double u = bench_uniform();
  int lo = 0, hi = n - 1;
  while (lo < hi) {
    int mid = (lo + hi) / 2;
    if (cdf[mid] < u)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo;
}

static double bench_now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + 1e-9 * t.tv_nsec;
}

/* Top-`k` indices of `score` (n entries), best first, ties by index. */
static void bench_top_k(const double *score, int n, int k, int *out) {
  int m = 0;
  for (int i = 0; i < n; i++) {
    if (m == k && score[i] <= score[out[k - 1]])
      continue;
    int j = m < k ? m++ : k - 1;
    while (j > 0 && score[out[j - 1]] < score[i])
      out[j] = out[j - 1], j--;
    out[j] = i;
  }
  for (int i = m; i < k; i++)
    out[i] = -1;
}

/* Writes `nq` rankings of `k` ids (row-major in `top`), one per line, and
 * prints the kernel time: the output of the ranking kernels. */
static void bench_finish_rankings(const char *path, const int *top, int nq,
                                  int k, double seconds) {
  FILE *out = bench_open(path);
  for (int q = 0; q < nq; q++)
    for (int i = 0; i < k; i++)
      fprintf(out, "%d%c", top[q * k + i], i + 1 < k ? ' ' : '\n');
  fclose(out);
  printf("%.9f\n", seconds);
}

#endif
