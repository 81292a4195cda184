// Sobel edge detection on a generated grey image, after AxBench's sobel;
// written for this suite. Each pixel's gradient magnitude from the 3x3
// Sobel operators, rounded and clamped to 0..255 (an 8-bit image); border
// pixels copy their inner neighbour. QoS: image RMSE over 0..255 (approx-qos image-rmse: 1 -
// RMSE / 255).
//
// Knobs:
//  - magnitude: sqrt(gx^2 + gy^2), exact; 1: |gx| + |gy| (the classic
//    hardware form); 2: max + min / 2 of |gx|, |gy| (alpha max plus beta
//    min);
//  - sobel_rows: perforation of the loop over rows; a skipped row takes
//    the row before it (axbench::fillSkipped over records of one row).
#include "axbench.h"

#include <cmath>
#include <vector>

// @approx:static_transform transform_type=func_substitute knob_val=0 decision_values=[0, 1, 2]
double magnitude(double gx, double gy) { return std::sqrt(gx * gx + gy * gy); }

double approx_magnitude_1(double gx, double gy) {
  return std::fabs(gx) + std::fabs(gy);
}

double approx_magnitude_2(double gx, double gy) {
  double ax = std::fabs(gx), ay = std::fabs(gy);
  return ax > ay ? ax + ay / 2 : ay + ax / 2;
}

void sobel_row(int w, const double *up, const double *mid, const double *down,
               double *out) {
  for (int x = 1; x + 1 < w; x++) {
    double gx = (up[x + 1] + 2 * mid[x + 1] + down[x + 1]) -
                (up[x - 1] + 2 * mid[x - 1] + down[x - 1]);
    double gy = (down[x - 1] + 2 * down[x] + down[x + 1]) -
                (up[x - 1] + 2 * up[x] + up[x + 1]);
    double m = magnitude(gx, gy);
    out[x] = m > 255 ? 255 : std::floor(m + 0.5);
  }
  out[0] = out[1];
  out[w - 1] = out[w - 2];
}

void sobel_rows(int w, int h, const double *in, double *out) {
  axbench::markSkipped(out + w, h - 2, w);
  // @approx:static_transform transform_type=loop_perforate knob_val=0 decision_values=[0, 2, 3, 4]
  for (int y = 1; y + 1 < h; y++)
    sobel_row(w, in + (y - 1) * w, in + y * w, in + (y + 1) * w, out + y * w);
  axbench::fillSkipped(out + w, h - 2, w);
  for (int x = 0; x < w; x++) {
    out[x] = out[w + x];
    out[(h - 1) * w + x] = out[(h - 2) * w + x];
  }
}

int main(int argc, char **argv) {
  bench_args a = bench_parse(argc, argv);
  static const int sides[] = {128, 1024, 2048};
  int w = sides[a.size], h = sides[a.size];
  std::vector<double> in = axbench::image(w, h, 24, a.instance), out(in.size());
  double t0 = bench_now();
  sobel_rows(w, h, in.data(), out.data());
  double t = bench_now() - t0;
  axbench::finish(a.output, out.data(), h, w, t);
  return 0;
}
