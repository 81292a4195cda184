"""`MLIRConfigManager` and `TunableParam`: the tunable parameters of
annotated MLIR, and configurations written into it (the C++ tuner's space,
approx::tune::Space, through the core)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Dict, List, Optional

from . import _core


@dataclass
class TunableParam:
    """One tunable parameter, named as the compiler's config-approx names it
    (`<knob>_threshold_<i>`, `<knob>_decision_<j>`, `<knob>_knob_val`)."""

    name: str
    lower: int          # thresholds: from thresholds_lowers; else min value
    upper: int          # thresholds: from thresholds_uppers; else max value
    current: int        # the value in the MLIR
    param_type: str     # "threshold", "decision", "knob_val" or "schedule"
                        # (a transform script's tune.knob / tune.alternatives)
    func_name: str      # the annotated function
    index: int          # position among the knob's thresholds / decisions
    values: List[int] = field(default_factory=list)  # allowed knob values
    knob: str = ""
    _space: object = field(default=None, repr=False, compare=False)


def _space_of(params) -> "_core.Space":
    spaces = {id(p._space): p._space for p in params.values()
              if isinstance(p, TunableParam) and p._space is not None}
    if len(spaces) != 1 or len(params) != len(
            [p for p in params.values() if isinstance(p, TunableParam)]):
        raise TypeError("params must be the result of one "
                        "MLIRConfigManager.parse_annotations call")
    return next(iter(spaces.values()))


class MLIRConfigManager:
    """Reads the tunable parameters of annotated MLIR and writes
    configurations into it.

        manager = ar.MLIRConfigManager()
        params = manager.parse_annotations(mlir)       # name -> TunableParam
        manager.validate_config({"f_threshold_0": 150}, params)
        tuned = manager.apply_config(mlir, {"f_threshold_0": 150})
    """

    def parse_annotations(self, mlir_source: str, *,
                          filename: str = "<mlir>") -> Dict[str, TunableParam]:
        """name -> TunableParam of every annotation of `mlir_source`.
        Raises ValueError with the located diagnostics on invalid MLIR."""
        space = _core.Space.from_mlir(mlir_source, filename)
        return {p["name"]: TunableParam(
                    name=p["name"], lower=p["lower"], upper=p["upper"],
                    current=p["current"], param_type=p["param_type"],
                    func_name=p["func_name"], index=p["index"],
                    values=list(p["values"]), knob=p["knob"], _space=space)
                for p in space.params}

    def config_problems(self, config: Dict[str, int],
                        params: Dict[str, TunableParam]) -> List[str]:
        """What is wrong with `config` (unknown names, values out of bounds
        or not allowed, thresholds not strictly ascending); [] if valid."""
        return list(_space_of(params).validate(_check_types(config)))

    def validate_config(self, config: Dict[str, int],
                        params: Dict[str, TunableParam]) -> bool:
        """True when `config` is within bounds and its thresholds ascend."""
        return not self.config_problems(config, params)

    def apply_config(self, mlir_source: str, config: Dict[str, int], *,
                     filename: str = "<mlir>") -> str:
        """`mlir_source` with the values of `config` written into its
        annotations. Raises ValueError for names the MLIR does not have or
        invalid values (with every problem listed)."""
        config = _check_types(config)
        space = _core.Space.from_mlir(mlir_source, filename)
        problems = space.validate(config)
        if problems:
            raise ValueError("invalid configuration: " + "; ".join(problems))
        return _core.apply_config(mlir_source, config, filename)

    def exact_config(self, mlir_source: str, *,
                     filename: str = "<mlir>") -> Dict[str, int]:
        """The exact configuration: every decision and knob value 0,
        thresholds as annotated, a transform script's choices as it makes
        them (what the tuner measures as its baseline)."""
        return dict(_core.Space.from_mlir(mlir_source, filename).exact())

    def default_config(self, mlir_source: str, *,
                       filename: str = "<mlir>") -> Dict[str, int]:
        """The annotations' own values."""
        return dict(_core.Space.from_mlir(mlir_source, filename).defaults())


def _check_types(config) -> Dict[str, int]:
    """`config` as a dict of str -> int; TypeError naming a bad entry."""
    import numbers
    if not isinstance(config, dict):
        raise TypeError(f"a configuration is a dict name -> int, not "
                        f"{type(config).__name__}")
    for k, v in config.items():
        if not isinstance(k, str):
            raise TypeError(f"configuration key {k!r} is not a str")
        if isinstance(v, bool) or not isinstance(v, numbers.Integral):
            raise TypeError(f"configuration value of '{k}' must be an int, "
                            f"not {type(v).__name__}")
    return {k: int(v) for k, v in config.items()}
