//===- Parallelize.cpp - large loops of tensor code on threads ------------===//
//
// After bufferization and linalg to loops, the loops of tensor code whose
// iterations are independent are scf.parallel (linalg's parallel dimensions)
// or scf.for marked `approx.independent` (the contractions' tile loops, each
// iteration writing its own blocks of C). The outermost such loop of a nest
// runs on threads when its iterations execute at least kMinParallelWork
// operations (static trip counts): enough to pay for waking the threads.
// Every other one becomes sequential scf.for, so that threads never nest and
// small loops (a layer norm's rows of one short question) and loops with
// stack allocations stay on the calling thread. convert-scf-to-openmp then
// makes the chosen loops omp.parallel + omp.wsloop (static schedule;
// OMP_NUM_THREADS threads, the machine's cores by default). Iterations write
// disjoint data and no reduction is split across threads, so results do not
// depend on the number of threads.
//
//===----------------------------------------------------------------------===//
#include "LowerTensorCode.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/PatternMatch.h"

#include <limits>

using namespace mlir;

namespace approx {

namespace {

/// Operations a loop's iterations must execute, in total, before threads
/// pay for themselves (~20-60 us on one core).
constexpr int64_t kMinParallelWork = int64_t(1) << 16;

int64_t saturatingMul(int64_t a, int64_t b) {
  if (a != 0 && b > std::numeric_limits<int64_t>::max() / a)
    return std::numeric_limits<int64_t>::max();
  return a * b;
}

int64_t saturatingAdd(int64_t a, int64_t b) {
  if (b > std::numeric_limits<int64_t>::max() - a)
    return std::numeric_limits<int64_t>::max();
  return a + b;
}

/// Iterations of one loop dimension; 1 where the bounds are not constant.
int64_t trips(Value lb, Value ub, Value step) {
  std::optional<int64_t> l = getConstantIntValue(lb),
                         u = getConstantIntValue(ub),
                         s = getConstantIntValue(step);
  if (!l || !u || !s || *s <= 0)
    return 1;
  return *u > *l ? (*u - *l + *s - 1) / *s : 0;
}

/// Iterations of the first `dims` dimensions of `loop`.
int64_t trips(scf::ParallelOp loop, unsigned dims) {
  int64_t n = 1;
  for (unsigned d = 0; d < dims; ++d)
    n = saturatingMul(n, trips(loop.getLowerBound()[d], loop.getUpperBound()[d],
                               loop.getStep()[d]));
  return n;
}

/// Iterations of a loop (all its dimensions), 1 for other operations.
int64_t trips(Operation &op) {
  if (auto loop = dyn_cast<scf::ForOp>(op))
    return trips(loop.getLowerBound(), loop.getUpperBound(), loop.getStep());
  if (auto loop = dyn_cast<scf::ParallelOp>(op))
    return trips(loop, loop.getNumLoops());
  return 1;
}

/// Operations `op` executes: itself, and its regions' as often as it runs
/// them (a loop, its trip count; anything else, once).
int64_t work(Operation &op) {
  int64_t body = 0;
  for (Region &region : op.getRegions())
    for (Block &block : region)
      for (Operation &inner : block)
        body = saturatingAdd(body, work(inner));
  return saturatingAdd(1, saturatingMul(trips(op), body));
}

/// An independent scf.for as a one-dimensional scf.parallel.
void toParallel(RewriterBase &rewriter, scf::ForOp loop) {
  rewriter.setInsertionPoint(loop);
  auto parallel = scf::ParallelOp::create(
      rewriter, loop.getLoc(), ValueRange{loop.getLowerBound()},
      ValueRange{loop.getUpperBound()}, ValueRange{loop.getStep()});
  Block *body = parallel.getBody();
  rewriter.eraseOp(loop.getBody()->getTerminator());
  rewriter.inlineBlockBefore(loop.getBody(), body->getTerminator(),
                             parallel.getInductionVars());
  rewriter.eraseOp(loop);
}

/// An scf.parallel without reductions with only its first `parallel`
/// dimensions still parallel (none: a sequential loop), the others a nest of
/// scf.for inside them.
void keepParallel(RewriterBase &rewriter, scf::ParallelOp loop,
                  unsigned parallel) {
  Location loc = loop.getLoc();
  auto front = [&](OperandRange r) {
    return ValueRange(r).take_front(parallel);
  };
  auto back = [&](OperandRange r) {
    return ValueRange(r).drop_front(parallel);
  };
  rewriter.setInsertionPoint(loop);
  SmallVector<Value> ivs;
  Block *body = nullptr;
  if (parallel > 0) {
    auto outer = scf::ParallelOp::create(
        rewriter, loc, front(loop.getLowerBound()), front(loop.getUpperBound()),
        front(loop.getStep()));
    ivs = outer.getInductionVars();
    body = outer.getBody();
    rewriter.setInsertionPoint(body->getTerminator());
  }
  scf::LoopNest nest =
      scf::buildLoopNest(rewriter, loc, back(loop.getLowerBound()),
                         back(loop.getUpperBound()), back(loop.getStep()));
  for (scf::ForOp f : nest.loops)
    ivs.push_back(f.getInductionVar());
  if (!nest.loops.empty())
    body = nest.loops.back().getBody();
  rewriter.eraseOp(loop.getBody()->getTerminator());
  rewriter.inlineBlockBefore(loop.getBody(), body->getTerminator(), ivs);
  rewriter.eraseOp(loop);
}

/// Iterations a loop run on threads should have at least, to be shared
/// evenly among the cores by a static schedule.
constexpr int64_t kThreadIterations = 128;

/// The dimensions of a loop run on threads: the fewest leading ones with
/// kThreadIterations iterations, never the innermost (a sequential loop LLVM
/// can vectorize). The threads split their collapsed index, and each
/// iteration computes its coordinates from it by division: all but the
/// innermost of im2col's (256, 28, 28, 3, 3, 1) took 5 divisions per
/// element copied, a third of a small CNN's time.
unsigned threadDimensions(scf::ParallelOp loop) {
  unsigned all = loop.getNumLoops(), dims = 1;
  while (dims + 1 < all && trips(loop, dims) < kThreadIterations)
    ++dims;
  return dims;
}

} // namespace

void chooseParallelLoops(ModuleOp module) {
  IRRewriter rewriter(module.getContext());
  SmallVector<scf::ForOp> independent;
  module.walk([&](scf::ForOp loop) {
    if (loop->removeAttr(kIndependentIterations) && loop.getNumResults() == 0)
      independent.push_back(loop);
  });
  for (scf::ForOp loop : independent)
    toParallel(rewriter, loop);

  SmallVector<scf::ParallelOp> outermost;
  module.walk<WalkOrder::PreOrder>([&](scf::ParallelOp loop) {
    outermost.push_back(loop);
    return WalkResult::skip();
  });
  for (scf::ParallelOp loop : outermost) {
    SmallVector<scf::ParallelOp> inner;
    loop.getBody()->walk([&](scf::ParallelOp op) {
      if (op.getNumReductions() == 0)
        inner.push_back(op);
    });
    for (scf::ParallelOp op : inner)
      keepParallel(rewriter, op, 0);
    if (loop.getNumReductions() != 0)
      continue;
    unsigned dims = threadDimensions(loop);
    // A body with stack allocations stays on the calling thread: the
    // alloca scope convert-scf-to-openmp wraps it in cannot always be
    // inlined, and scf to cf would then break the scope (LowerTensorCode's
    // inlineAllocaScopes). Tensor code's lowering makes no allocas.
    bool allocates =
        loop.getBody()
            ->walk([](memref::AllocaOp) { return WalkResult::interrupt(); })
            .wasInterrupted();
    bool threads =
        !allocates && trips(loop, dims) >= 2 && work(*loop) >= kMinParallelWork;
    if (!threads)
      keepParallel(rewriter, loop, 0);
    else if (dims < loop.getNumLoops())
      keepParallel(rewriter, loop, dims);
  }
}

} // namespace approx
