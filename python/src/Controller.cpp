//===- Controller.cpp - approx_runtime._core: the runtime controller ------===//
//
// The runtime controller (runtime/include/approx_controller.h, the C
// runtime's) for Python: approx_runtime.Controller (controller.py) wraps
// this class. The extension has its own copy of the runtime, so the
// controller here never checks or sets a program's parameters itself: the
// Python side applies each point to the program (a runtime-table library's
// approx_rt_set, or a callback). Errors are ValueError with the runtime's
// message.
//
//===----------------------------------------------------------------------===//
#include "Core.h"

#include "approx_controller.h"
#include "approx_runtime.h"

#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <stdexcept>

namespace nb = nanobind;

namespace approx::python {
namespace {

class Controller {
public:
  Controller(const std::string &frontier, double targetSeconds, double margin, int holdUnits,
             double smoothing, double maxLoss, double shadowFraction, double driftDelta,
             unsigned shadowSeed, double percentile, bool screen, int64_t driftHorizon) {
    approx_ctl_goal goal = approx_ctl_defaults();
    goal.target_seconds = targetSeconds;
    goal.margin = margin;
    goal.hold_units = holdUnits;
    goal.smoothing = smoothing;
    goal.check_params = 0;
    goal.max_loss = maxLoss;
    goal.shadow_fraction = shadowFraction;
    goal.drift_delta = driftDelta;
    goal.shadow_seed = shadowSeed;
    goal.percentile = percentile;
    goal.screen = screen;
    goal.drift_horizon = static_cast<long>(driftHorizon);
    ctl = approx_ctl_open(frontier.c_str(), &goal);
    if (!ctl)
      throw nb::value_error(approx_rt_last_error());
  }
  ~Controller() { approx_ctl_close(ctl); }
  Controller(const Controller &) = delete;
  Controller &operator=(const Controller &) = delete;

  approx_ctl *get() const { return ctl; }

  size_t point(int64_t p) const {
    if (p < 0 || static_cast<size_t>(p) >= approx_ctl_num_points(ctl))
      throw nb::index_error("no such frontier point");
    return static_cast<size_t>(p);
  }

  std::vector<std::string> params() const {
    std::vector<std::string> names;
    for (size_t i = 0; i < approx_ctl_num_params(ctl); ++i)
      names.emplace_back(approx_ctl_param_name(ctl, i));
    return names;
  }
  std::vector<int> values(int64_t p) const {
    size_t at = point(p);
    std::vector<int> v;
    for (size_t i = 0; i < approx_ctl_num_params(ctl); ++i)
      v.push_back(approx_ctl_point_value(ctl, at, i));
    return v;
  }
  std::vector<int> exactValues() const {
    std::vector<int> v;
    for (size_t i = 0; i < approx_ctl_num_params(ctl); ++i)
      v.push_back(approx_ctl_exact_value(ctl, i));
    return v;
  }
  bool endExact(double loss) {
    int rc = approx_ctl_end_exact(ctl, loss);
    if (rc < 0)
      throw nb::value_error(approx_rt_last_error());
    return rc == 1;
  }
  void clear() {
    if (approx_ctl_clear(ctl) < 0)
      throw nb::value_error(approx_rt_last_error());
  }

private:
  approx_ctl *ctl = nullptr;
};

} // namespace

void bindController(nb::module_ &m) {
  approx_ctl_goal d = approx_ctl_defaults();
  nb::class_<Controller>(m, "Controller",
                         "The runtime controller of approx_controller.h (use "
                         "approx_runtime.Controller)")
      .def(nb::init<const std::string &, double, double, int, double, double, double, double,
                    unsigned, double, bool, int64_t>(),
           nb::arg("frontier"), nb::arg("target_seconds"), nb::arg("margin") = d.margin,
           nb::arg("hold_units") = d.hold_units, nb::arg("smoothing") = d.smoothing,
           nb::arg("max_loss") = d.max_loss, nb::arg("shadow_fraction") = d.shadow_fraction,
           nb::arg("drift_delta") = d.drift_delta, nb::arg("shadow_seed") = d.shadow_seed,
           nb::arg("percentile") = d.percentile, nb::arg("screen") = d.screen != 0,
           nb::arg("drift_horizon") = static_cast<int64_t>(d.drift_horizon))
      .def("begin", [](Controller &c) { return approx_ctl_begin(c.get()); })
      .def("end", [](Controller &c) { return approx_ctl_end(c.get()) == 1; })
      .def("end_with",
           [](Controller &c, double s) { return approx_ctl_end_with(c.get(), s) == 1; },
           nb::arg("seconds"))
      .def("shadow_due", [](const Controller &c) { return approx_ctl_shadow_due(c.get()) == 1; })
      .def("begin_exact", [](Controller &c) { approx_ctl_begin_exact(c.get()); })
      .def("end_exact", &Controller::endExact, nb::arg("loss"))
      .def("clear", &Controller::clear)
      .def("params", &Controller::params)
      .def("values", &Controller::values, nb::arg("point"))
      .def("exact_values", &Controller::exactValues)
      .def("qos", [](const Controller &c, int64_t p) {
             return approx_ctl_point_qos(c.get(), c.point(p));
           }, nb::arg("point"))
      .def("relative_time", [](const Controller &c, int64_t p) {
             return approx_ctl_point_relative_time(c.get(), c.point(p));
           }, nb::arg("point"))
      .def("model_time", [](const Controller &c, int64_t p) {
             return approx_ctl_point_model_time(c.get(), c.point(p));
           }, nb::arg("point"))
      .def("is_exact", [](const Controller &c, int64_t p) {
             return approx_ctl_point_is_exact(c.get(), c.point(p)) == 1;
           }, nb::arg("point"))
      .def_prop_ro("num_points", [](const Controller &c) { return approx_ctl_num_points(c.get()); })
      .def_prop_ro("point", [](const Controller &c) { return approx_ctl_point(c.get()); })
      .def_prop_ro("floor", [](const Controller &c) { return approx_ctl_floor(c.get()); })
      .def_prop_ro("base_seconds",
                   [](const Controller &c) { return approx_ctl_base_seconds(c.get()); })
      .def_prop_ro("tail_factor",
                   [](const Controller &c) { return approx_ctl_tail_factor(c.get()); })
      .def_prop_ro("units", [](const Controller &c) { return approx_ctl_units(c.get()); })
      .def_prop_ro("misses", [](const Controller &c) { return approx_ctl_misses(c.get()); })
      .def_prop_ro("drift_alarms",
                   [](const Controller &c) { return approx_ctl_drift_alarms(c.get()); })
      .def_prop_ro("drift_wealth",
                   [](const Controller &c) { return approx_ctl_drift_wealth(c.get()); })
      .def_prop_ro("shadow_units",
                   [](const Controller &c) { return approx_ctl_shadow_units(c.get()); })
      .def_prop_ro("shadow_seconds",
                   [](const Controller &c) { return approx_ctl_shadow_seconds(c.get()); });
}

} // namespace approx::python
