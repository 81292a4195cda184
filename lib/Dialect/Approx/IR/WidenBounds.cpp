//===- WidenBounds.cpp - accept annotation values outside their bounds ----===//
#include "approx/Dialect/Approx/IR/WidenBounds.h"
#include "approx/Dialect/Approx/IR/ApproxOps.h"

#include "llvm/ADT/STLExtras.h"

using namespace mlir;

namespace {

/// Adds to `values` each of `wanted` it lacks (a warning for each), then
/// sorts the list; a list that lacks nothing is left as written.
unsigned widenValueList(Operation *op, SmallVector<int32_t> &values,
                        ArrayRef<int32_t> wanted, StringRef what,
                        bool indexed) {
  unsigned widened = 0;
  for (auto [j, v] : llvm::enumerate(wanted)) {
    if (v < 0 || llvm::is_contained(values, v))
      continue; // negative values stay the verifier's error
    InFlightDiagnostic warning = op->emitWarning() << what;
    if (indexed)
      warning << " " << j;
    warning << " (" << v
            << ") is not one of decision_values; accepted, added to "
               "decision_values (--"
            << approx::kWidenBoundsOption << ")";
    values.push_back(v);
    ++widened;
  }
  if (widened)
    llvm::sort(values);
  return widened;
}
} // namespace

unsigned approx::widenAnnotationBounds(Operation *root) {
  unsigned widened = 0;
  Builder b(root->getContext());
  root->walk([&](Operation *op) {
    if (auto dt = dyn_cast<DecisionTreeAnnotationOp>(op)) {
      auto lowers = dt.getThresholdsLowers();
      auto uppers = dt.getThresholdsUppers();
      ArrayRef<int32_t> thresholds = dt.getThresholds();
      if (lowers && uppers && lowers->size() == thresholds.size() &&
          uppers->size() == thresholds.size()) {
        SmallVector<int32_t> lo(*lowers), hi(*uppers);
        for (auto [i, t] : llvm::enumerate(thresholds)) {
          if (t >= lo[i] && t <= hi[i])
            continue;
          int32_t newLo = std::min(lo[i], t), newHi = std::max(hi[i], t);
          dt.emitWarning() << "threshold " << i << " (" << t
                           << ") is outside its bounds [" << lo[i] << ", "
                           << hi[i] << "]; accepted, bounds widened to ["
                           << newLo << ", " << newHi << "] (--"
                           << kWidenBoundsOption << ")";
          lo[i] = newLo;
          hi[i] = newHi;
          ++widened;
        }
        dt.setThresholdsLowersAttr(b.getDenseI32ArrayAttr(lo));
        dt.setThresholdsUppersAttr(b.getDenseI32ArrayAttr(hi));
      }
      if (auto dv = dt.getDecisionValues(); dv && !dv->empty()) {
        SmallVector<int32_t> values(*dv);
        widened += widenValueList(op, values, dt.getDecisions(), "decision",
                                  /*indexed=*/true);
        dt.setDecisionValuesAttr(b.getDenseI32ArrayAttr(values));
      }
    } else if (auto st = dyn_cast<StaticTransformAnnotationOp>(op)) {
      if (auto dv = st.getDecisionValues(); dv && !dv->empty()) {
        SmallVector<int32_t> values(*dv);
        int32_t knobVal = int32_t(st.getKnobValAttr().getInt());
        widened += widenValueList(op, values, knobVal, "knob_val",
                                  /*indexed=*/false);
        st.setDecisionValuesAttr(b.getDenseI32ArrayAttr(values));
      }
    }
  });
  return widened;
}
