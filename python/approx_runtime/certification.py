"""Certification over per-input scores held by the caller: the tuner's
fixed-sequence test (docs/tuning.md#certification) for replaying stored
outcomes, or for a pipeline measured outside `tune`.

    picks = ar.certify(exact_scores, [(time, scores), ...], levels=(0.03,))
    picks[0]["pick"]   # index of the certified candidate, or -1: exact

Candidates are given most accurate first (an order fixed before the
calibration scores are looked at); each level tests them in that order,
stops at the first whose loss cannot be certified at `delta`, and picks the
fastest of those that passed.
"""

from __future__ import annotations

from typing import List, Optional, Sequence, Tuple

from . import _core

LEVELS = (0.01, 0.03, 0.06, 0.09)


def certify(exact: Sequence[float],
            candidates: Sequence[Tuple[float, Optional[Sequence[float]]]],
            levels: Sequence[float] = LEVELS, delta: float = 0.05,
            bound: str = "betting") -> List[dict]:
    """Per level: {"level", "pick" (candidate index, -1 for the exact
    configuration), "tested", "stopped_at", "needed" (when nothing was
    certified because the inputs were too few for the level at all: the
    fewest it can pass on; else 0)}. `exact` and each candidate's
    scores are per input, in the same order, in [0, 1]; a candidate's
    scores may be None (its measurement failed: the sequence stops
    there)."""
    return _core.certify_sequence(
        [float(x) for x in exact],
        [None if s is None else [float(x) for x in s] for _, s in candidates],
        [float(t) for t, _ in candidates], [float(l) for l in levels],
        float(delta), bound)


def loss_upper_bound(exact: Sequence[float], approx: Sequence[float],
                     delta: float = 0.05, bound: str = "betting") -> float:
    """The one-sided (1 - delta) upper confidence bound on the loss
    1 - sum(approx) / sum(exact) (on a 0.001 grid; 1 when none)."""
    return _core.loss_upper_bound([float(x) for x in exact],
                                  [float(x) for x in approx], float(delta), bound)


__all__ = ["certify", "loss_upper_bound", "LEVELS"]
