// Black-Scholes: the price of each European option of a generated
// portfolio (no dividends), after PARSEC's and AxBench's blackscholes;
// written for this suite. QoS: AxBench's average relative error of the
// prices (approx-qos relative-error).
//
// Knobs:
//  - cndf: the standard normal CDF, exact through erfc; 1: the
//    Abramowitz-Stegun 26.2.17 polynomial PARSEC uses (error < 7.5e-8);
//    2: a logistic curve, 1 / (1 + e^(-1.702 x)) (error < 1e-2);
//  - price_all: perforation of the loop over options; a skipped option
//    takes the price of the option before it (axbench::fillSkipped).
#include "axbench.h"

#include <cmath>
#include <vector>

// @approx:static_transform transform_type=func_substitute knob_val=0 decision_values=[0, 1, 2]
double cndf(double x) { return 0.5 * std::erfc(-x / std::sqrt(2.0)); }

double approx_cndf_1(double x) {
  double ax = std::fabs(x);
  double k = 1 / (1 + 0.2316419 * ax);
  double poly = k * (0.319381530 +
                     k * (-0.356563782 +
                          k * (1.781477937 + k * (-1.821255978 + k * 1.330274429))));
  double tail = 0.3989422804014327 * std::exp(-0.5 * ax * ax) * poly;
  return x < 0 ? tail : 1 - tail;
}

double approx_cndf_2(double x) { return 1 / (1 + std::exp(-1.702 * x)); }

double bs_price(double spot, double strike, double rate, double vol,
                double time, int call) {
  double sqrtT = std::sqrt(time);
  double d1 = (std::log(spot / strike) + (rate + 0.5 * vol * vol) * time) /
              (vol * sqrtT);
  double d2 = d1 - vol * sqrtT;
  double discounted = strike * std::exp(-rate * time);
  if (call)
    return spot * cndf(d1) - discounted * cndf(d2);
  return discounted * cndf(-d2) - spot * cndf(-d1);
}

void price_all(int n, const double *spot, const double *strike,
               const double *rate, const double *vol, const double *time,
               const int *call, double *price) {
  axbench::markSkipped(price, n);
  // @approx:static_transform transform_type=loop_perforate knob_val=0 decision_values=[0, 2, 3, 4]
  for (int i = 0; i < n; i++)
    price[i] = bs_price(spot[i], strike[i], rate[i], vol[i], time[i], call[i]);
  axbench::fillSkipped(price, n);
}

int main(int argc, char **argv) {
  bench_args a = bench_parse(argc, argv);
  static const int sizes[] = {4096, 400000, 4000000};
  int n = sizes[a.size];
  bench_seed(21, a.instance);
  std::vector<double> spot(n), strike(n), rate(n), vol(n), expiry(n), price(n);
  std::vector<int> call(n);
  for (int i = 0; i < n; i++) {
    spot[i] = 20 + 80 * bench_uniform();
    strike[i] = spot[i] * (0.7 + 0.6 * bench_uniform());
    rate[i] = 0.01 + 0.09 * bench_uniform();
    vol[i] = 0.05 + 0.6 * bench_uniform();
    expiry[i] = 0.1 + 2.9 * bench_uniform();
    call[i] = int(bench_u64() % 2);
  }
  double t0 = bench_now();
  price_all(n, spot.data(), strike.data(), rate.data(), vol.data(), expiry.data(),
            call.data(), price.data());
  double t = bench_now() - t0;
  axbench::finish(a.output, price.data(), n, 1, t);
  return 0;
}
