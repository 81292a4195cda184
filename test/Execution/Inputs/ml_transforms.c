/* Driver of ml-transforms.mlir. argv[1]: the configuration the program was
 * built (or is run) with: none = the annotations', "exact", or "shifted"
 * (ml_transforms.json). Computes every exact result in C, predicts each
 * approximation (int8 arithmetic, f16/bf16 rounding, the sampled sum)
 * independently, and checks QoS bounds. */
#include "check.h"
#include <stdint.h>
#include <string.h>

typedef struct { float *alloc, *aligned; int64_t offset, sizes[1], strides[1]; } M1;
typedef struct { float *alloc, *aligned; int64_t offset, sizes[2], strides[2]; } M2;
typedef struct { float *alloc, *aligned; int64_t offset, sizes[3], strides[3]; } M3;
typedef struct { float *alloc, *aligned; int64_t offset; } M0;

void _mlir_ciface_mm(M2 *r, M2 *a, M2 *w, M2 *c, int32_t state);
void _mlir_ciface_mm_const(M2 *r, M2 *a, int32_t state);
void _mlir_ciface_bmm(M3 *r, M3 *a, M3 *w, M3 *c, int32_t state);
void _mlir_ciface_mm_narrow(M2 *r, M2 *a, M2 *w, M2 *c, int32_t state);
void _mlir_ciface_total(M0 *r, M1 *x, int32_t state);
void _mlir_ciface_block(M1 *r, M1 *x, int32_t state);

static M1 m1(float *p, int64_t n) { M1 m = {p, p, 0, {n}, {1}}; return m; }
static M2 m2(float *p, int64_t r, int64_t c) {
  M2 m = {p, p, 0, {r, c}, {c, 1}};
  return m;
}
static M3 m3(float *p, int64_t b, int64_t r, int64_t c) {
  M3 m = {p, p, 0, {b, r, c}, {r * c, c, 1}};
  return m;
}
static float at2(const M2 *m, int i, int j) {
  return m->aligned[m->offset + i * m->strides[0] + j * m->strides[1]];
}
static float at3(const M3 *m, int b, int i, int j) {
  return m->aligned[m->offset + b * m->strides[0] + i * m->strides[1] +
                    j * m->strides[2]];
}

static unsigned seed = 12345;
static float rnd(void) { /* uniform in [-1, 1) */
  seed = seed * 1103515245u + 12345u;
  return (float)((seed >> 8) & 0xFFFF) / 32768.0f - 1.0f;
}

/* The quantization the compiler generates: scale = absmax / 127 (absmax at
 * least 1e-30), q = clamp(roundeven(x / scale), -127, 127). */
static float absmax(const float *x, int n, int stride) {
  float m = 1e-30f;
  for (int i = 0; i < n; ++i)
    m = fmaxf(m, fabsf(x[i * stride]));
  return m;
}
static int q8(float x, float amax) {
  float r = nearbyintf(x / (amax / 127.0f));
  return (int)fminf(fmaxf(r, -127.0f), 127.0f);
}

/* C = A[m x k] W[k x n] (+ C0), exact or int8 with `scheme`. */
static void matmul(const float *a, const float *w, const float *c0, float *out,
                   int m, int k, int n, int scheme) {
  float amaxT = absmax(a, m * k, 1), wmaxT = absmax(w, k * n, 1);
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j) {
      if (scheme == 0) {
        float s = c0[i * n + j];
        for (int p = 0; p < k; ++p)
          s += a[i * k + p] * w[p * n + j];
        out[i * n + j] = s;
        continue;
      }
      float am = scheme == 1 ? absmax(a + i * k, k, 1) : amaxT;
      float wm = scheme == 1 ? absmax(w + j, k, n) : wmaxT;
      int32_t acc = 0;
      for (int p = 0; p < k; ++p)
        acc += q8(a[i * k + p], am) * q8(w[p * n + j], wm);
      float s = (am / 127.0f) * (wm / 127.0f);
      out[i * n + j] = (float)acc * s + c0[i * n + j];
    }
}

static float to_bf16(float x) {
  uint32_t u;
  memcpy(&u, &x, 4);
  u += 0x7FFF + ((u >> 16) & 1);
  u &= 0xFFFF0000u;
  memcpy(&x, &u, 4);
  return x;
}
static float narrow(float x, int kind) {
  /* 3: bf16 in contractions only (mm_narrow is one) */
  return kind == 1 ? (float)(_Float16)x : kind >= 2 ? to_bf16(x) : x;
}

/* Branch of a two-threshold tree. */
static int pick(const int *t, const int *d, int state) {
  return d[branch_of(t, 2, state)];
}

static int mode_exact, mode_shifted;

static void check_matrix(const char *what, int state, int k, const float *got,
                         const float *want, const float *exact, int n,
                         double bound) {
  char name[96];
  for (int i = 0; i < n; ++i) {
    snprintf(name, sizeof name, "%s(state=%d, k=%d)[%d]", what, state, k, i);
    ++checks;
    if (fabsf(got[i] - want[i]) > 1e-5f * (1.0f + fabsf(want[i]))) {
      ++failures;
      printf("FAIL %s: got %.9g, predicted %.9g\n", name, got[i], want[i]);
      break;
    }
  }
  double e[4096], g[4096];
  for (int i = 0; i < n; ++i) {
    e[i] = exact[i];
    g[i] = got[i];
  }
  snprintf(name, sizeof name, "%s(state=%d, k=%d)", what, state, k);
  expect_qos(name, e, g, n, k ? bound : 0.99999);
  if (k) { /* the approximation ran: not bit-identical to the exact result */
    int same = 1;
    for (int i = 0; i < n; ++i)
      same &= got[i] == exact[i];
    ++checks;
    if (same) {
      ++failures;
      printf("FAIL %s: identical to the exact result\n", name);
    }
  }
}

int main(int argc, char **argv) {
  mode_exact = argc > 1 && !strcmp(argv[1], "exact");
  mode_shifted = argc > 1 && !strcmp(argv[1], "shifted");
  const int states[] = {0, 7, 12, 17, 25};
  enum { S = sizeof states / sizeof *states };

  static float a[32 * 64], w[64 * 32], c0[32 * 32], c[32 * 32];
  for (int i = 0; i < 32 * 64; ++i) a[i] = rnd();
  for (int i = 0; i < 64 * 32; ++i) w[i] = rnd();
  for (int i = 0; i < 32 * 32; ++i) c0[i] = 0.25f * rnd();
  static float exact[32 * 32], want[32 * 32], got[32 * 32];
  matmul(a, w, c0, exact, 32, 64, 32, 0);

  for (int s = 0; s < S; ++s) {
    int st = states[s];
    /* mm: decode_quantize */
    int tm[2] = {10, 20}, dm[3] = {0, 1, 2};
    if (mode_shifted) { tm[0] = 5; tm[1] = 15; dm[1] = 2; dm[2] = 1; }
    int k = mode_exact ? 0 : pick(tm, dm, st);
    memcpy(c, c0, sizeof c);
    M2 A = m2(a, 32, 64), W = m2(w, 64, 32), C = m2(c, 32, 32), R;
    _mlir_ciface_mm(&R, &A, &W, &C, st);
    for (int i = 0; i < 32; ++i)
      for (int j = 0; j < 32; ++j)
        got[i * 32 + j] = at2(&R, i, j);
    matmul(a, w, c0, want, 32, 64, 32, k);
    check_matrix("mm", st, k, got, want, exact, 32 * 32, 0.97);

    /* mm_narrow: precision_reduce */
    int tp[2] = {10, 20}, dp[3] = {0, 1, 2};
    if (mode_shifted) dp[2] = 3;
    k = mode_exact ? 0 : pick(tp, dp, st);
    memcpy(c, c0, sizeof c);
    _mlir_ciface_mm_narrow(&R, &A, &W, &C, st);
    for (int i = 0; i < 32; ++i)
      for (int j = 0; j < 32; ++j)
        got[i * 32 + j] = at2(&R, i, j);
    {
      static float an[32 * 64], wn[64 * 32];
      for (int i = 0; i < 32 * 64; ++i) an[i] = narrow(a[i], k);
      for (int i = 0; i < 64 * 32; ++i) wn[i] = narrow(w[i], k);
      matmul(an, wn, c0, want, 32, 64, 32, 0);
    }
    check_matrix("mm_narrow", st, k, got, want, exact, 32 * 32,
                 k == 1 ? 0.999 : 0.99);
  }

  /* mm_const: the weights are the constant of the MLIR file, read back
   * from the exact build's result on unit rows. */
  {
    static float wc[16 * 8], e4[4 * 8], a4[4 * 16], z[4 * 8];
    for (int r = 0; r < 16; r += 4) {
      memset(a4, 0, sizeof a4);
      for (int i = 0; i < 4; ++i) a4[i * 16 + r + i] = 1.0f;
      M2 A4 = m2(a4, 4, 16), R;
      _mlir_ciface_mm_const(&R, &A4, 0); /* state 0: exact in every mode */
      for (int i = 0; i < 4; ++i)
        for (int j = 0; j < 8; ++j)
          wc[(r + i) * 8 + j] = at2(&R, i, j);
    }
    for (int i = 0; i < 4 * 16; ++i) a4[i] = rnd();
    matmul(a4, wc, z, e4, 4, 16, 8, 0);
    for (int s = 0; s < S; ++s) {
      int st = states[s], t[2] = {10, 20}, d[3] = {0, 1, 2};
      int k = mode_exact ? 0 : pick(t, d, st);
      float g4[4 * 8], p4[4 * 8];
      M2 A4 = m2(a4, 4, 16), R;
      _mlir_ciface_mm_const(&R, &A4, st);
      for (int i = 0; i < 4; ++i)
        for (int j = 0; j < 8; ++j)
          g4[i * 8 + j] = at2(&R, i, j);
      matmul(a4, wc, z, p4, 4, 16, 8, k);
      check_matrix("mm_const", st, k, g4, p4, e4, 4 * 8, 0.95);
    }
  }

  /* bmm: batched decode_quantize */
  {
    static float ba[2 * 8 * 32], bw[2 * 32 * 32], bc[2 * 8 * 32], bz[8 * 32];
    for (int i = 0; i < 2 * 8 * 32; ++i) ba[i] = rnd();
    for (int i = 0; i < 2 * 32 * 32; ++i) bw[i] = rnd();
    for (int s = 0; s < S; ++s) {
      int st = states[s], t[2] = {10, 20}, d[3] = {0, 1, 2};
      int k = mode_exact ? 0 : pick(t, d, st);
      memset(bc, 0, sizeof bc);
      M3 A = m3(ba, 2, 8, 32), W = m3(bw, 2, 32, 32), C = m3(bc, 2, 8, 32), R;
      _mlir_ciface_bmm(&R, &A, &W, &C, st);
      float g[512], p[512], e[512];
      for (int b = 0; b < 2; ++b) {
        matmul(ba + b * 256, bw + b * 1024, bz, p + b * 256, 8, 32, 32, k);
        matmul(ba + b * 256, bw + b * 1024, bz, e + b * 256, 8, 32, 32, 0);
        for (int i = 0; i < 8; ++i)
          for (int j = 0; j < 32; ++j)
            g[b * 256 + i * 32 + j] = at3(&R, b, i, j);
      }
      /* per tensor (k = 2) is over each batch's whole matrix in C only when
       * the batch is one tensor: the compiler's scale spans the batch. */
      if (k == 2) {
        float am = absmax(ba, 2 * 8 * 32, 1), wm = absmax(bw, 2 * 32 * 32, 1);
        for (int b = 0; b < 2; ++b)
          for (int i = 0; i < 8; ++i)
            for (int j = 0; j < 32; ++j) {
              int32_t acc = 0;
              for (int q = 0; q < 32; ++q)
                acc += q8(ba[b * 256 + i * 32 + q], am) *
                       q8(bw[b * 1024 + q * 32 + j], wm);
              p[b * 256 + i * 32 + j] =
                  (float)acc * ((am / 127.0f) * (wm / 127.0f));
            }
      }
      check_matrix("bmm", st, k, g, p, e, 512, 0.95);
    }
  }

  /* total: loop_perforate of the sum, sampled and rescaled */
  {
    static float x[1000];
    for (int i = 0; i < 1000; ++i) x[i] = 1.0f + 0.5f * sinf(i * 0.01f);
    float ex = 0;
    for (int i = 0; i < 1000; ++i) ex += x[i];
    for (int s = 0; s < S; ++s) {
      int st = states[s], t[2] = {10, 20}, d[3] = {0, 2, 7};
      if (mode_shifted) { t[0] = 5; d[1] = 4; d[2] = 8; }
      int k = mode_exact ? 0 : pick(t, d, st), div = k > 1 ? k : 1;
      M1 X = m1(x, 1000);
      M0 R;
      _mlir_ciface_total(&R, &X, st);
      float got1 = R.aligned[R.offset];
      int count = (1000 + div - 1) / div;
      double sum = 0;
      for (int i = 0; i < 1000; i += div) sum += x[i];
      double want1 = sum * (1000.0 / count);
      char name[64];
      snprintf(name, sizeof name, "total(state=%d, k=%d)", st, k);
      /* The compiled sum is vectorized (reassociated, as XLA's sums are):
       * it agrees with the sum in order to float rounding, not bit for bit. */
      ++checks;
      if (fabs(got1 - want1) > 1e-6 * fabs(want1)) {
        ++failures;
        printf("FAIL %s: got %.9g, predicted %.9g\n", name, got1, want1);
      }
      /* Printed to 4 digits: baked and runtime-table builds vectorize the
       * sampled sum differently (a constant or a run-time stride). */
      double e1 = ex, g1 = got1, q = l2_accuracy(&e1, &g1, 1);
      double bound = k ? 0.99 : 0.999999;
      ++checks;
      printf("%s: qos=%.4f (bound %.3f)\n", name, q, bound);
      if (!(q >= bound)) {
        ++failures;
        printf("FAIL %s: qos %.6f below bound %.3f\n", name, q, bound);
      }
    }
  }

  /* block: func_substitute skips the residual block */
  {
    static float x[64];
    for (int i = 0; i < 64; ++i) x[i] = rnd();
    for (int s = 0; s < S; ++s) {
      int st = states[s];
      int thr = mode_shifted ? 20 : 10;
      int k = mode_exact ? 0 : st >= thr;
      M1 X = m1(x, 64), R;
      _mlir_ciface_block(&R, &X, st);
      char name[64];
      for (int i = 0; i < 64; ++i) {
        float want1 = k ? x[i] : x[i] + fmaxf(x[i], 0.0f);
        snprintf(name, sizeof name, "block(state=%d, k=%d)[%d]", st, k, i);
        expect_near(name, R.aligned[R.offset + i * R.strides[0]], want1);
      }
    }
  }
  return finish("ml_transforms");
}
