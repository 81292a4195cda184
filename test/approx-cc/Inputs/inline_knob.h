// An inline function with a loop knob and a template, included by the two
// files of cxx-inline-two-files.test.
#pragma once
inline int count_every(int n) {
  int s = 0;
  // @approx:static_transform transform_type=loop_perforate knob_val=0 decision_values=[0, 2]
  for (int i = 0; i < n; i++)
    s += 1;
  return s;
}
template <typename T> T twice(T x) { return x + x; }
