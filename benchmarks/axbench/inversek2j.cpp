// Inverse kinematics of a two-joint arm: the joint angles that put the
// arm's end at each target point, after AxBench's inversek2j; written for
// this suite. The targets are the forward kinematics of random angles, so
// every target is reachable. QoS: AxBench's average relative error of the
// angles (approx-qos relative-error).
//
// Knobs:
//  - ik_acos: arc cosine, exact; 1: the Abramowitz-Stegun 4.4.45 form
//    sqrt(1 - x) (a0 + a1 x + a2 x^2 + a3 x^3) (error < 7e-5 rad);
//    2: a first-order form sqrt(1 - x) (a0 + a1 x) (error < 1e-2 rad);
//  - ik_atan2: two-argument arc tangent, exact; 1: a quadratic on the
//    octant-reduced ratio (error < 4e-3 rad);
//  - solve_all: perforation of the loop over targets; a skipped target
//    takes the angles of the target before it (axbench::fillSkipped).
#include "axbench.h"

#include <cmath>
#include <vector>

static const double L1 = 0.5, L2 = 0.5, PI = 3.14159265358979323846;

// @approx:static_transform transform_type=func_substitute knob_val=0 decision_values=[0, 1, 2]
double ik_acos(double x) { return std::acos(x); }

// acos(x) for x in [0, 1] from acos(|x|) by symmetry.
double acos_from(double x, double positive) { return x < 0 ? PI - positive : positive; }

double approx_ik_acos_1(double x) {
  double a = std::fabs(x);
  double r = std::sqrt(1 - a) *
             (1.5707288 + a * (-0.2121144 + a * (0.0742610 - 0.0187293 * a)));
  return acos_from(x, r);
}

double approx_ik_acos_2(double x) {
  double a = std::fabs(x);
  return acos_from(x, std::sqrt(1 - a) * (1.5707963 - 0.1565827 * a));
}

// @approx:static_transform transform_type=func_substitute knob_val=0 decision_values=[0, 1]
double ik_atan2(double y, double x) { return std::atan2(y, x); }

double approx_ik_atan2_1(double y, double x) {
  double ax = std::fabs(x), ay = std::fabs(y);
  double hi = ax > ay ? ax : ay, lo = ax > ay ? ay : ax;
  if (hi == 0)
    return 0;
  double t = lo / hi;
  double r = t * (PI / 4 + 0.273 * (1 - t)); // atan(t) on [0, 1]
  if (ay > ax)
    r = PI / 2 - r;
  if (x < 0)
    r = PI - r;
  return y < 0 ? -r : r;
}

void solve(double x, double y, double *angles) {
  double c2 = (x * x + y * y - L1 * L1 - L2 * L2) / (2 * L1 * L2);
  c2 = c2 > 1 ? 1 : c2 < -1 ? -1 : c2;
  double t2 = ik_acos(c2);
  double t1 = ik_atan2(y, x) - ik_atan2(L2 * std::sin(t2), L1 + L2 * std::cos(t2));
  angles[0] = t1;
  angles[1] = t2;
}

void solve_all(int n, const double *xy, double *angles) {
  axbench::markSkipped(angles, n, 2);
  // @approx:static_transform transform_type=loop_perforate knob_val=0 decision_values=[0, 2, 3, 4]
  for (int i = 0; i < n; i++)
    solve(xy[2 * i], xy[2 * i + 1], angles + 2 * i);
  axbench::fillSkipped(angles, n, 2);
}

int main(int argc, char **argv) {
  bench_args a = bench_parse(argc, argv);
  static const int sizes[] = {4096, 400000, 4000000};
  int n = sizes[a.size];
  bench_seed(22, a.instance);
  std::vector<double> xy(2 * size_t(n)), angles(2 * size_t(n));
  for (int i = 0; i < n; i++) {
    // Elbow angle away from 0 and pi (a straight arm has two solutions
    // arbitrarily close): 0.1..3.0 rad.
    double t1 = PI * bench_uniform() - PI / 2, t2 = 0.1 + 2.9 * bench_uniform();
    xy[2 * i] = L1 * std::cos(t1) + L2 * std::cos(t1 + t2);
    xy[2 * i + 1] = L1 * std::sin(t1) + L2 * std::sin(t1 + t2);
  }
  double t0 = bench_now();
  solve_all(n, xy.data(), angles.data());
  double t = bench_now() - t0;
  axbench::finish(a.output, angles.data(), n, 2, t);
  return 0;
}
