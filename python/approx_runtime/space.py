"""A tuning space declared in Python, for plain Python programs: no JAX, no
MLIR, no annotated C.

    space = ar.Space()
    space.static("top_k", [10, 5, 3])                  # the first value is exact
    space.tree("scorer", ["cross", "bm25"], bounds=(0, 100))  # by a state

    @space.function("rerank", variants=[cheap_rerank], state=lambda q, d: q.margin,
                    bounds=(0, 100))
    def rerank(q, docs): ...                           # the exact one

    def evaluate(config):
        with space.use(config):                        # rerank() follows config
            k = space.decide(config, "top_k")
            scorer = space.decide(config, "scorer", state=confidence)
            ...
        return time_ms, accuracy

    result = ar.tune(space, evaluate, accuracy_threshold=0.95)

A knob is static (one value per configuration) or a decision tree (its
`thresholds` split the state's `bounds` into ranges, each range deciding one
of the values; tuned in mode "dynamic", the default; in mode "static" a tree
takes one value everywhere). Values are any Python objects; the first is
the exact one (the configuration's value 0, as everywhere in ApproxMLIR).
The search, the store, resume, certification and the reports are
approx_runtime.tune's, as for any other space: the Space is described to it
as MLIR annotations on stub functions (`Space.mlir()`; never compiled), and
a configuration holds the same parameters approx-tune names
(`NAME_knob_val`; `NAME_threshold_I`, `NAME_decision_I`).
"""

from __future__ import annotations

import contextlib
import functools
import numbers
import re
import threading
from dataclasses import dataclass
from typing import Any, Callable, Optional, Sequence, Tuple

_NAME = re.compile(r"[A-Za-z][A-Za-z0-9]*(_[A-Za-z0-9]+)*")
_INT32 = (-(2 ** 31), 2 ** 31 - 1)


@dataclass(frozen=True)
class _Knob:
    name: str
    values: Tuple[Any, ...]
    bounds: Optional[Tuple[int, int]]  # None: static
    thresholds: int


def _whole(what: str, v) -> int:
    if isinstance(v, bool) or not isinstance(v, numbers.Integral):
        raise TypeError(f"{what} must be a whole number, not {type(v).__name__} {v!r}")
    v = int(v)
    if not _INT32[0] <= v <= _INT32[1]:
        raise ValueError(f"{what} = {v} does not fit in 32 bits")
    return v


class Space:
    """Knobs declared in Python (module docstring)."""

    def __init__(self) -> None:
        self._knobs: dict = {}
        self._active = threading.local()

    # Declaring ---------------------------------------------------------------
    def _add(self, name, values, bounds, thresholds) -> None:
        if not isinstance(name, str) or not _NAME.fullmatch(name):
            raise ValueError(f"knob name {name!r}: give letters and digits, words joined by "
                             "single underscores (it names the configuration's parameters)")
        if name in self._knobs:
            raise ValueError(f"knob '{name}' is declared twice")
        if isinstance(values, (str, bytes, dict)) or not isinstance(values, Sequence):
            raise TypeError(f"knob '{name}': values must be a list (the first is exact), "
                            f"not {type(values).__name__}")
        if len(values) < 2:
            raise ValueError(f"knob '{name}': give at least two values (the exact one first)")
        if bounds is not None:
            if isinstance(bounds, (str, bytes)) or not isinstance(bounds, Sequence) \
                    or len(bounds) != 2:
                raise TypeError(f"knob '{name}': bounds must be (lowest, highest) of the state")
            lo = _whole(f"knob '{name}': bounds[0]", bounds[0])
            hi = _whole(f"knob '{name}': bounds[1]", bounds[1])
            n = _whole(f"knob '{name}': thresholds", thresholds)
            if n < 1:
                raise ValueError(f"knob '{name}': thresholds = {n}: give at least 1")
            if hi - lo < n + 1:
                raise ValueError(f"knob '{name}': bounds ({lo}, {hi}) leave no room for {n} "
                                 "threshold(s) between them")
            bounds = (lo, hi)
        self._knobs[name] = _Knob(name, tuple(values), bounds, thresholds if bounds else 0)

    def static(self, name: str, values: Sequence) -> None:
        """A knob with one value per configuration (values[0] exact)."""
        self._add(name, values, None, 0)

    def tree(self, name: str, values: Sequence, bounds: Tuple[int, int],
             thresholds: int = 1) -> None:
        """A knob decided per call by an integer state in bounds (lowest,
        highest): `thresholds` split the range, each part deciding one of
        `values` (values[0] exact)."""
        self._add(name, values, bounds, thresholds)

    def function(self, name: str, variants: Sequence[Callable], *,
                 state: Optional[Callable] = None, bounds: Optional[Tuple[int, int]] = None,
                 thresholds: int = 1):
        """A decorator: the function is the exact one, `variants` its
        approximations; inside `use(config)` a call runs the one the
        configuration chooses (by `state(*args, **kwargs)`, an int, when
        `bounds` makes it a decision tree), outside it the exact one."""
        if (state is None) != (bounds is None):
            raise ValueError(f"knob '{name}': give state and bounds together (a decision "
                             "tree), or neither (a static knob)")
        if state is not None and not callable(state):
            raise TypeError(f"knob '{name}': state must be callable (the call's arguments "
                            "-> an int)")
        if isinstance(variants, (str, bytes)) or not isinstance(variants, Sequence) or \
                not all(callable(v) for v in variants):
            raise TypeError(f"knob '{name}': variants must be a list of functions")

        def wrap(fn):
            self._add(name, [fn, *variants], bounds, thresholds)

            @functools.wraps(fn)
            def call(*args, **kwargs):
                config = getattr(self._active, "config", None)
                if config is None:
                    return fn(*args, **kwargs)
                s = state(*args, **kwargs) if state is not None else None
                return self.decide(config, name, s)(*args, **kwargs)
            return call
        return wrap

    # Using -------------------------------------------------------------------
    @contextlib.contextmanager
    def use(self, config: dict):
        """Within the block, functions declared with `function` follow
        `config` (on this thread)."""
        self.check(config)
        previous = getattr(self._active, "config", None)
        self._active.config = config
        try:
            yield self
        finally:
            self._active.config = previous

    def decide(self, config: dict, name: str, state: Optional[int] = None):
        """The value knob `name` takes under `config` (for a decision tree,
        at `state`, an int)."""
        if not isinstance(config, dict):
            raise TypeError(f"config must be a dict of parameter values, "
                            f"not {type(config).__name__}")
        knob = self._knobs.get(name)
        if knob is None:
            raise KeyError(f"no knob '{name}' in this space (knobs: "
                           f"{', '.join(self._knobs) or 'none'})")
        if knob.bounds is None:
            if state is not None:
                raise ValueError(f"knob '{name}' is static: it takes no state")
            return knob.values[self._param(config, f"{name}_knob_val", len(knob.values))]
        if state is None:
            raise ValueError(f"knob '{name}' is a decision tree: give its state")
        s = _whole(f"knob '{name}': state", state)
        ts = [self._param(config, f"{name}_threshold_{i}", None)
              for i in range(knob.thresholds)]
        part = sum(1 for t in ts if t <= s)
        return knob.values[self._param(config, f"{name}_decision_{part}", len(knob.values))]

    @staticmethod
    def _param(config, key, count):
        if key not in config:
            raise KeyError(f"the configuration has no parameter '{key}' (is it a "
                           "configuration of this space?)")
        v = _whole(f"config[{key!r}]", config[key])
        if count is not None and not 0 <= v < count:
            raise ValueError(f"config[{key!r}] = {v}: the knob has {count} values "
                             f"(0 to {count - 1})")
        return v

    def check(self, config: dict) -> None:
        """Raises when `config` is not a configuration of this space (a
        parameter missing or out of range); the exact configuration passes."""
        for k in self._knobs.values():
            if k.bounds is None:
                self.decide(config, k.name)
            else:
                self.decide(config, k.name, k.bounds[0])

    def exact(self) -> dict:
        """The exact configuration (every value 0; thresholds spread)."""
        config = {}
        for k in self._knobs.values():
            if k.bounds is None:
                config[f"{k.name}_knob_val"] = 0
                continue
            for i, t in enumerate(self._thresholds(k)):
                config[f"{k.name}_threshold_{i}"] = t
            for i in range(k.thresholds + 1):
                config[f"{k.name}_decision_{i}"] = 0
        return config

    @staticmethod
    def _thresholds(k: _Knob):
        lo, hi = k.bounds
        step = (hi - lo) // (k.thresholds + 1)
        return [lo + step * (i + 1) for i in range(k.thresholds)]

    @property
    def knobs(self) -> list:
        return list(self._knobs)

    # For the tuner -------------------------------------------------------------
    def mlir(self) -> str:
        """The space as the tuner reads it: MLIR annotations on stub
        functions (one per knob), never compiled."""
        if not self._knobs:
            raise ValueError("the space has no knobs")

        def arr(t, xs):
            return f"array<{t}: {', '.join(str(x) for x in xs)}>"
        out = ["module {", "  func.func @approx_state_identity(%s: i32) -> i32 {",
               "    return %s : i32", "  }"]
        for k in self._knobs.values():
            out += [f"  func.func @{k.name}(%s: i32) -> i32 {{", "    return %s : i32", "  }"]
        for k in self._knobs.values():
            values = arr("i32", range(len(k.values)))
            if k.bounds is None:
                out.append('  "approx.util.annotation.static_transform"() <{'
                           f'func_name = "{k.name}", transform_type = "loop_perforate", '
                           f'knob_val = 0 : i32, decision_values = {values}}}> : () -> ()')
                continue
            n = k.thresholds
            out.append('  "approx.util.annotation.decision_tree"() <{'
                       f'func_name = "{k.name}", transform_type = "loop_perforate", '
                       'state_indices = array<i64: 0>, '
                       'state_function = "approx_state_identity", '
                       f'thresholds = {arr("i32", self._thresholds(k))}, '
                       f'thresholds_lowers = {arr("i32", [k.bounds[0]] * n)}, '
                       f'thresholds_uppers = {arr("i32", [k.bounds[1]] * n)}, '
                       f'decisions = {arr("i32", [0] * (n + 1))}, '
                       f'decision_values = {values}}}> : () -> ()')
        out.append("}")
        return "\n".join(out) + "\n"
