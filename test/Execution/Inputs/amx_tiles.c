/* Driver of amx-tiles.mlir: each function against a C reference, exactly
 * (small integer operands: every product and sum is exact), and a digest of
 * its output bits (the same whichever lowering built it). */
#include "check.h"
#include <stdint.h>
#include <string.h>

typedef struct { void *alloc, *aligned; int64_t offset, sizes[2], strides[2]; } M2;
typedef struct { void *alloc, *aligned; int64_t offset, sizes[3], strides[3]; } M3;

void _mlir_ciface_qmm_odd(M2 *r, M2 *a, M2 *b);
void _mlir_ciface_bmm(M3 *r, M3 *a, M3 *b, M3 *c);
void _mlir_ciface_chain(M2 *r, M2 *x, M2 *w1, M2 *w2, M2 *q, M2 *p);
void _mlir_memref_to_llvm_free(void *);

static M2 m2(void *p, int64_t r, int64_t c) {
  M2 m = {p, p, 0, {r, c}, {c, 1}};
  return m;
}
static M3 m3(void *p, int64_t b, int64_t r, int64_t c) {
  M3 m = {p, p, 0, {b, r, c}, {r * c, c, 1}};
  return m;
}

static unsigned seed = 4242;
static int small(int range) { /* uniform in [-range, range] */
  seed = seed * 1103515245u + 12345u;
  return (int)((seed >> 8) % (2 * range + 1)) - range;
}
static uint16_t bf16(float f) { /* exact for the small integers used */
  uint32_t u;
  memcpy(&u, &f, 4);
  return (uint16_t)(u >> 16);
}
static float f32(uint16_t h) {
  uint32_t u = (uint32_t)h << 16;
  float f;
  memcpy(&f, &u, 4);
  return f;
}

/* got[i] == want[i] for all n (floats compared as values). */
static void expect_equal(const char *what, const float *got,
                         const double *want, int n) {
  ++checks;
  for (int i = 0; i < n; ++i)
    if (got[i] != want[i]) {
      ++failures;
      printf("FAIL %s[%d]: got %.9g, want %.9g\n", what, i, got[i], want[i]);
      return;
    }
}

enum { QM = 33, QK = 201, QN = 95 };
enum { B = 3, BM = 40, BK = 67, BN = 50 };
enum { CM = 64, CK = 96, CH = 48, CN = 10, CQ = 128 };
static int8_t qa[QM * QK], qb[QK * QN], cq[CM * CQ], cp[CQ * CN];
static uint16_t ba[B * BM * BK], bb[B * BK * BN], cx[CM * CK], cw1[CK * CH],
    cw2[CH * CN];
static float bc[B * BM * BN];
static double want[B * BM * BN];

int main(void) {
  for (int i = 0; i < QM * QK; ++i) qa[i] = (int8_t)small(127);
  for (int i = 0; i < QK * QN; ++i) qb[i] = (int8_t)small(127);
  for (int i = 0; i < B * BM * BK; ++i) ba[i] = bf16((float)small(4));
  for (int i = 0; i < B * BK * BN; ++i) bb[i] = bf16((float)small(4));
  for (int i = 0; i < B * BM * BN; ++i) bc[i] = (float)small(100);
  for (int i = 0; i < CM * CK; ++i) cx[i] = bf16((float)small(1));
  for (int i = 0; i < CK * CH; ++i) cw1[i] = bf16((float)small(1));
  for (int i = 0; i < CH * CN; ++i) cw2[i] = bf16((float)small(3));
  for (int i = 0; i < CM * CQ; ++i) cq[i] = (int8_t)small(127);
  for (int i = 0; i < CQ * CN; ++i) cp[i] = (int8_t)small(127);

  M2 r2, am = m2(qa, QM, QK), bm = m2(qb, QK, QN);
  _mlir_ciface_qmm_odd(&r2, &am, &bm);
  ++checks;
  for (int i = 0; i < QM * QN; ++i) {
    int32_t s = 0;
    for (int k = 0; k < QK; ++k)
      s += qa[i / QN * QK + k] * qb[k * QN + i % QN];
    if (((int32_t *)r2.aligned)[i] != s) {
      ++failures;
      printf("FAIL qmm_odd[%d]: got %d, want %d\n", i,
             ((int32_t *)r2.aligned)[i], s);
      break;
    }
  }
  digest("qmm_odd", r2.aligned, sizeof(int32_t) * QM * QN);
  _mlir_memref_to_llvm_free(r2.alloc);

  M3 r3, a3 = m3(ba, B, BM, BK), b3 = m3(bb, B, BK, BN), c3 = m3(bc, B, BM, BN);
  for (int t = 0; t < B; ++t)
    for (int i = 0; i < BM; ++i)
      for (int j = 0; j < BN; ++j) {
        double s = bc[(t * BM + i) * BN + j];
        for (int k = 0; k < BK; ++k)
          s += (double)f32(ba[(t * BM + i) * BK + k]) *
               f32(bb[(t * BK + k) * BN + j]);
        want[(t * BM + i) * BN + j] = s;
      }
  _mlir_ciface_bmm(&r3, &a3, &b3, &c3);
  expect_equal("bmm", r3.aligned, want, B * BM * BN);
  digest("bmm", r3.aligned, sizeof(float) * B * BM * BN);
  if (r3.alloc != bc)
    _mlir_memref_to_llvm_free(r3.alloc);

  M2 xm = m2(cx, CM, CK), w1m = m2(cw1, CK, CH), w2m = m2(cw2, CH, CN),
     qm = m2(cq, CM, CQ), pm = m2(cp, CQ, CN);
  for (int i = 0; i < CM; ++i)
    for (int j = 0; j < CN; ++j) {
      double y = 0, s = 0;
      for (int h = 0; h < CH; ++h) {
        double v = 0; /* |v| <= 96: exact in bf16 */
        for (int k = 0; k < CK; ++k)
          v += (double)f32(cx[i * CK + k]) * f32(cw1[k * CH + h]);
        y += v * f32(cw2[h * CN + j]);
      }
      for (int k = 0; k < CQ; ++k)
        s += cq[i * CQ + k] * cp[k * CN + j];
      want[i * CN + j] = y + s;
    }
  _mlir_ciface_chain(&r2, &xm, &w1m, &w2m, &qm, &pm);
  expect_equal("chain", r2.aligned, want, CM * CN);
  digest("chain", r2.aligned, sizeof(float) * CM * CN);
  _mlir_memref_to_llvm_free(r2.alloc);
  return finish("amx_tiles");
}
