// C++ parameter names are source names (issue 43, defect 6): a free
// function's name, a namespace or class member's qualified name, and a
// loop knob's function likewise; overloads whose names clash keep their
// symbols. The names work in the runtime table, in approx-tune --validate
// and in a deployment build; a symbol-spelt name gets a hint.
// RUN: rm -rf %t && mkdir -p %t
// RUN: approx-tune --space %s --list | FileCheck %s --check-prefix=LIST
// LIST-DAG: scale_knob_val
// LIST-DAG: geo::area_knob_val
// LIST-DAG: geo::Grid::sum_line{{[0-9]+}}_knob_val
// LIST-DAG: _Z4halfi_knob_val
// LIST-DAG: _Z4halfd_knob_val
// RUN: approx-cc %s -std=c++17 --approx-runtime-table -o %t/table
// RUN: %t/table | FileCheck %s --check-prefix=EXACT
// EXACT: scale 100 area 12 sum 10 half 5 2.5
// RUN: echo '{"scale_knob_val": 1, "geo::area_knob_val": 1, "geo::Grid::sum_line42_knob_val": 2}' > %t/cfg.json
// RUN: approx-tune --space %s --validate %t/cfg.json
// RUN: env APPROX_CONFIG=%t/cfg.json %t/table | FileCheck %s --check-prefix=APPROX
// APPROX: scale 50 area 6 sum 5 half 5 2.5
// RUN: approx-cc %s -std=c++17 --approx-config=%t/cfg.json -o %t/baked
// RUN: %t/baked | FileCheck %s --check-prefix=APPROX
// RUN: echo '{"_Z5scalei_knob_val": 1}' > %t/mangled.json
// RUN: not approx-tune --space %s --validate %t/mangled.json 2>&1 | FileCheck %s --check-prefix=HINT
// HINT: unknown parameter '_Z5scalei_knob_val' (did you mean 'scale_knob_val'?)
// RUN: not approx-cc %s -std=c++17 --approx-config=%t/mangled.json -o %t/no 2>&1 | FileCheck %s --check-prefix=HINT
#include <cstdio>

int approx_scale_1(int x) { return x / 2; }
// @approx:static_transform transform_type=func_substitute knob_val=0 decision_values=[0, 1]
int scale(int x) { return x; }

namespace geo {
int approx_area_1(int w, int h) { return w * h / 2; }
// @approx:static_transform transform_type=func_substitute knob_val=0 decision_values=[0, 1]
int area(int w, int h) { return w * h; }

struct Grid {
  int cells[8] = {1, 1, 1, 1, 1, 1, 2, 2};
  int sum(int n) const {
    int s = 0;
    // @approx:static_transform transform_type=loop_perforate knob_val=0 decision_values=[0, 2]
    for (int i = 0; i < n; i++)
      s += cells[i];
    return s;
  }
};
} // namespace geo

// Overloads: both keep their symbols.
// @approx:static_transform transform_type=loop_perforate knob_val=0 decision_values=[0, 2]
int half(int x) {
  int s = 0;
  for (int i = 0; i < x; i++)
    s += i % 2;
  return s;
}
// @approx:static_transform transform_type=loop_perforate knob_val=0 decision_values=[0, 2]
double half(double x) {
  double s = 0;
  for (int i = 0; i < 10; i++)
    s += x / 20;
  return s;
}

int main() {
  geo::Grid g;
  std::printf("scale %d area %d sum %d half %d %g\n", scale(100), geo::area(3, 4),
              g.sum(8), half(10), half(5.0));
  return 0;
}
