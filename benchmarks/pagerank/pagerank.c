/* pagerank: pull-based PageRank (alpha = 0.85, dangling mass spread
 * uniformly) on a power-law graph, a fixed number of iterations; two rank
 * arrays, so an iteration reads only the previous one. QoS: RBO (p = 0.95)
 * of the top-1000 nodes (approx-qos rbo).
 *
 * Knobs:
 *  - pull:        in-neighbour sampling: every k-th in-edge, rescaled by
 *                 in-degree / sampled edges; state: the node's in-degree;
 *  - update_node: skip the pull of low in-degree nodes (task skipping: they
 *                 keep the teleport share only); state: the in-degree;
 *  - pagerank:    perforate the iteration loop (fewer iterations). */
#include "../common/bench.h"

enum { TOP = 1000, ITERS = 30 };
static const double ALPHA = 0.85;

// @approx:decision_tree {
//   transform_type: loop_perforate
//   state_indices: [-1]
//   thresholds: [16, 64]
//   thresholds_lower: [5, 10]
//   thresholds_upper: [60, 400]
//   decisions: [0, 0, 0]
//   decision_values: [0, 2, 3, 4, 8]
// }
double pull(const int *src, int deg, const double *contrib, int in_degree) {
  double s = 0;
  int c = 0;
  for (int j = 0; j < deg; j++) {
    s += contrib[src[j]];
    c++;
  }
  return c ? s * deg / c : 0;
}

// @approx:decision_tree {
//   transform_type: task_skipping
//   state_indices: [-1]
//   thresholds: [6]
//   thresholds_lower: [5]
//   thresholds_upper: [12]
//   decisions: [0, 0]
//   decision_values: [0, 2]
// }
double update_node(const int *src, int deg, const double *contrib,
                   double base, int in_degree) {
  if (deg > 0)
    return base + ALPHA * pull(src, deg, contrib, deg);
  else
    return base;
}

int size_class(int n) { return n >= 1000000 ? 2 : n >= 100000 ? 1 : 0; }

void pagerank(int n, const int *off, const int *src, const int *out_deg,
              double *rank, double *next, double *contrib, int cls) {
  // @approx:decision_tree {
  //   knob_name: iterations
  //   transform_type: loop_perforate
  //   state_indices: [-1]
  //   state_function: size_class
  //   thresholds: [1]
  //   thresholds_lower: [1]
  //   thresholds_upper: [2]
  //   decisions: [0, 0]
  //   decision_values: [0, 2, 3]
  // }
  for (int iter = 0; iter < ITERS; iter++) {
    double dangling = 0;
    for (int u = 0; u < n; u++) {
      if (out_deg[u] > 0) {
        contrib[u] = rank[u] / out_deg[u];
      } else {
        contrib[u] = 0;
        dangling += rank[u];
      }
    }
    double base = (1 - ALPHA) / n + ALPHA * dangling / n;
    for (int v = 0; v < n; v++)
      next[v] = update_node(src + off[v], off[v + 1] - off[v], contrib, base,
                            off[v + 1] - off[v]);
    memcpy(rank, next, sizeof(double) * n);
  }
}

int main(int argc, char **argv) {
  bench_args a = bench_parse(argc, argv);
  static const int sizes[] = {5000, 200000, 2000000};
  int n = sizes[a.size];
  bench_seed(4, a.instance);
  /* In-degrees: Pareto(alpha 2, minimum 5), mean 10; sources by a skewed
   * popularity over a random permutation of the nodes. */
  int *off = malloc(sizeof(int) * (n + 1));
  off[0] = 0;
  for (int v = 0; v < n; v++) {
    double d = 5 / sqrt(1 - bench_uniform());
    off[v + 1] = off[v] + (d > 2000 ? 2000 : (int)d);
  }
  int *perm = malloc(sizeof(int) * n);
  for (int i = 0; i < n; i++)
    perm[i] = i;
  for (int i = n - 1; i > 0; i--) {
    int j = (int)(bench_u64() % (uint64_t)(i + 1)), t = perm[i];
    perm[i] = perm[j];
    perm[j] = t;
  }
  int m = off[n];
  int *src = malloc(sizeof(int) * m);
  int *out_deg = calloc(n, sizeof(int));
  for (int e = 0; e < m; e++) {
    double u = bench_uniform();
    src[e] = perm[(int)(n * u * u)];
    out_deg[src[e]]++;
  }
  double *rank = malloc(sizeof(double) * n), *next = malloc(sizeof(double) * n);
  double *contrib = malloc(sizeof(double) * n);
  for (int v = 0; v < n; v++)
    rank[v] = 1.0 / n;

  double t0 = bench_now();
  pagerank(n, off, src, out_deg, rank, next, contrib, size_class(n));
  double t = bench_now() - t0;

  int top[TOP];
  bench_top_k(rank, n, TOP, top);
  FILE *f = bench_open(a.output);
  for (int i = 0; i < TOP && top[i] >= 0; i++)
    fprintf(f, "%d\n", top[i]);
  fclose(f);
  printf("%.9f\n", t);
  return 0;
}
