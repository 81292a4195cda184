// The approximate-computing suite's shared harness (C++; written for this
// repository after the programs of AxBench, not copied from it).
//
//   <program> --size tiny|small|paper --instance N --output FILE
//
// generates input instance N (0: tuning, 1-5: evaluation, 100+:
// calibration) from a seed, runs the kernel, writes its output to FILE and
// prints the kernel's time in seconds, as the paper's kernels do
// (benchmarks/common/bench.h, whose parser and generator it uses).
#ifndef APPROX_AXBENCH_H
#define APPROX_AXBENCH_H

#include "../common/bench.h"

#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <vector>

namespace axbench {

/// The skipped-slot idiom of perforated loops that write an output array
/// (docs/approx-cc.md, "Perforation and outputs"): before the loop, every
/// slot holds `kSkipped` (a NaN); after it, each slot still holding it
/// takes the value of the nearest computed slot before it (after it for
/// the leading ones). Without it, a perforated loop leaves whatever the
/// slots held (often the inputs), and the loss it measures is not the
/// loss of the approximation.
inline constexpr double kSkipped = std::numeric_limits<double>::quiet_NaN();

inline void markSkipped(double *out, long n, long stride = 1) {
  for (long i = 0; i < n * stride; i++)
    out[i] = kSkipped;
}

/// Fills skipped records of `stride` values from the nearest computed one.
inline void fillSkipped(double *out, long n, long stride = 1) {
  long last = -1;
  for (long i = 0; i < n; i++) {
    if (!std::isnan(out[i * stride])) {
      last = i;
      continue;
    }
    long from = last;
    if (from < 0) // leading records: the first computed one
      for (from = i + 1; from < n && std::isnan(out[from * stride]); from++) {
      }
    if (from >= n)
      return; // nothing was computed
    for (long k = 0; k < stride; k++)
      out[i * stride + k] = out[from * stride + k];
  }
}

/// A grey image of `w` x `h` pixels in 0..255: smooth gradients, a few
/// discs and rectangles of flat grey (edges for sobel, flat blocks for the
/// DCT), and noise; seeded by (program, instance).
inline std::vector<double> image(int w, int h, uint64_t program, int instance) {
  bench_seed(program, instance);
  std::vector<double> px(size_t(w) * h);
  double fx = 2 + 6 * bench_uniform(), fy = 2 + 6 * bench_uniform();
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++)
      px[size_t(y) * w + x] =
          96 + 48 * std::sin(fx * x / w) * std::cos(fy * y / h);
  int shapes = 6 + int(bench_u64() % 10);
  for (int s = 0; s < shapes; s++) {
    double cx = w * bench_uniform(), cy = h * bench_uniform();
    double r = (0.05 + 0.2 * bench_uniform()) * (w < h ? w : h);
    double grey = 255 * bench_uniform();
    bool disc = bench_u64() % 2;
    for (int y = 0; y < h; y++)
      for (int x = 0; x < w; x++) {
        double dx = x - cx, dy = y - cy;
        bool in = disc ? dx * dx + dy * dy < r * r
                       : std::fabs(dx) < r && std::fabs(dy) < 0.6 * r;
        if (in)
          px[size_t(y) * w + x] = grey;
      }
  }
  for (double &p : px) {
    p += 4 * bench_normal();
    p = p < 0 ? 0 : p > 255 ? 255 : std::floor(p);
  }
  return px;
}

/// Writes `n` records of `stride` numbers, one record per line, exactly
/// (the shortest decimal that reads back as the same double, std::to_chars:
/// several times faster than %.17g, which dominated a tuning evaluation),
/// and prints the kernel's time.
inline void finish(const char *path, const double *out, long n, long stride,
                   double seconds) {
  FILE *f = bench_open(path);
  char buf[64];
  for (long i = 0; i < n; i++)
    for (long k = 0; k < stride; k++) {
      char *end = std::to_chars(buf, buf + sizeof buf - 1, out[i * stride + k]).ptr;
      *end++ = k + 1 < stride ? ' ' : '\n';
      std::fwrite(buf, 1, size_t(end - buf), f);
    }
  std::fclose(f);
  std::printf("%.9f\n", seconds);
}

} // namespace axbench

#endif // APPROX_AXBENCH_H
