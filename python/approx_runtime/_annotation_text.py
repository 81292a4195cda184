"""The text of annotation ops (the seed's generic form) for a knob given
with the seed's field names, from objects (DecisionTree, ...) or dicts (C
comment entries). The one place that spells the ops' attributes for
Python; the compiler verifies what it reads."""

from __future__ import annotations

from typing import Optional


def _field(obj, key, default=None):
    if isinstance(obj, dict):
        return obj.get(key, default)
    return getattr(obj, key, default)


def _ints(values) -> str:
    return ", ".join(str(int(v)) for v in values)


def _str(s: str) -> str:
    return '"' + str(s).replace("\\", "\\\\").replace('"', '\\"') + '"'


def _common(fields: list, obj) -> None:
    """The optional attributes every annotation takes."""
    for key in ("knob_name", "callee"):
        value = _field(obj, key)
        if value:
            fields.append(f"{key} = {_str(value)}")


def _op(name: str, fields: list) -> str:
    return f'"approx.util.annotation.{name}"() <{{' + ", ".join(fields) + \
        "}> : () -> ()"


def _symbol(value, role: str) -> str:
    if callable(value):
        raise ValueError(
            f"{role} is a Python function: name an MLIR function of the module "
            "instead (Python functions are exported only as state functions)")
    return str(value)


def annotation_ops(func_name: str, config: dict,
                   state_name: Optional[str] = None) -> str:
    """The annotation ops (one per line) of the knob `config` on
    `func_name`: {"decision_tree" | "static_transform": ...,
    "safety_contract": ...}. `state_name` replaces the decision tree's
    state_function (when that is a Python function exported under it)."""
    dt = config.get("decision_tree")
    st = config.get("static_transform")
    sc = config.get("safety_contract")
    if dt and st:
        raise ValueError("a knob has a decision_tree or a static_transform, "
                         "not both")
    if not (dt or st or sc):
        raise ValueError("a knob needs a decision_tree, a static_transform or "
                         "a safety_contract")
    ops = []
    if st:
        fields = [f"func_name = {_str(func_name)}",
                  f"transform_type = {_str(_field(st, 'transform_type'))}",
                  f"knob_val = {int(_field(st, 'knob_val'))} : i32"]
        values = _field(st, "decision_values")
        if values:
            fields.append(f"decision_values = array<i32: {_ints(values)}>")
        _common(fields, st)
        ops.append(_op("static_transform", fields))
    if dt:
        state = state_name or _symbol(_field(dt, "state_function"),
                                      "DecisionTree.state_function")
        fields = [f"func_name = {_str(func_name)}",
                  f"transform_type = {_str(_field(dt, 'transform_type'))}",
                  f"state_indices = array<i64: "
                  f"{_ints(_field(dt, 'state_indices', [-1]))}>",
                  f"state_function = {_str(state)}",
                  f"thresholds = array<i32: {_ints(_field(dt, 'thresholds'))}>",
                  f"decisions = array<i32: {_ints(_field(dt, 'decisions'))}>"]
        for key, attr in (("thresholds_lower", "thresholds_lowers"),
                          ("thresholds_upper", "thresholds_uppers"),
                          ("decision_values", "decision_values")):
            values = _field(dt, key)
            if values is not None:
                fields.append(f"{attr} = array<i32: {_ints(values)}>")
        _common(fields, dt)
        ops.append(_op("decision_tree", fields))
    if sc:
        fields = [f"func_name = {_str(func_name)}",
                  f"checker = {_str(_symbol(_field(sc, 'checker'), 'SafetyContract.checker'))}",
                  f"recover = {_str(_symbol(_field(sc, 'recover'), 'SafetyContract.recover'))}"]
        _common(fields, sc)
        ops.append(_op("safety_contract", fields))
    return "\n".join(ops)
