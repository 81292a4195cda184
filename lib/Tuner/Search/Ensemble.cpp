//===- Ensemble.cpp - the techniques, chosen by the bandit ----------------===//
#include "Phases.h"

#include <algorithm>

namespace approx::tune::search {
namespace {

class Ensemble {
public:
  explicit Ensemble(Run &run)
      : run(run), options(run.options), result(run.result), techniques(run.techniques),
        rng(run.rng), archive(run.archive), encoding(run.encoding), seen(run.seen),
        scores(run.scores), bandit(run.bandit), counted(run.counted) {}

  void runEnsemble() {
    size_t duplicates = 0;
    while (budgetLeft()) {
      std::vector<Pending> batch;
      std::vector<std::string> keys; // run.keyOf of each of batch's configs
      size_t want = std::min<size_t>(std::max(1u, options.workers),
                                     options.maxEvals - counted);
      while (batch.size() < want) {
        if (duplicates > 5000) {
          result.stopReason = "no new configurations proposed (space "
                              "nearly exhausted)";
          break;
        }
        long arm = -1;
        Point x;
        long tag = 0;
        for (size_t a : bandit.ranking())
          if (techniques[a]->propose(rng, archive, x, tag)) {
            arm = long(a);
            break;
          }
        if (arm < 0)
          break; // everyone waits for this batch
        Config c = encoding.decode(x);
        std::string k = run.keyOf(c);
        if (auto it = seen.find(k); it != seen.end()) {
          // Measured before: the technique learns the score at no cost,
          // and the bandit counts a use without credit (else a technique
          // stuck on a point would be chosen forever).
          techniques[size_t(arm)]->observe(tag, x, scores[it->second]);
          bandit.reward(size_t(arm), 0);
          ++duplicates;
          continue;
        }
        auto same = std::find(keys.begin(), keys.end(), k);
        if (same != keys.end()) {
          batch[size_t(same - keys.begin())].askers.push_back({arm, tag, x});
          bandit.reward(size_t(arm), 0);
          ++duplicates;
          continue;
        }
        duplicates = 0;
        batch.push_back({c, techniques[size_t(arm)]->name(), {{arm, tag, x}}});
        keys.push_back(std::move(k));
      }
      if (batch.empty())
        break;
      measure(batch, true);
      if (duplicates > 5000)
        break;
    }
  }

private:
  bool budgetLeft() { return run.budgetLeft(); }
  void measure(const std::vector<Pending> &batch, bool counts) { run.measure(batch, counts); }

  Run &run;
  const TuneOptions &options;
  TuneResult &result;
  std::vector<std::unique_ptr<Technique>> &techniques;
  Rng &rng;
  const Archive &archive;
  const Encoding &encoding;
  const std::map<std::string, size_t> &seen;
  const std::vector<double> &scores;
  Bandit &bandit;
  const size_t &counted;
};

} // namespace

void runEnsemble(Run &run) { Ensemble(run).runEnsemble(); }

} // namespace approx::tune::search
