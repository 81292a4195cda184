"""Synthetic tuning spaces with known optima, generated from a seed.

A space is a set of decision-tree knobs written as the seed's annotations
(MLIR), and a deterministic model of a program that has them: each knob
reads its own program state, which takes a few values (with weights) over a
run; its decision at each state sets how much of the knob's work is done
(time) and what that costs in accuracy, with a sensitivity that depends on
the state (so deciding per state pays: the dynamic space). Time composes
multiplicatively (each knob is a fraction of the work; nested regions) and
losses interact: chosen pairs of knobs amplify each other's loss.

    time = prod_j (1 - a_j + a_j * T_j),   T_j = sum_s w_s / (1 + r_j d_j(s))
    loss = sum_j L_j + g * sum_{(j,k) in pairs} L_j L_k,
           L_j = sum_s w_s * b_j * sens_j(s) * d_j(s) ** p_j
    qos  = max(0, 1 - loss)

Both are increasing in every T_j and L_j, so the optimum (least time with
qos >= bound) is a combination of per-knob Pareto points (no other setting
of that knob is both faster and more accurate): `optimum()` enumerates each
knob's distinct behaviours (which decision each state gets), keeps its
Pareto set, and searches their product exactly by branch and bound (a
partial combination is dropped when even the fastest points of the knobs
left cannot beat the best time found, or when its loss alone already
breaks the bound: losses only grow as knobs are added). Pure Python, so that
OpenTuner's and Optuna's own environments can import it.

Spaces come from `generate(kind, seed)`: the two hand-made kinds 'easy' and
'hard' (the spaces approx-tune's search was developed on), and the generated
families (FAMILIES: 'gen-small', 'gen-medium', 'gen-hard', and 'gen-tiny' for
tests), whose instances vary, seed by seed, the number of knobs, thresholds
and decision values, the states and their distribution (uniform, skewed,
random), how each knob's sensitivity follows its state (rising, falling,
flat, random), its share of the work, speed-up rate and loss curve, the
interaction structure (none, a chain, random pairs) and strength, and the
QoS bound.
"""

from __future__ import annotations

import itertools
import json
import random
import sys
from dataclasses import dataclass, field
from typing import Dict, List, Tuple


@dataclass
class Knob:
    name: str
    thresholds: int            # how many
    values: List[int]          # decision values (0 = exact)
    lower: int
    upper: int
    states: List[int]          # sorted, distinct
    weights: List[float]       # per state, sum 1
    share: float               # a_j: fraction of the work
    rate: float                # r_j: speed-up per decision step
    loss_scale: float          # b_j
    power: float               # p_j
    sensitivity: List[float]   # per state

    def decisions_per_state(self, config: Dict[str, int]) -> List[int]:
        ts = [config[f"{self.name}_threshold_{i}"] for i in range(self.thresholds)]
        ds = [config[f"{self.name}_decision_{i}"] for i in range(self.thresholds + 1)]
        return [ds[sum(1 for t in ts if t <= s)] for s in self.states]

    def time_loss(self, per_state: List[int]) -> Tuple[float, float]:
        t = sum(w / (1 + self.rate * d) for w, d in zip(self.weights, per_state))
        loss = sum(w * self.loss_scale * sens * d ** self.power
                   for w, sens, d in zip(self.weights, self.sensitivity, per_state))
        return t, loss


@dataclass
class SyntheticSpace:
    name: str
    knobs: List[Knob]
    pairs: List[Tuple[int, int]]
    interaction: float
    qos_min: float
    seed: int
    evaluations: int = field(default=0)

    # The model --------------------------------------------------------------
    def combine(self, tl: List[Tuple[float, float]]) -> Tuple[float, float]:
        time = 1.0
        for k, (t, _) in zip(self.knobs, tl):
            time *= 1 - k.share + k.share * t
        loss = sum(l for _, l in tl)
        loss += self.interaction * sum(tl[a][1] * tl[b][1] for a, b in self.pairs)
        return time, max(0.0, 1.0 - loss)

    def evaluate(self, config: Dict[str, int]) -> Tuple[float, float]:
        """(time relative to the exact configuration, qos) of a complete
        configuration (every parameter)."""
        self.evaluations += 1
        return self.combine([k.time_loss(k.decisions_per_state(config)) for k in self.knobs])

    # The annotations ----------------------------------------------------------
    def exact_config(self) -> Dict[str, int]:
        return self.as_space().exact()

    def repair(self, c: Dict[str, int]) -> Dict[str, int]:
        """Each knob's thresholds in `c` sorted and spread to be strictly
        ascending within its bounds (the peers propose them in any order;
        approx-tune rejects such configurations)."""
        for k in self.knobs:
            names = [f"{k.name}_threshold_{i}" for i in range(k.thresholds)]
            ts = sorted(c[n] for n in names)
            for i in range(1, len(ts)):
                ts[i] = max(ts[i], ts[i - 1] + 1)
            over = ts[-1] - k.upper if ts else 0
            if over > 0:  # shift down, keeping them strictly ascending
                ts = [t - over for t in ts]
                for i in range(len(ts) - 2, -1, -1):
                    ts[i] = min(ts[i], ts[i + 1] - 1)
            for n, t in zip(names, ts):
                c[n] = t
        return c

    def as_space(self):
        """The space as approx_runtime declares a Python space (its knobs
        decision trees over their states; approx_runtime is imported here
        only, so that the peers' environments can import this module)."""
        import approx_runtime as ar
        space = ar.Space()
        for k in self.knobs:
            space.tree(k.name, k.values, bounds=(k.lower, k.upper), thresholds=k.thresholds)
        return space

    def mlir(self) -> str:
        return self.as_space().mlir()

    def parameters(self) -> List[Tuple[str, str, int, int]]:
        """(name, kind, lower, upper) of every parameter, in the space's order."""
        ps = []
        for k in self.knobs:
            for i in range(k.thresholds):
                ps.append((f"{k.name}_threshold_{i}", "threshold", k.lower, k.upper))
            for i in range(k.thresholds + 1):
                ps.append((f"{k.name}_decision_{i}", "decision", min(k.values), max(k.values)))
        return ps

    # The optimum --------------------------------------------------------------
    def knob_behaviours(self, k: Knob) -> List[Tuple[float, float]]:
        """(T_j, L_j) of every distinct behaviour of knob k: the decision
        index of each state is a non-decreasing sequence in 0..n (thresholds
        fall between states; generate() leaves room for any such placement),
        each index mapped to a decision value."""
        seen = {}
        n, S = k.thresholds, len(k.states)
        for counts in itertools.combinations_with_replacement(range(n + 1), S):
            for ds in itertools.product(k.values, repeat=n + 1):
                per_state = tuple(ds[c] for c in counts)
                if per_state not in seen:
                    seen[per_state] = k.time_loss(list(per_state))
        return list(seen.values())

    def knob_front(self, k: Knob) -> List[Tuple[float, float]]:
        """Knob k's Pareto set as (time factor 1 - a_j + a_j T_j, L_j),
        fastest first (so loss falls along it; the exact behaviour, factor 1
        and loss 0, is last)."""
        front, best_loss = [], float("inf")
        for t, l in sorted(self.knob_behaviours(k)):
            if l < best_loss - 1e-15:
                front.append((1 - k.share + k.share * t, l))
                best_loss = l
        return front

    def optimum(self) -> Tuple[float, float]:
        """(time, qos) of the fastest configuration with qos >= qos_min,
        exactly (branch and bound over the knobs' Pareto sets)."""
        fronts = [self.knob_front(k) for k in self.knobs]
        n = len(fronts)
        # fastest[j]: the least time factor the knobs j.. can reach together.
        fastest = [1.0] * (n + 1)
        for j in range(n - 1, -1, -1):
            fastest[j] = fastest[j + 1] * fronts[j][0][0]
        best = [1.0, 1.0]  # the exact configuration: time 1, qos 1
        losses = [0.0] * n

        def qos_of(j):  # QoS of knobs 0..j-1 (the rest exact), as combine() computes it
            loss = sum(losses[:j])
            loss += self.interaction * sum(losses[a] * losses[b] for a, b in self.pairs
                                           if a < j and b < j)
            return max(0.0, 1.0 - loss)

        def search(j, time):
            if j == n:
                q = qos_of(n)
                if q >= self.qos_min and time < best[0]:
                    best[0], best[1] = time, q
                return
            for factor, loss in fronts[j]:
                t = time * factor
                if t * fastest[j + 1] >= best[0]:
                    break  # the points left are slower still
                losses[j] = loss
                if qos_of(j + 1) < self.qos_min:
                    continue  # more knobs only add loss
                search(j + 1, t)
            losses[j] = 0.0

        search(0, 1.0)
        return best[0], best[1]

    def enumerate_optimum(self) -> Tuple[float, float]:
        """The same by evaluating every configuration (tiny spaces only:
        the tests check optimum() against it)."""
        names = [p[0] for p in self.parameters()]
        ranges = []
        for name, kind, lower, upper in self.parameters():
            ranges.append(range(lower, upper + 1))
        best = (1.0, 1.0)
        for values in itertools.product(*ranges):
            config = dict(zip(names, values))
            ok = all(config[f"{k.name}_threshold_{i}"] < config[f"{k.name}_threshold_{i + 1}"]
                     for k in self.knobs for i in range(k.thresholds - 1))
            if not ok:
                continue
            t, q = self.combine([k.time_loss(k.decisions_per_state(config)) for k in self.knobs])
            if q >= self.qos_min and t < best[0]:
                best = (t, q)
        return best


@dataclass(frozen=True)
class Family:
    """Ranges a generated instance draws from (inclusive)."""
    knobs: Tuple[int, int]
    thresholds: Tuple[int, int]
    values: Tuple[int, int]
    states: Tuple[int, int]
    qos_min: Tuple[float, float]
    interaction: Tuple[float, float]
    upper: int = 200  # thresholds range over 0..upper


FAMILIES = {
    # Tiny instances whose every configuration can be evaluated (the tests).
    "gen-tiny": Family((2, 2), (1, 1), (2, 3), (2, 3), (0.90, 0.97), (0.0, 20.0), upper=8),
    "gen-small": Family((2, 3), (1, 2), (3, 5), (3, 6), (0.90, 0.97), (0.0, 20.0)),
    "gen-medium": Family((3, 5), (1, 2), (3, 5), (4, 6), (0.90, 0.98), (0.0, 30.0)),
    # The family of the hard space issue 39 tried: 5-6 knobs, interacting.
    "gen-hard": Family((5, 6), (1, 3), (4, 5), (4, 6), (0.90, 0.98), (10.0, 40.0)),
}
KINDS = ["easy", "hard"] + list(FAMILIES)


class BudgetSpent(Exception):
    """Raised by PipeSpace.evaluate when the harness has measured as many
    configurations as the run may (the peer's driver then ends)."""


class PipeSpace:
    """A real space, measured by the harness that started the driver
    (real_spaces.py) through the driver's stdin and stdout, one JSON object a
    line. The harness first sends {"parameters": [[name, kind, lower, upper],
    ...], "qos_min": q}; then each configuration the driver asks for is
    printed as {"config": {name: value}} and answered with {"time": t, "qos":
    q}, or with {"done": true} once the run's budget is spent. The harness
    repairs thresholds, maps decision indices to values and counts distinct
    configurations: repair() leaves a proposal as it is."""

    def __init__(self, stdin, stdout):
        self.stdin, self.stdout = stdin, stdout
        header = json.loads(stdin.readline())
        self.params = [tuple(p) for p in header["parameters"]]
        self.qos_min = header["qos_min"]

    def parameters(self) -> List[Tuple[str, str, int, int]]:
        return self.params

    def repair(self, c: Dict[str, int]) -> Dict[str, int]:
        return c

    def evaluate(self, config: Dict[str, int]) -> Tuple[float, float]:
        print(json.dumps({"config": config}), file=self.stdout, flush=True)
        line = self.stdin.readline()
        answer = json.loads(line) if line else {"done": True}
        if answer.get("done"):
            raise BudgetSpent()
        return answer["time"], answer["qos"]


def generate(kind: str, seed: int):
    """'easy': two one-threshold knobs, no interaction, qos >= 0.95.
    'hard': five knobs (19 parameters), two interacting pairs and a narrow
    feasible region (qos >= 0.97). A FAMILIES name: an instance of that
    family drawn from the seed (generate_family). 'pipe': a PipeSpace on
    standard input and output (the seed is not used)."""
    if kind in FAMILIES:
        return generate_family(kind, seed)
    if kind == "pipe":
        return PipeSpace(sys.stdin, sys.stdout)
    rng = random.Random(f"{kind}-{seed}")
    if kind == "easy":
        shape, values, pairs, interaction, qos_min = [1, 1], 4, [], 0.0, 0.95
    elif kind == "hard":
        shape, values, pairs, interaction, qos_min = [2, 2, 1, 1, 1], 5, [(0, 1), (2, 3)], 25.0, 0.97
    else:
        raise ValueError(f"unknown space kind '{kind}' ({', '.join(KINDS)})")
    knobs = []
    for j, n in enumerate(shape):
        lower, upper, S = 0, 200, 6
        states = room_for_thresholds(rng, S, n, lower, upper)
        raw = [rng.uniform(0.2, 1.0) for _ in range(S)]
        weights = [r / sum(raw) for r in raw]
        knobs.append(Knob(
            name=f"knob{j}", thresholds=n, values=list(range(values)), lower=lower,
            upper=upper, states=states, weights=weights, share=rng.uniform(0.3, 0.8),
            rate=rng.uniform(0.3, 1.2), loss_scale=rng.uniform(0.004, 0.02),
            power=rng.uniform(1.2, 2.2),
            sensitivity=[rng.choice([0.1, 0.3, 1.0, 3.0]) for _ in range(S)]))
    return SyntheticSpace(kind, knobs, pairs, interaction, qos_min, seed)


def room_for_thresholds(rng: random.Random, S: int, n: int, lower: int, upper: int) -> List[int]:
    """S distinct sorted states in lower..upper with room for any placement
    of n thresholds: n integers below the first state, between two states,
    and above the last one."""
    while True:
        states = sorted(rng.sample(range(lower + n, upper - n + 1), S))
        if all(b - a >= n for a, b in zip(states, states[1:])):
            return states


def generate_family(name: str, seed: int) -> SyntheticSpace:
    """An instance of family `name` drawn from `seed` (the same seed gives
    the same space)."""
    f = FAMILIES[name]
    rng = random.Random(f"{name}-{seed}")
    nknobs = rng.randint(*f.knobs)
    values = rng.randint(*f.values)
    knobs = []
    for j in range(nknobs):
        n, S = rng.randint(*f.thresholds), rng.randint(*f.states)
        states = room_for_thresholds(rng, S, n, 0, f.upper)
        dist = rng.choice(["uniform", "skewed", "random"])
        raw = ([1.0] * S if dist == "uniform" else
               [0.5 ** i for i in rng.sample(range(S), S)] if dist == "skewed" else
               [rng.uniform(0.2, 1.0) for _ in range(S)])
        shape = rng.choice(["rising", "falling", "flat", "random"])
        levels = [rng.choice([0.1, 0.3, 1.0, 3.0]) for _ in range(S)]
        sensitivity = (sorted(levels) if shape == "rising" else
                       sorted(levels, reverse=True) if shape == "falling" else
                       [1.0] * S if shape == "flat" else levels)
        knobs.append(Knob(
            name=f"knob{j}", thresholds=n, values=list(range(values)), lower=0,
            upper=f.upper, states=states, weights=[r / sum(raw) for r in raw],
            share=rng.uniform(0.2, 0.9), rate=rng.uniform(0.2, 1.5),
            loss_scale=rng.uniform(0.002, 0.03), power=rng.uniform(1.0, 2.5),
            sensitivity=sensitivity))
    structure = rng.choice(["none", "chain", "pairs"]) if nknobs > 1 else "none"
    if structure == "chain":
        pairs = [(j, j + 1) for j in range(nknobs - 1)]
    elif structure == "pairs":
        every = list(itertools.combinations(range(nknobs), 2))
        pairs = sorted(rng.sample(every, rng.randint(1, max(1, nknobs // 2))))
    else:
        pairs = []
    interaction = round(rng.uniform(*f.interaction), 2) if pairs else 0.0
    qos_min = round(rng.uniform(*f.qos_min), 3)
    return SyntheticSpace(name, knobs, pairs, interaction, qos_min, seed)
