/* pagerank (header: the kernel with its knobs and the input generator,
 * shared by the pagerank benchmark and the LLM + tools system): pull-based PageRank (alpha = 0.85, dangling mass spread
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
#ifndef APPROX_PAGERANK_H
#define APPROX_PAGERANK_H

#include "../common/bench.h"

enum { PR_TOP = 1000, PR_ITERS = 30 };
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

int pagerank_size_class(int n) { return n >= 1000000 ? 2 : n >= 100000 ? 1 : 0; }

void pagerank(int n, const int *off, const int *src, const int *out_deg,
              double *rank, double *next, double *contrib, int cls) {
  // @approx:decision_tree {
  //   knob_name: iterations
  //   transform_type: loop_perforate
  //   state_indices: [-1]
  //   state_function: pagerank_size_class
  //   thresholds: [1]
  //   thresholds_lower: [1]
  //   thresholds_upper: [2]
  //   decisions: [0, 0]
  //   decision_values: [0, 2, 3]
  // }
  for (int iter = 0; iter < PR_ITERS; iter++) {
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

/* A pagerank input: a power-law graph in CSR form by in-edges. */
typedef struct {
  int n, *off, *src, *out_deg;
} pr_graph;

/* Instance `instance` of size class `size` (0 tiny, 1 small, 2 paper).
 * In-degrees: Pareto(alpha 2, minimum 5), mean 10; sources by a skewed
 * popularity over a random permutation of the nodes. */
static pr_graph pagerank_generate(int size, int instance) {
  static const int sizes[] = {5000, 200000, 2000000};
  pr_graph g;
  int n = g.n = sizes[size];
  bench_seed(4, instance);
  int *off = g.off = malloc(sizeof(int) * (n + 1));
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
  g.src = malloc(sizeof(int) * m);
  g.out_deg = calloc(n, sizeof(int));
  for (int e = 0; e < m; e++) {
    double u = bench_uniform();
    g.src[e] = perm[(int)(n * u * u)];
    g.out_deg[g.src[e]]++;
  }
  free(perm);
  return g;
}

/* Working arrays of the kernel for `n` nodes: ranks at 1/n. */
typedef struct {
  double *rank, *next, *contrib;
} pr_state;

static pr_state pagerank_state(int n) {
  pr_state s = {malloc(sizeof(double) * n), malloc(sizeof(double) * n),
                malloc(sizeof(double) * n)};
  for (int v = 0; v < n; v++)
    s.rank[v] = 1.0 / n;
  return s;
}

static void pagerank_state_free(pr_state *s) {
  free(s->rank);
  free(s->next);
  free(s->contrib);
}

/* The kernel on `g` from `s` (the ranks end in s->rank). */
static void pagerank_run(const pr_graph *g, pr_state *s) {
  pagerank(g->n, g->off, g->src, g->out_deg, s->rank, s->next, s->contrib,
           pagerank_size_class(g->n));
}

#endif
