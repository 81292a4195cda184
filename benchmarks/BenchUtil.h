//===- BenchUtil.h - timing helpers for the benchmarks ----------*- C++ -*-===//
#ifndef APPROX_BENCHMARKS_BENCHUTIL_H
#define APPROX_BENCHMARKS_BENCHUTIL_H

#include <algorithm>
#include <chrono>
#include <vector>

namespace approx::bench {

inline double nowSeconds() {
  using namespace std::chrono;
  return duration<double>(steady_clock::now().time_since_epoch()).count();
}

inline double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

} // namespace approx::bench

#endif // APPROX_BENCHMARKS_BENCHUTIL_H
