// JPEG-style coding of a generated grey image, after AxBench's jpeg
// (its DCT and quantisation; no entropy coding): each 8x8 block is level-
// shifted, transformed by the orthonormal 2D DCT-II, quantised with the
// JPEG luminance table at quality 75, dequantised and transformed back.
// The output is the decoded 8-bit image. Written for this suite. QoS:
// image RMSE against the exact decoder's image (approx-qos image-rmse).
//
// Knobs:
//  - forward_dct: perforation of the horizontal-frequency loop of the
//    row transform; the skipped frequencies stay zero (their coefficients
//    are cleared first: zero is the right fill for a dropped frequency);
//  - code_block: task skipping by the block's activity (the range of its
//    pixels): below the threshold a block is coded by its DC coefficient
//    alone, its mean.
#include "axbench.h"

#include <cmath>
#include <vector>

static double COS[8][8]; // COS[u][x] = c(u) cos((2x + 1) u pi / 16)
static const int LUMA[64] = {
    16, 11, 10, 16, 24,  40,  51,  61,  12, 12, 14, 19, 26,  58,  60,  55,
    14, 13, 16, 24, 40,  57,  69,  56,  14, 17, 22, 29, 51,  87,  80,  62,
    18, 22, 37, 56, 68,  109, 103, 77,  24, 35, 55, 64, 81,  104, 113, 92,
    49, 64, 78, 87, 103, 121, 120, 101, 72, 92, 95, 98, 112, 100, 103, 99};
static double QUANT[64]; // LUMA at quality 75: scaled by 0.5, at least 1

static void init_tables() {
  for (int u = 0; u < 8; u++)
    for (int x = 0; x < 8; x++)
      COS[u][x] = (u ? 0.5 : 0.5 / std::sqrt(2.0)) *
                  std::cos((2 * x + 1) * u * 3.14159265358979323846 / 16);
  for (int i = 0; i < 64; i++) {
    double q = std::floor((LUMA[i] * 50 + 50) / 100.0);
    QUANT[i] = q < 1 ? 1 : q;
  }
}

void forward_dct(const double *block, double *coef) {
  double tmp[64] = {0}; // tmp[u * 8 + y]: row y's frequency u
  // @approx:static_transform transform_type=loop_perforate knob_val=0 decision_values=[0, 2, 3, 4]
  for (int u = 0; u < 8; u++)
    for (int y = 0; y < 8; y++) {
      double s = 0;
      for (int x = 0; x < 8; x++)
        s += COS[u][x] * block[y * 8 + x];
      tmp[u * 8 + y] = s;
    }
  for (int v = 0; v < 8; v++)
    for (int u = 0; u < 8; u++) {
      double s = 0;
      for (int y = 0; y < 8; y++)
        s += COS[v][y] * tmp[u * 8 + y];
      coef[v * 8 + u] = s;
    }
}

void inverse_dct(const double *coef, double *block) {
  double tmp[64];
  for (int y = 0; y < 8; y++)
    for (int u = 0; u < 8; u++) {
      double s = 0;
      for (int v = 0; v < 8; v++)
        s += COS[v][y] * coef[v * 8 + u];
      tmp[y * 8 + u] = s;
    }
  for (int y = 0; y < 8; y++)
    for (int x = 0; x < 8; x++) {
      double s = 0;
      for (int u = 0; u < 8; u++)
        s += COS[u][x] * tmp[y * 8 + u];
      block[y * 8 + x] = s;
    }
}

static double pixel(double v) {
  v = std::floor(v + 128.5);
  return v < 0 ? 0 : v > 255 ? 255 : v;
}

// @approx:decision_tree {
//   transform_type: task_skipping
//   state_indices: [-1]
//   thresholds: [8]
//   thresholds_lower: [1]
//   thresholds_upper: [64]
//   decisions: [0, 0]
//   decision_values: [0, 2]
// }
void code_block(const double *shifted, double *decoded, int activity) {
  if (activity >= 0) {
    double coef[64], rec[64];
    forward_dct(shifted, coef);
    for (int i = 0; i < 64; i++)
      coef[i] = std::floor(coef[i] / QUANT[i] + 0.5) * QUANT[i];
    inverse_dct(coef, rec);
    for (int i = 0; i < 64; i++)
      decoded[i] = pixel(rec[i]);
  } else {
    double s = 0;
    for (int i = 0; i < 64; i++)
      s += shifted[i];
    // The DC coefficient is 8 x the mean; quantised as above.
    double dc = std::floor(s / 8 / QUANT[0] + 0.5) * QUANT[0];
    for (int i = 0; i < 64; i++)
      decoded[i] = pixel(dc / 8);
  }
}

void code_image(int w, int h, const double *in, double *out) {
  double block[64], decoded[64];
  for (int by = 0; by < h; by += 8)
    for (int bx = 0; bx < w; bx += 8) {
      double lo = 255, hi = 0;
      for (int y = 0; y < 8; y++)
        for (int x = 0; x < 8; x++) {
          double p = in[(by + y) * w + bx + x];
          block[y * 8 + x] = p - 128;
          lo = p < lo ? p : lo;
          hi = p > hi ? p : hi;
        }
      code_block(block, decoded, int(hi - lo));
      for (int y = 0; y < 8; y++)
        for (int x = 0; x < 8; x++)
          out[(by + y) * w + bx + x] = decoded[y * 8 + x];
    }
}

int main(int argc, char **argv) {
  bench_args a = bench_parse(argc, argv);
  static const int sides[] = {128, 1024, 2048};
  int w = sides[a.size], h = sides[a.size];
  init_tables();
  std::vector<double> in = axbench::image(w, h, 25, a.instance), out(in.size());
  double t0 = bench_now();
  code_image(w, h, in.data(), out.data());
  double t = bench_now() - t0;
  axbench::finish(a.output, out.data(), h, w, t);
  return 0;
}
