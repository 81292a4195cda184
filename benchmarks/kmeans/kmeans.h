/* kmeans (header: the kernel with its knobs and the input generator, shared
 * by the kmeans benchmark and the LLM + tools system): Lloyd's algorithm, k = 10 clusters of 8-dimensional points, a
 * fixed number of iterations. QoS: L2 accuracy of the centroids after
 * matching them to the exact ones (approx-qos l2-matched 8).
 *
 * Knobs (the state of the two loop knobs is the iteration number: early
 * iterations move centroids far and tolerate sampling, late ones refine):
 *  - assign: reassign only every k-th point (the others keep their label);
 *  - update: recompute the centroids from every k-th point;
 *  - lloyd:  perforate the iteration loop itself (fewer iterations). */
#ifndef APPROX_KMEANS_H
#define APPROX_KMEANS_H

#include "../common/bench.h"

enum { D = 8, K = 10, ITERS = 16 };

static int nearest(const double *p, const double *cent) {
  int best = 0;
  double bestD = 1e300;
  for (int c = 0; c < K; c++) {
    double d = 0;
    for (int j = 0; j < D; j++) {
      double t = p[j] - cent[c * D + j];
      d += t * t;
    }
    if (d < bestD) {
      bestD = d;
      best = c;
    }
  }
  return best;
}

// @approx:decision_tree {
//   transform_type: loop_perforate
//   state_indices: [-1]
//   thresholds: [4, 10]
//   thresholds_lower: [0, 1]
//   thresholds_upper: [15, 16]
//   decisions: [0, 0, 0]
//   decision_values: [0, 2, 3, 4, 8]
// }
void assign(const double *pts, int n, const double *cent, int *label,
            int iter) {
  for (int i = 0; i < n; i++)
    label[i] = nearest(pts + (long)i * D, cent);
}

// @approx:decision_tree {
//   transform_type: loop_perforate
//   state_indices: [-1]
//   thresholds: [4, 10]
//   thresholds_lower: [0, 1]
//   thresholds_upper: [15, 16]
//   decisions: [0, 0, 0]
//   decision_values: [0, 2, 3, 4, 8]
// }
void update(const double *pts, int n, const int *label, double *sum,
            int *count, int iter) {
  for (int i = 0; i < n; i++) {
    int c = label[i];
    count[c]++;
    for (int j = 0; j < D; j++)
      sum[c * D + j] += pts[(long)i * D + j];
  }
}

int kmeans_size_class(int n) { return n >= 1000000 ? 2 : n >= 100000 ? 1 : 0; }

void lloyd(const double *pts, int n, double *cent, int *label, int cls) {
  double sum[K * D];
  int count[K];
  // @approx:decision_tree {
  //   knob_name: iterations
  //   transform_type: loop_perforate
  //   state_indices: [-1]
  //   state_function: kmeans_size_class
  //   thresholds: [1]
  //   thresholds_lower: [1]
  //   thresholds_upper: [2]
  //   decisions: [0, 0]
  //   decision_values: [0, 2, 3, 4, 8]
  // }
  for (int iter = 0; iter < ITERS; iter++) {
    assign(pts, n, cent, label, iter);
    memset(sum, 0, sizeof sum);
    memset(count, 0, sizeof count);
    update(pts, n, label, sum, count, iter);
    for (int c = 0; c < K; c++)
      if (count[c] > 0)
        for (int j = 0; j < D; j++)
          cent[c * D + j] = sum[c * D + j] / count[c];
  }
}

/* Instance `instance` of the input of size class `size` (0 tiny, 1 small,
 * 2 paper): n points around K Gaussian centres, and the initial centroids
 * (k points spread over the input). */
static double *kmeans_generate(int size, int instance, int *n_out, double *cent) {
  static const int sizes[] = {4000, 200000, 10000000};
  int n = sizes[size];
  bench_seed(5, instance);
  double centers[K * D];
  for (int i = 0; i < K * D; i++)
    centers[i] = 10 * bench_uniform();
  double *pts = malloc(sizeof(double) * (long)n * D);
  for (int i = 0; i < n; i++) {
    int c = (int)(bench_u64() % K);
    for (int j = 0; j < D; j++)
      pts[(long)i * D + j] = centers[c * D + j] + 1.5 * bench_normal();
  }
  for (int c = 0; c < K; c++)
    memcpy(cent + c * D, pts + (long)(c * (n / K)) * D, sizeof(double) * D);
  *n_out = n;
  return pts;
}

#endif
