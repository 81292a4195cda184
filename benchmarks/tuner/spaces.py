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
Pareto set, and searches their product exactly. Pure Python except for
`optimum()` (numpy), so that OpenTuner's own environment can import it.
"""

from __future__ import annotations

import itertools
import random
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
        c = {}
        for k in self.knobs:
            for i, t in enumerate(self.default_thresholds(k)):
                c[f"{k.name}_threshold_{i}"] = t
            for i in range(k.thresholds + 1):
                c[f"{k.name}_decision_{i}"] = 0
        return c

    @staticmethod
    def default_thresholds(k: Knob) -> List[int]:
        step = (k.upper - k.lower) // (k.thresholds + 1)
        return [k.lower + step * (i + 1) for i in range(k.thresholds)]

    def mlir(self) -> str:
        def arr(t, xs):
            return f"array<{t}: {', '.join(str(x) for x in xs)}>"
        out = ["module {",
               "  func.func @approx_state_identity(%s: i32) -> i32 {",
               "    return %s : i32", "  }"]
        for k in self.knobs:
            out += [f"  func.func @{k.name}(%s: i32) -> i32 {{", "    return %s : i32", "  }"]
        for k in self.knobs:
            n = k.thresholds
            out.append(
                '  "approx.util.annotation.decision_tree"() <{'
                f'func_name = "{k.name}", transform_type = "loop_perforate", '
                'state_indices = array<i64: 0>, state_function = "approx_state_identity", '
                f'thresholds = {arr("i32", self.default_thresholds(k))}, '
                f'thresholds_lowers = {arr("i32", [k.lower] * n)}, '
                f'thresholds_uppers = {arr("i32", [k.upper] * n)}, '
                f'decisions = {arr("i32", [0] * (n + 1))}, '
                f'decision_values = {arr("i32", k.values)}}}> : () -> ()')
        out.append("}")
        return "\n".join(out) + "\n"

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

    def optimum(self) -> Tuple[float, float]:
        """(time, qos) of the fastest configuration with qos >= qos_min."""
        import numpy as np
        fronts = []
        for k in self.knobs:
            pts = sorted(self.knob_behaviours(k))
            front, best_loss = [], float("inf")
            for t, l in pts:
                if l < best_loss - 1e-15:
                    front.append((t, l))
                    best_loss = l
            fronts.append(np.array(front))
        # Product of the per-knob Pareto sets, two halves joined in chunks.
        def grid(idx):
            ts = [1 - self.knobs[j].share + self.knobs[j].share * fronts[j][:, 0] for j in idx]
            ls = [fronts[j][:, 1] for j in idx]
            mesh_t = np.array(np.meshgrid(*ts, indexing="ij")).reshape(len(idx), -1)
            mesh_l = np.array(np.meshgrid(*ls, indexing="ij")).reshape(len(idx), -1)
            return mesh_t, mesh_l
        half = (len(self.knobs) + 1) // 2
        left, right = list(range(half)), list(range(half, len(self.knobs)))
        lt, ll = grid(left)
        rt, rl = grid(right) if right else (np.ones((0, 1)), np.zeros((0, 1)))
        pos = {j: (0, i) for i, j in enumerate(left)}
        pos.update({j: (1, i) for i, j in enumerate(right)})
        best_time, best_qos = float("inf"), 1.0
        chunk = max(1, 2_000_000 // max(1, rt.shape[1]))
        for start in range(0, lt.shape[1], chunk):
            sl = slice(start, start + chunk)
            time = lt[:, sl].prod(axis=0)[:, None] * rt.prod(axis=0)[None, :]
            L = [ll[pos[j][1], sl][:, None] if pos[j][0] == 0 else rl[pos[j][1]][None, :]
                 for j in range(len(self.knobs))]
            loss = sum(L)
            for a, b in self.pairs:
                loss = loss + self.interaction * L[a] * L[b]
            qos = np.maximum(0.0, 1.0 - loss)
            time = np.where(qos >= self.qos_min, time, np.inf)
            i = np.unravel_index(np.argmin(time), time.shape)
            if time[i] < best_time:
                best_time, best_qos = float(time[i]), float(qos[i])
        return best_time, best_qos


def generate(kind: str, seed: int) -> SyntheticSpace:
    """'easy': two one-threshold knobs, no interaction, qos >= 0.95.
    'hard': five knobs (19 parameters), two interacting pairs and a narrow
    feasible region (qos >= 0.97)."""
    rng = random.Random(f"{kind}-{seed}")
    if kind == "easy":
        shape, values, pairs, interaction, qos_min = [1, 1], 4, [], 0.0, 0.95
    elif kind == "hard":
        shape, values, pairs, interaction, qos_min = [2, 2, 1, 1, 1], 5, [(0, 1), (2, 3)], 25.0, 0.97
    else:
        raise ValueError(f"unknown space kind '{kind}' (easy, hard)")
    knobs = []
    for j, n in enumerate(shape):
        lower, upper, S = 0, 200, 6
        # States with room for any threshold placement: n integers below the
        # first state, between two states, and above the last one.
        while True:
            states = sorted(rng.sample(range(lower + n, upper - n + 1), S))
            if all(b - a >= n for a, b in zip(states, states[1:])):
                break
        raw = [rng.uniform(0.2, 1.0) for _ in range(S)]
        weights = [r / sum(raw) for r in raw]
        knobs.append(Knob(
            name=f"knob{j}", thresholds=n, values=list(range(values)), lower=lower,
            upper=upper, states=states, weights=weights, share=rng.uniform(0.3, 0.8),
            rate=rng.uniform(0.3, 1.2), loss_scale=rng.uniform(0.004, 0.02),
            power=rng.uniform(1.2, 2.2),
            sensitivity=[rng.choice([0.1, 0.3, 1.0, 3.0]) for _ in range(S)]))
    return SyntheticSpace(kind, knobs, pairs, interaction, qos_min, seed)
