"""The seed's knob annotations for Python code: `Knob`, `DecisionTree`,
`SafetyContract`, `StaticTransform` and `get_config`.

    @ar.Knob(decision_tree=ar.DecisionTree(
        state_function=get_state, state_indices=[0], thresholds=[100],
        decisions=[0, 2], transform_type="loop_perforate"))
    def my_kernel(n, data): ...

Fields are checked when an annotation is made, by the dialect's own rules
(the verifier's code, through the C++ core): a bad value raises ValueError
or TypeError naming the class and the field.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Callable, Optional, Sequence, Union

from . import _core

_INT32 = (-(2 ** 31), 2 ** 31 - 1)

# The verifier names the MLIR attributes; users wrote the Python fields.
_FIELD_NAMES = {"thresholds_lowers": "thresholds_lower",
                "thresholds_uppers": "thresholds_upper"}


def transform_types() -> list:
    """The transform types the compiler knows (its enum, the one list)."""
    return list(_core.transform_kinds())


def _int(owner: str, field: str, v) -> int:
    import numbers
    if isinstance(v, bool) or not isinstance(v, numbers.Integral):
        raise TypeError(f"{owner}.{field} must be an int, "
                        f"not {type(v).__name__}")
    v = int(v)
    if not _INT32[0] <= v <= _INT32[1]:
        raise ValueError(f"{owner}.{field} = {v} does not fit in 32 bits")
    return v


def _ints(owner: str, field: str, value, *, optional=False, nonempty=False):
    if value is None and optional:
        return None
    if isinstance(value, (str, bytes, dict)) or not hasattr(value, "__iter__"):
        raise TypeError(f"{owner}.{field} must be a list of ints, "
                        f"not {type(value).__name__}")
    out = [_int(owner, f"{field}[{i}]", v) for i, v in enumerate(value)]
    if nonempty and not out:
        raise ValueError(f"{owner}.{field} must not be empty")
    return out


def _kind(owner: str, value) -> str:
    if not isinstance(value, str):
        raise TypeError(f"{owner}.transform_type must be a str, "
                        f"not {type(value).__name__}")
    if value not in _core.transform_kinds():
        raise ValueError(f"{owner}.transform_type: unknown transform type "
                         f"'{value}' (expected one of: "
                         f"{', '.join(_core.transform_kinds())})")
    return value


def _function(owner: str, field: str, value):
    if callable(value):
        return value
    if isinstance(value, str) and value:
        return value
    raise TypeError(f"{owner}.{field} must be a function or the name of an "
                    f"MLIR function, not {value!r}")


def _check(owner: str, problem: Optional[str]) -> None:
    if problem:
        for mlir, py in _FIELD_NAMES.items():
            problem = problem.replace(mlir, py)
        raise ValueError(f"{owner}: {problem}")


@dataclass
class DecisionTree:
    """A dynamic knob: the state function's value, compared with
    `thresholds`, selects one of `decisions` (knob values, 0 = exact)."""

    state_function: Union[Callable, str]
    state_indices: Sequence[int]
    thresholds: Sequence[int]
    decisions: Sequence[int]
    transform_type: str
    thresholds_lower: Optional[Sequence[int]] = None
    thresholds_upper: Optional[Sequence[int]] = None
    decision_values: Optional[Sequence[int]] = None

    def __post_init__(self):
        o = "DecisionTree"
        self.state_function = _function(o, "state_function", self.state_function)
        self.state_indices = _ints(o, "state_indices", self.state_indices,
                                   nonempty=True)
        self.thresholds = _ints(o, "thresholds", self.thresholds)
        self.decisions = _ints(o, "decisions", self.decisions)
        self.transform_type = _kind(o, self.transform_type)
        for f in ("thresholds_lower", "thresholds_upper", "decision_values"):
            setattr(self, f, _ints(o, f, getattr(self, f), optional=True))
        _check(o, _core.check_decision_tree(
            self.transform_type, self.thresholds, self.decisions,
            self.thresholds_lower, self.thresholds_upper, self.decision_values))


@dataclass
class StaticTransform:
    """A static knob: one knob value (0 = exact) for every call."""

    transform_type: str
    knob_val: int
    decision_values: Optional[Sequence[int]] = None

    def __post_init__(self):
        o = "StaticTransform"
        self.transform_type = _kind(o, self.transform_type)
        self.knob_val = _int(o, "knob_val", self.knob_val)
        self.decision_values = _ints(o, "decision_values",
                                     self.decision_values, optional=True)
        _check(o, _core.check_static(self.transform_type, self.knob_val,
                                     self.decision_values))


@dataclass
class SafetyContract:
    """Try-check-recover: `checker(results, inputs) -> bool` accepts the
    approximate results, else `recover(inputs) -> results` recomputes them.
    Names of MLIR functions (C/C++ or MLIR code) or functions."""

    checker: Union[Callable, str]
    recover: Union[Callable, str]

    def __post_init__(self):
        self.checker = _function("SafetyContract", "checker", self.checker)
        self.recover = _function("SafetyContract", "recover", self.recover)


_ATTR = "__approx_config__"


class Knob:
    """Decorator marking a function as a knob:

        @ar.Knob(decision_tree=ar.DecisionTree(...))
        @ar.Knob(static_transform=ar.StaticTransform(...))
        @ar.Knob(decision_tree=..., safety_contract=ar.SafetyContract(...))

    The function is returned unchanged; `get_config(fn)` gives the knob.
    A safety contract needs a transform on the same knob by the time the
    annotations are injected (the compiler checks it there)."""

    def __init__(self, decision_tree: Optional[DecisionTree] = None,
                 safety_contract: Optional[SafetyContract] = None,
                 static_transform: Optional[StaticTransform] = None):
        for field, value, cls in (("decision_tree", decision_tree, DecisionTree),
                                  ("safety_contract", safety_contract, SafetyContract),
                                  ("static_transform", static_transform, StaticTransform)):
            if value is not None and not isinstance(value, cls):
                raise TypeError(f"Knob.{field} must be an ar.{cls.__name__}, "
                                f"not {type(value).__name__}")
        if decision_tree is not None and static_transform is not None:
            raise ValueError("Knob: give decision_tree or static_transform, "
                             "not both")
        if decision_tree is None and static_transform is None \
                and safety_contract is None:
            raise ValueError("Knob: needs a decision_tree, a static_transform "
                             "or a safety_contract")
        self.config = {k: v for k, v in (("decision_tree", decision_tree),
                                         ("safety_contract", safety_contract),
                                         ("static_transform", static_transform))
                       if v is not None}

    def __call__(self, fn):
        """Marks `fn`; stacked Knob decorators add to one knob (e.g. a
        decision tree and the safety contract guarding it)."""
        if not callable(fn):
            raise TypeError("Knob decorates a function")
        config = dict(getattr(fn, _ATTR, {}))
        for key, value in self.config.items():
            if key in config:
                raise ValueError(f"Knob: {getattr(fn, '__name__', fn)} already "
                                 f"has a {key}")
            config[key] = value
        if "decision_tree" in config and "static_transform" in config:
            raise ValueError(f"Knob: {getattr(fn, '__name__', fn)} would have "
                             "both a decision_tree and a static_transform")
        setattr(fn, _ATTR, config)
        return fn


def get_config(fn) -> dict:
    """The knob of a function decorated with `Knob`:
    {"decision_tree": DecisionTree, ...}."""
    config = getattr(fn, _ATTR, None)
    if config is None:
        name = getattr(fn, "__name__", repr(fn))
        raise ValueError(f"{name} has no knob (decorate it with ar.Knob)")
    return dict(config)


def as_fields(annotation) -> dict:
    """The fields of an annotation object as a dict."""
    return dataclasses.asdict(annotation) if dataclasses.is_dataclass(annotation) \
        else dict(annotation)
