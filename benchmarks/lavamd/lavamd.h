/* lavaMD (header: the kernel with its knobs and the input generator, shared
 * by the lavaMD benchmark and the LLM + tools system), after Rodinia: particles in a 3-D grid of boxes; each particle
 * interacts with the particles of its own box and of the (up to 26)
 * neighbouring boxes through a screened potential exp(-a2 r^2). The result
 * is, per particle, the potential and the force (4 numbers), scaled by the
 * particle's own charge. QoS: L2 accuracy of all of them (approx-qos l2).
 *
 * Knobs:
 *  - self_box:      perforate the home-box interaction loop (every k-th
 *                   partner, rescaled); state: the particle's charge class
 *                   (low charges carry small forces);
 *  - neighbor_box:  substitute the neighbour-box interaction: 1 = fast exp,
 *                   2 = the neighbour box as one charge at its centre of
 *                   charge (far-field monopole); state: the home box's
 *                   neighbour count (interior boxes have the most work). */
#ifndef APPROX_LAVAMD_H
#define APPROX_LAVAMD_H

#include "../common/bench.h"

typedef struct {
  double v, x, y, z;
} vec4;

static const double A2 = 0.5; /* 2 * alpha^2, alpha = 0.5 */

static void interact(const vec4 *ri, const vec4 *rj, double qj, vec4 *f,
                     double ex) {
  double fs = 2 * ex;
  f->v += qj * ex;
  f->x += qj * fs * (ri->x - rj->x);
  f->y += qj * fs * (ri->y - rj->y);
  f->z += qj * fs * (ri->z - rj->z);
}

static double r2(const vec4 *a, const vec4 *b) {
  return a->v + b->v - 2 * (a->x * b->x + a->y * b->y + a->z * b->z);
}

int charge_class(int c) { return c; }

// @approx:decision_tree {
//   transform_type: loop_perforate
//   state_indices: [-1]
//   state_function: charge_class
//   thresholds: [3, 7]
//   thresholds_lower: [0, 1]
//   thresholds_upper: [9, 10]
//   decisions: [0, 0, 0]
//   decision_values: [0, 2, 3, 4, 8]
// }
void self_box(const vec4 *r, const double *q, int np, int i, vec4 *f,
              int charge) {
  vec4 acc = {0, 0, 0, 0};
  int c = 0;
  for (int j = 0; j < np; j++) {
    interact(&r[i], &r[j], q[j], &acc, exp(-A2 * r2(&r[i], &r[j])));
    c++;
  }
  double scale = (double)np / c;
  f->v += acc.v * scale;
  f->x += acc.x * scale;
  f->y += acc.y * scale;
  f->z += acc.z * scale;
}

/* exp(x) for x <= 0 by range reduction and a degree-5 polynomial. */
static double fast_exp(double x) {
  if (x < -700)
    return 0;
  double k = floor(x * 1.4426950408889634 + 0.5);
  double t = x - k * 0.6931471805599453;
  double p = 1 + t * (1 + t * (0.5 + t * (1.0 / 6 + t * (1.0 / 24 + t / 120))));
  return ldexp(p, (int)k);
}

void neighbor_box(const vec4 *rh, const double *qh, const vec4 *rn,
                  const double *qn, int np, vec4 *f, int neighbors) {
  for (int i = 0; i < np; i++)
    for (int j = 0; j < np; j++)
      interact(&rh[i], &rn[j], qn[j], &f[i], exp(-A2 * r2(&rh[i], &rn[j])));
}

void approx_neighbor_box_1(const vec4 *rh, const double *qh, const vec4 *rn,
                           const double *qn, int np, vec4 *f, int neighbors) {
  for (int i = 0; i < np; i++)
    for (int j = 0; j < np; j++)
      interact(&rh[i], &rn[j], qn[j], &f[i], fast_exp(-A2 * r2(&rh[i], &rn[j])));
}

void approx_neighbor_box_2(const vec4 *rh, const double *qh, const vec4 *rn,
                           const double *qn, int np, vec4 *f, int neighbors) {
  double qt = 0;
  vec4 c = {0, 0, 0, 0};
  for (int j = 0; j < np; j++) {
    qt += qn[j];
    c.x += qn[j] * rn[j].x;
    c.y += qn[j] * rn[j].y;
    c.z += qn[j] * rn[j].z;
  }
  c.x /= qt;
  c.y /= qt;
  c.z /= qt;
  c.v = c.x * c.x + c.y * c.y + c.z * c.z;
  for (int i = 0; i < np; i++)
    interact(&rh[i], &c, qt, &f[i], exp(-A2 * r2(&rh[i], &c)));
}

int neighbor_count(int n) { return n; }

// @approx:decision_tree {
//   transform_type: func_substitute
//   callee: neighbor_box
//   state_indices: [-1]
//   state_function: neighbor_count
//   thresholds: [18]
//   thresholds_lower: [8]
//   thresholds_upper: [27]
//   decisions: [0, 0]
//   decision_values: [0, 1, 2]
// }
void home_box(const vec4 *r, const double *q, const int *nbr, int nn, int np,
              int home, vec4 *f, int neighbors) {
  for (int k = 0; k < nn; k++) {
    int b = nbr[k];
    neighbor_box(r + home * np, q + home * np, r + b * np, q + b * np, np,
                 f + home * np, nn);
  }
}

void lavamd(const vec4 *r, const double *q, int nb, int np, vec4 *f) {
  int nbr[26];
  for (int bx = 0; bx < nb; bx++)
    for (int by = 0; by < nb; by++)
      for (int bz = 0; bz < nb; bz++) {
        int home = (bx * nb + by) * nb + bz, nn = 0;
        for (int dx = -1; dx <= 1; dx++)
          for (int dy = -1; dy <= 1; dy++)
            for (int dz = -1; dz <= 1; dz++) {
              int x = bx + dx, y = by + dy, z = bz + dz;
              if ((dx || dy || dz) && x >= 0 && y >= 0 && z >= 0 && x < nb &&
                  y < nb && z < nb)
                nbr[nn++] = (x * nb + y) * nb + z;
            }
        for (int i = 0; i < np; i++)
          self_box(r + home * np, q + home * np, np, i, f + home * np + i,
                   (int)(q[home * np + i] * 10));
        home_box(r, q, nbr, nn, np, home, f, nn + 1);
      }
  /* Forces act on charges: scale by the particle's own. */
  for (long i = 0; i < (long)nb * nb * nb * np; i++) {
    f[i].v *= q[i];
    f[i].x *= q[i];
    f[i].y *= q[i];
    f[i].z *= q[i];
  }
}

/* A lavaMD input: nb^3 unit boxes of np particles (position and |r|^2 in
 * r, charge in q). */
typedef struct {
  int nb, np;
  vec4 *r;
  double *q;
} md_system;

/* Instance `instance` of size class `size` (0 tiny, 1 small, 2 paper):
 * particles uniformly inside their box, charges in [0.1, 1). */
static md_system lavamd_generate(int size, int instance) {
  static const int boxes[] = {2, 4, 8}, perBox[] = {32, 64, 128};
  md_system s;
  int nb = s.nb = boxes[size], np = s.np = perBox[size];
  long n = (long)nb * nb * nb * np;
  bench_seed(1, instance);
  vec4 *r = s.r = malloc(sizeof(vec4) * n);
  double *q = s.q = malloc(sizeof(double) * n);
  for (int bx = 0; bx < nb; bx++)
    for (int by = 0; by < nb; by++)
      for (int bz = 0; bz < nb; bz++)
        for (int i = 0; i < np; i++) {
          long p = (long)((bx * nb + by) * nb + bz) * np + i;
          r[p].x = bx + bench_uniform();
          r[p].y = by + bench_uniform();
          r[p].z = bz + bench_uniform();
          r[p].v = r[p].x * r[p].x + r[p].y * r[p].y + r[p].z * r[p].z;
          q[p] = 0.1 + 0.9 * bench_uniform();
        }
  return s;
}

#endif
