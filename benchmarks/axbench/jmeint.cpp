// Triangle-triangle intersection in 3D for pairs of random triangles, after
// AxBench's jmeint; written for this suite as a separating-axis test: two
// triangles are disjoint when their projections onto some axis do not
// overlap; the candidate axes are the two face normals and the nine cross
// products of their edges (for coplanar triangles, the in-plane normals of
// the six edges instead). QoS: AxBench's miss rate (approx-qos miss-rate:
// the share of pairs whose answer differs).
//
// Knob: test_pair, a decision tree on the pair's size class (0: both
// triangles small, 1: one large, 2: both large; a large one has an edge
// over a quarter of the scene) choosing the test per class: exact;
// 1: the two face normals only (a pair separated only by an edge-edge or
// in-plane axis counts as intersecting); 2: bounding boxes only.
#include "axbench.h"

#include <cmath>
#include <vector>

static void sub(const double *a, const double *b, double *r) {
  for (int k = 0; k < 3; k++)
    r[k] = a[k] - b[k];
}
static void cross(const double *a, const double *b, double *r) {
  r[0] = a[1] * b[2] - a[2] * b[1];
  r[1] = a[2] * b[0] - a[0] * b[2];
  r[2] = a[0] * b[1] - a[1] * b[0];
}
static double dot(const double *a, const double *b) {
  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

// Whether the projections of triangles p and q (9 coordinates each) onto
// `axis` are disjoint. A zero axis separates nothing.
static bool separates(const double *p, const double *q, const double *axis) {
  if (dot(axis, axis) < 1e-24)
    return false;
  double pmin = 1e300, pmax = -1e300, qmin = 1e300, qmax = -1e300;
  for (int v = 0; v < 3; v++) {
    double a = dot(p + 3 * v, axis), b = dot(q + 3 * v, axis);
    pmin = a < pmin ? a : pmin;
    pmax = a > pmax ? a : pmax;
    qmin = b < qmin ? b : qmin;
    qmax = b > qmax ? b : qmax;
  }
  return pmax < qmin || qmax < pmin;
}

static void edges(const double *t, double *e) {
  sub(t + 3, t, e);
  sub(t + 6, t + 3, e + 3);
  sub(t, t + 6, e + 6);
}

static bool normalsSeparate(const double *p, const double *q, double *np,
                            double *nq) {
  double e[9];
  edges(p, e);
  cross(e, e + 3, np);
  edges(q, e);
  cross(e, e + 3, nq);
  return separates(p, q, np) || separates(p, q, nq);
}

int intersects(const double *p, const double *q) {
  double np[3], nq[3], ep[9], eq[9], axis[3];
  if (normalsSeparate(p, q, np, nq))
    return 0;
  edges(p, ep);
  edges(q, eq);
  double c[3];
  cross(np, nq, c);
  if (dot(c, c) > 1e-12 * dot(np, np) * dot(nq, nq)) {
    for (int i = 0; i < 3; i++)
      for (int j = 0; j < 3; j++) {
        cross(ep + 3 * i, eq + 3 * j, axis);
        if (separates(p, q, axis))
          return 0;
      }
    return 1;
  }
  // Coplanar: the in-plane normals of every edge.
  for (int i = 0; i < 3; i++) {
    cross(np, ep + 3 * i, axis);
    if (separates(p, q, axis))
      return 0;
    cross(np, eq + 3 * i, axis);
    if (separates(p, q, axis))
      return 0;
  }
  return 1;
}

int approx_test_pair_1(const double *p, const double *q, int size_class) {
  double np[3], nq[3];
  return normalsSeparate(p, q, np, nq) ? 0 : 1;
}

int approx_test_pair_2(const double *p, const double *q, int size_class) {
  for (int k = 0; k < 3; k++) {
    double pmin = p[k], pmax = p[k], qmin = q[k], qmax = q[k];
    for (int v = 1; v < 3; v++) {
      pmin = p[3 * v + k] < pmin ? p[3 * v + k] : pmin;
      pmax = p[3 * v + k] > pmax ? p[3 * v + k] : pmax;
      qmin = q[3 * v + k] < qmin ? q[3 * v + k] : qmin;
      qmax = q[3 * v + k] > qmax ? q[3 * v + k] : qmax;
    }
    if (pmax < qmin || qmax < pmin)
      return 0;
  }
  return 1;
}

// The size class of a pair: how many of its triangles are large.
int pair_class(const double *p, const double *q) {
  int large = 0;
  for (const double *t : {p, q}) {
    double e[9], longest = 0;
    edges(t, e);
    for (int i = 0; i < 3; i++) {
      double l = dot(e + 3 * i, e + 3 * i);
      longest = l > longest ? l : longest;
    }
    large += longest > 0.25 * 0.25;
  }
  return large;
}

// @approx:decision_tree {
//   transform_type: func_substitute
//   state_indices: [-1]
//   thresholds: [1, 2]
//   thresholds_lower: [1, 2]
//   thresholds_upper: [1, 2]
//   decisions: [0, 0, 0]
//   decision_values: [0, 1, 2]
// }
int test_pair(const double *p, const double *q, int size_class) {
  return intersects(p, q);
}

void test_all(int n, const double *tris, double *hit) {
  for (int i = 0; i < n; i++) {
    const double *p = tris + 18 * i, *q = p + 9;
    hit[i] = test_pair(p, q, pair_class(p, q));
  }
}

int main(int argc, char **argv) {
  bench_args a = bench_parse(argc, argv);
  static const int sizes[] = {4096, 400000, 4000000};
  int n = sizes[a.size];
  bench_seed(23, a.instance);
  // Triangles in the unit cube: a centre and three vertices around it at a
  // random scale (0.02-0.4), so that about half the pairs intersect.
  std::vector<double> tris(18 * size_t(n)), hit(n);
  for (int i = 0; i < 2 * n; i++) {
    double c[3], scale = 0.02 + 0.38 * bench_uniform();
    for (int k = 0; k < 3; k++)
      c[k] = 0.35 + 0.3 * bench_uniform();
    for (int v = 0; v < 3; v++)
      for (int k = 0; k < 3; k++)
        tris[9 * size_t(i) + 3 * v + k] = c[k] + scale * (bench_uniform() - 0.5);
  }
  double t0 = bench_now();
  test_all(n, tris.data(), hit.data());
  double t = bench_now() - t0;
  axbench::finish(a.output, hit.data(), n, 1, t);
  return 0;
}
