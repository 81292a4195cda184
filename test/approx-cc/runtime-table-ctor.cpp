// A C++ program with a static initialiser (a global constructor) builds,
// baked and with a runtime table (approx-cc used to reject every such file:
// the initialiser was raised out of the llvm.func form its global_ctors
// entry needs). The initialiser runs approx code before main: the module's
// registration constructor runs first (priority 101), so the initialiser
// already reads the configured value (parameters are named after the source name).
// RUN: approx-cc %s -std=c++17 -o %t.baked
// RUN: %t.baked | FileCheck %s --check-prefix=DEFAULT
// RUN: approx-cc %s -std=c++17 --approx-runtime-table -o %t
// RUN: %t | FileCheck %s --check-prefix=DEFAULT
// RUN: echo '{"count_knob_val": 4}' > %t.json
// RUN: env APPROX_CONFIG=%t.json %t | FileCheck %s --check-prefix=SET
#include <cstdio>

// @approx:loop_perforate knob_val=2 decision_values=[0, 2, 4]
int count(int n) {
  int s = 0;
  for (int i = 0; i < n; i++)
    s += 1;
  return s;
}

struct Early {
  int v;
  Early() : v(count(100)) {}
};
static Early early;

int main() {
  std::printf("early=%d main=%d\n", early.v, count(100));
  return 0;
}

// DEFAULT: early=50 main=50
// SET: early=25 main=25
