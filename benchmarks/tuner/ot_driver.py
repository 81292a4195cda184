"""OpenTuner on a synthetic space (spaces.py), driven as the seed's
approx-runtime drives it: one IntegerParameter per tunable parameter
(thresholds over their bounds, decisions over min..max of decision_values),
ThresholdAccuracyMinimizeTime(accuracy threshold) as the objective,
OpenTuner's default ensemble (AUC bandit), --no-dups, one evaluation at a
time, an in-memory results database.

Thresholds OpenTuner proposes out of order are sorted and spread to be
strictly ascending (the seed rejected such configurations; repairing them
is kinder to OpenTuner). A configuration measured before, after repair, is
answered from a cache without counting: the budget counts distinct
configurations measured, as approx-tune's does.

Runs in OpenTuner's own environment (benchmarks/tuner/run.sh makes it);
prints one JSON line per distinct measured configuration: {"time", "qos"}.
KIND 'pipe' drives a real space measured by real_spaces.py over stdin and
stdout instead (spaces.PipeSpace).

usage: ot_driver.py KIND SPACE_SEED TUNER_SEED BUDGET
"""
import argparse
import json
import logging
import os
import random
import sys
import warnings

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import spaces  # noqa: E402

warnings.filterwarnings("ignore")
logging.disable(logging.CRITICAL)

import numpy  # noqa: E402
import opentuner  # noqa: E402
from opentuner import ConfigurationManipulator, IntegerParameter  # noqa: E402
from opentuner import MeasurementInterface, Result  # noqa: E402
from opentuner.measurement.inputmanager import FixedInputManager  # noqa: E402
from opentuner.search.objective import ThresholdAccuracyMinimizeTime  # noqa: E402


def main():
    kind, space_seed, seed, budget = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
    space = spaces.generate(kind, space_seed)
    random.seed(seed)
    numpy.random.seed(seed)
    cache, measured, tests = {}, [0], [0]

    class Interface(MeasurementInterface):
        def manipulator(self):
            m = ConfigurationManipulator()
            for name, _, lower, upper in space.parameters():
                m.add_parameter(IntegerParameter(name, lower, upper))
            return m

        def run(self, desired_result, input, limit):
            tests[0] += 1
            if tests[0] > 50 * budget:
                raise spaces.BudgetSpent()
            c = space.repair(dict(desired_result.configuration.data))
            key = tuple(sorted(c.items()))
            if key not in cache:
                if measured[0] >= budget:
                    raise spaces.BudgetSpent()
                cache[key] = space.evaluate(c)
                measured[0] += 1
                t, q = cache[key]
                print(json.dumps({"time": t, "qos": q}), flush=True)
            t, q = cache[key]
            return Result(time=t, accuracy=q)

    parser = argparse.ArgumentParser(parents=opentuner.argparsers())
    args = parser.parse_args(["--no-dups", "--database", "sqlite://",
                              "--test-limit", str(100 * budget), "--parallelism", "1"])
    # (OpenTuner 0.8.8 drops the input manager when an objective is given.)
    interface = Interface(args, objective=ThresholdAccuracyMinimizeTime(space.qos_min),
                          input_manager=FixedInputManager())
    try:
        opentuner.tuningrunmain.TuningRunMain(interface, args).main()
    except spaces.BudgetSpent:
        pass


if __name__ == "__main__":
    main()
