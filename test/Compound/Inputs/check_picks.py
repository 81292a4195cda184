#!/usr/bin/env python3
"""compound.py's level_picks and choose_picks on hand-made picks: each
mode's pick is the one approx-tune certified (summary.json); a dynamic pick
is deployed only when it beats the static pick of its level by more than
the margin; otherwise the dynamic mode deploys the static pick."""
import os
import sys

root = sys.argv[1]
sys.path[:0] = [os.path.join(root, "benchmarks"), os.path.join(root, "benchmarks", "compound")]
from compound import choose_picks, level_picks  # noqa: E402


def point(speedup, name):
    return {"speedup": speedup, "config": {name: 1}}


def picks(*points):
    """Levels 3, 6, 9 get the given points (None: only exact certified)."""
    return dict(zip(("3", "6", "9"), points))


static = picks(point(2.00, "s1"), point(2.50, "s2"), point(2.50, "s2"))

# Within the margin at every level (2.05 <= 2.00 * 1.05, 2.60 <= 2.50 * 1.05):
# the dynamic mode deploys the static picks, marked as such.
near = picks(point(2.05, "d1"), point(2.60, "d2"), point(2.60, "d2"))
p = choose_picks({"static": static, "dynamic": near}, 0.05)
assert p[("dynamic", "3")] == dict(static["3"], pick="static"), p
assert p[("dynamic", "6")] == dict(static["6"], pick="static"), p
assert p[("static", "9")] == static["9"] and "pick" not in p[("static", "9")]
print("within the margin: the static pick")

# Beyond the margin at <= 3 % only (2.20 > 2.10); at <= 6 % the static 2.50
# beats the dynamic 2.20 itself.
far = picks(point(2.20, "d1"), point(2.20, "d1"), point(2.20, "d1"))
p = choose_picks({"static": static, "dynamic": far}, 0.05)
assert p[("dynamic", "3")]["config"] == {"d1": 1} and "pick" not in p[("dynamic", "3")]
assert p[("dynamic", "6")]["pick"] == "static" and p[("dynamic", "6")]["config"] == {"s2": 1}
print("beyond the margin: the dynamic pick")

# Margin 0: the faster one, ties to the static pick.
p = choose_picks({"static": static, "dynamic": near}, 0.0)
assert p[("dynamic", "3")]["config"] == {"d1": 1}
tie = picks(point(2.00, "d1"), None, None)
assert choose_picks({"static": static, "dynamic": tie}, 0.0)[("dynamic", "3")]["pick"] == "static"
print("margin 0: the faster, ties static")

# Nothing certified in the dynamic mode: the static pick; nothing in the
# static mode: the dynamic pick stands; neither: none (the exact build).
none = picks(None, None, None)
p = choose_picks({"static": static, "dynamic": none}, 0.05)
assert p[("dynamic", "9")]["pick"] == "static"
p = choose_picks({"static": none, "dynamic": far}, 0.05)
assert p[("static", "3")] is None and p[("dynamic", "3")]["config"] == {"d1": 1}
p = choose_picks({"static": none, "dynamic": none}, 0.05)
assert p[("static", "3")] is None and p[("dynamic", "3")] is None
print("missing picks handled")

# level_picks reads approx-tune's summary.json: the certified pick, with the
# speedup its certification measured; the exact one is no pick.
summary = {"picks": {"3": {"exact": True, "config": {}, "tuning": {}},
                     "6": {"exact": False, "config": {"k": 2},
                           "tuning": {"speedup": 3.0, "qos": 0.97}},
                     "9": {"exact": False, "config": {"k": 2},
                           "tuning": {"speedup": 3.0, "qos": 0.97}}},
           "certified": {l: {"speedup": 2.8, "loss_estimate": 0.01, "loss_upper": 0.05}
                         for l in ("3", "6", "9")}}
lp = level_picks(summary)
assert lp["3"] is None
assert lp["6"] == {"config": {"k": 2}, "speedup": 2.8, "tuning_speedup": 3.0, "qos": 0.97,
                   "loss_estimate": 0.01, "loss_upper": 0.05}, lp
print("certified picks read from summary.json")
