// A loop with exception handling of its own (a try in its body: the
// handler continues the loop), in a function with exception handling: the
// loop cannot move into a function of its own (cxx-exceptions-loop.cpp).
#include <stdexcept>
#include <string>
#include <vector>

double checked(double x) {
  if (x < 0)
    throw std::runtime_error("negative");
  return x;
}

double tolerant(const std::vector<double> &in) {
  std::vector<double> copy(in);
  double t = 0;
  // CHECK: cxx-loop-with-try.cpp:[[@LINE+1]]:{{[0-9]+}}: error: the loop cannot be approximated: function 'tolerant' uses C++ exceptions, and the loop cannot be moved into a function of its own: the loop has exception handling of its own (a try in its body): move the body into a function
  // @approx:static_transform transform_type=loop_perforate knob_val=0 decision_values=[0, 2]
  for (size_t i = 0; i < copy.size(); i++) {
    try {
      t += checked(copy[i]);
    } catch (const std::exception &) {
      t -= 1;
    }
  }
  return t;
}

// A string built in the body (its construction may throw: the outer
// cleanup) and a call that may throw while it lives (its own cleanup).
double labelled(const std::vector<double> &in) {
  std::vector<double> copy(in);
  double t = 0;
  // CHECK: cxx-loop-with-try.cpp:[[@LINE+1]]:{{[0-9]+}}: error: the loop cannot be approximated: function 'labelled' uses C++ exceptions, and the loop cannot be moved into a function of its own: its calls that may throw unwind to different cleanups
  // @approx:static_transform transform_type=loop_perforate knob_val=0 decision_values=[0, 2]
  for (size_t i = 0; i < copy.size(); i++) {
    std::string label = std::to_string(i);
    t += checked(copy[i]) + double(label.size());
  }
  return t;
}

int main() { return tolerant({1, -1, 2}) > 0 ? 0 : 1; }
