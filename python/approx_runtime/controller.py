"""Runtime adaptation from Python (docs/runtime.md): the controller of
runtime/include/approx_controller.h, which holds a latency goal per unit of
work by moving a program among the points of its tuned frontier (approx-tune's
pareto.csv), with the optional drift monitor.

The program is a runtime-table build (`approx-cc --approx-runtime-table`)
loaded in this process (``library=ctypes.CDLL(...)``: its own runtime's
``approx_rt_set`` receives each point), or anything else that takes a
configuration (``set_param=callable(name, value)``); with neither, the
configuration of each unit is only handed to the caller::

    ctl = Controller("pareto.csv", target_seconds=0.05, library=lib)
    for item in stream:
        with ctl.unit() as unit:          # sets the point, times the unit
            out = lib.work(item)
        if ctl.shadow_due():              # the drift monitor, when max_loss > 0
            with ctl.shadow() as shadow:  # sets the exact configuration
                shadow.loss = loss(out, lib.work(item))
"""

import ctypes
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Callable, Dict, Iterator, Optional

from . import _core


@dataclass
class Unit:
    """One unit of work: the frontier point it runs on (0 the fastest),
    that point's configuration, and, once the unit ended, whether it missed
    the target."""
    point: int
    config: Dict[str, int]
    missed: Optional[bool] = None


@dataclass
class Shadow:
    """A shadow run of the unit just ended with the exact configuration:
    set `loss` (the unit's QoS loss against the exact output, in [0, 1])
    before the block ends; `alarm` then says whether it raised one."""
    config: Dict[str, int]
    loss: Optional[float] = None
    alarm: Optional[bool] = field(default=None)


def _setter(library, set_param) -> Optional[Callable[[str, int], None]]:
    if library is not None and set_param is not None:
        raise ValueError("give library= or set_param=, not both")
    if set_param is not None:
        return set_param
    if library is None:
        return None
    try:
        fn = library.approx_rt_set
    except AttributeError:
        raise ValueError(
            f"{getattr(library, '_name', library)}: no approx_rt_set: not a "
            "runtime-table build (approx-cc --approx-runtime-table)") from None
    fn.argtypes = [ctypes.c_char_p, ctypes.c_int32]
    fn.restype = ctypes.c_int
    return lambda name, value: fn(name.encode(), value)


class Controller:
    """The runtime controller (approx_controller.h) over `frontier`, a
    pareto.csv, holding `target_seconds` per unit. The goal's fields and
    their defaults are the C API's: `margin`, `hold_units`, `smoothing`,
    `percentile` (the fraction of units to meet the target; 0: the typical
    unit); the drift monitor is on when `max_loss` > 0 (`shadow_fraction`,
    `drift_delta`, `shadow_seed`, `screen`: every unit observed, with the
    ones `clear()` vouches for free and a `shadow_fraction` of the others
    shadowed; `drift_horizon` N > 0: a change detector, its false alarms
    bounded by `drift_delta` within N observations). Bad frontiers and
    goals raise ValueError with the file and line."""

    def __init__(self, frontier, target_seconds: float, *, library=None,
                 set_param: Optional[Callable[[str, int], None]] = None,
                 **goal):
        self._set = _setter(library, set_param)
        self._ctl = _core.Controller(str(frontier), target_seconds, **goal)
        self.params = list(self._ctl.params())

    @property
    def num_points(self) -> int:
        return self._ctl.num_points

    @property
    def point(self) -> int:
        """The point the next unit runs on (0 the fastest)."""
        return self._ctl.point

    def config(self, point: int) -> Dict[str, int]:
        """The configuration of a frontier point."""
        return dict(zip(self.params, self._ctl.values(point)))

    def qos(self, point: int) -> float:
        return self._ctl.qos(point)

    def relative_time(self, point: int) -> float:
        """The point's frontier time over the most accurate point's."""
        return self._ctl.relative_time(point)

    def model_time(self, point: int) -> float:
        """The controller's model of that ratio: under a percentile goal
        corrected by the units seen on the point, else the same."""
        return self._ctl.model_time(point)

    def _apply(self, config: Dict[str, int]) -> None:
        if self._set is not None:
            for name, value in config.items():
                self._set(name, value)

    @contextmanager
    def unit(self, seconds: Optional[float] = None) -> Iterator[Unit]:
        """One unit of work: sets the current point, times the block and
        chooses the next point. With `seconds`, that duration is used
        instead of the block's (simulations)."""
        p = self._ctl.begin()
        unit = Unit(p, self.config(p))
        self._apply(unit.config)
        yield unit
        unit.missed = (self._ctl.end() if seconds is None
                       else self._ctl.end_with(seconds))

    def clear(self) -> None:
        """Screening: the unit just ended is known to have the exact
        configuration's output (a free, sound check), so it is not
        shadowed and the drift test observes its loss, 0."""
        self._ctl.clear()

    def shadow_due(self) -> bool:
        """Whether the unit just ended is to be run again exactly."""
        return self._ctl.shadow_due()

    @contextmanager
    def shadow(self) -> Iterator[Shadow]:
        """The shadow run of the unit just ended: sets the exact
        configuration; the block sets `loss`."""
        self._ctl.begin_exact()
        s = Shadow(dict(zip(self.params, self._ctl.exact_values())))
        self._apply(s.config)
        yield s
        if s.loss is None:
            raise ValueError("a shadow run ended without its loss "
                             "(set shadow.loss in the block)")
        s.alarm = self._ctl.end_exact(s.loss)

    # The C API's counters (approx_controller.h).
    units = property(lambda self: self._ctl.units, doc="units so far")
    misses = property(lambda self: self._ctl.misses,
                      doc="units that missed the target")
    base_seconds = property(lambda self: self._ctl.base_seconds,
                            doc="the model's time of a unit at the most "
                            "accurate point")
    tail_factor = property(lambda self: self._ctl.tail_factor,
                           doc="the percentile goal's factor on a point's "
                           "predicted time (1 without one)")
    floor = property(lambda self: self._ctl.floor,
                     doc="the least accurate point still in use")
    drift_alarms = property(lambda self: self._ctl.drift_alarms)
    drift_wealth = property(lambda self: self._ctl.drift_wealth,
                            doc="the drift test's wealth (alarm at "
                            "1 / drift_delta; as a change detector, at "
                            "drift_horizon / drift_delta)")
    shadow_units = property(lambda self: self._ctl.shadow_units)
    shadow_seconds = property(lambda self: self._ctl.shadow_seconds,
                              doc="the shadow runs' total time: the "
                              "monitor's overhead")
