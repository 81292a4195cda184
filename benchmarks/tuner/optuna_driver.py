"""Optuna on a synthetic space (spaces.py), as a user would drive it today:
one integer parameter per tunable parameter (thresholds over their bounds,
decisions over min..max of decision_values), in Optuna's own environment
(benchmarks/tuner/run.sh makes it), in-memory storage, one trial at a time.

  tpe    TPESampler with its defaults, minimising time under the constraint
         qos >= the space's bound (constraints_func: qos_min - qos <= 0);
  nsga2  NSGAIISampler with its defaults, minimising (time, 1 - qos) under
         the same constraint: the time/QoS frontier, scored here by its
         fastest point meeting the bound.

Both are seeded. Thresholds proposed out of order are sorted and spread to be
strictly ascending (as ot_driver.py does for OpenTuner); a configuration
measured before, after that repair, is answered from a cache without
counting: the budget counts distinct configurations measured, as
approx-tune's does (and at most 50x the budget trials are asked, so a
sampler that only repeats itself ends the run).

Prints one JSON line per distinct measured configuration: {"time", "qos"}.
KIND 'pipe' drives a real space measured by real_spaces.py over stdin and
stdout instead (spaces.PipeSpace).

usage: optuna_driver.py tpe|nsga2 KIND SPACE_SEED TUNER_SEED BUDGET
"""
import json
import logging
import os
import sys
import warnings

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import spaces  # noqa: E402

warnings.filterwarnings("ignore")
import optuna  # noqa: E402

optuna.logging.set_verbosity(logging.CRITICAL)


def main():
    if len(sys.argv) != 6 or sys.argv[1] not in ("tpe", "nsga2"):
        sys.exit("usage: optuna_driver.py tpe|nsga2 KIND SPACE_SEED TUNER_SEED BUDGET")
    sampler_name, kind = sys.argv[1], sys.argv[2]
    space_seed, seed, budget = int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5])
    space = spaces.generate(kind, space_seed)
    cache = {}

    def constraint(trial):
        return [space.qos_min - trial.user_attrs["qos"]]

    if sampler_name == "tpe":
        sampler = optuna.samplers.TPESampler(seed=seed, constraints_func=constraint)
        directions = ["minimize"]
    else:
        sampler = optuna.samplers.NSGAIISampler(seed=seed, constraints_func=constraint)
        directions = ["minimize", "minimize"]
    study = optuna.create_study(directions=directions, sampler=sampler)

    def objective(trial):
        c = {name: trial.suggest_int(name, lower, upper)
             for name, _, lower, upper in space.parameters()}
        key = tuple(sorted(space.repair(c).items()))
        if key not in cache:
            cache[key] = space.evaluate(c)
            t, q = cache[key]
            print(json.dumps({"time": t, "qos": q}), flush=True)
        t, q = cache[key]
        trial.set_user_attr("qos", q)
        return t if sampler_name == "tpe" else (t, 1 - q)

    try:
        for _ in range(50 * budget):
            if len(cache) >= budget:
                break
            study.optimize(objective, n_trials=1)
    except spaces.BudgetSpent:
        pass


if __name__ == "__main__":
    main()
