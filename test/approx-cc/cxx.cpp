// C++: annotations name functions by their source names; the symbols are
// mangled, and variants are found by source name too.
// RUN: approx-cc %s -std=c++17 -O2 -o %t
// RUN: %t | FileCheck %s
// RUN: approx-cc %s -emit=annotated | FileCheck %s --check-prefix=ANN

#include <cstdio>
#include <vector>

namespace geo {
struct Shape {
  virtual ~Shape() = default;
  virtual double area() const = 0;
};
struct Square : Shape {
  double s;
  explicit Square(double s) : s(s) {}
  double area() const override { return s * s; }
};
} // namespace geo

double approx_total_1(const double *v, int n, int level) { return v[0] * n; }

// @approx:func_substitute thresholds=[5] decisions=[0, 1] state_indices=[2]
double total(const double *v, int n, int level) {
  double s = 0;
  for (int i = 0; i < n; i++)
    s += v[i];
  return s;
}

template <typename T> T twice(T x) { return x + x; }

int main() {
  std::vector<geo::Square> shapes{geo::Square(1), geo::Square(2), geo::Square(3)};
  std::vector<double> areas;
  for (const geo::Shape &s : shapes)
    areas.push_back(s.area());
  std::printf("areas %g %g %g twice %d\n", areas[0], areas[1], areas[2], twice(21));
  std::printf("exact %g approx %g\n", total(areas.data(), 3, 1),
              total(areas.data(), 3, 9));
  return 0;
}

// CHECK: areas 1 4 9 twice 42
// CHECK: exact 14 approx 3
// ANN: func.func private @approx__Z5totalPKdii_1(
// ANN-NEXT: call @_Z14approx_total_1PKdii(
// ANN: approx.util.annotation.decision_tree <{decisions = array<i32: 0, 1>, func_name = "_Z5totalPKdii"
