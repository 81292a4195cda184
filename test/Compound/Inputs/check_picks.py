#!/usr/bin/env python3
"""compound.py's choose_picks on hand-made frontiers: a dynamic pick is
deployed only when it beats the static pick of its level on the tuning set
by more than the margin; otherwise the dynamic mode deploys the static pick."""
import os
import sys

root = sys.argv[1]
sys.path[:0] = [os.path.join(root, "benchmarks"), os.path.join(root, "benchmarks", "compound")]
from compound import choose_picks  # noqa: E402


def point(qos, speedup, name):
    return {"qos": qos, "speedup": speedup, "config": {name: 1}}


static = {"frontier": [point(1.0, 2.00, "s1"), point(0.95, 2.50, "s2")]}

# Within the margin at every level (2.05 <= 2.00 * 1.05, 2.60 <= 2.50 * 1.05):
# the dynamic mode deploys the static picks, marked as such.
near = {"frontier": [point(1.0, 2.05, "d1"), point(0.95, 2.60, "d2")]}
p = choose_picks({"static": static, "dynamic": near}, 0.05)
assert p[("dynamic", "3")] == dict(static["frontier"][0], pick="static"), p
assert p[("dynamic", "6")] == dict(static["frontier"][1], pick="static"), p
assert p[("static", "9")] == static["frontier"][1] and "pick" not in p[("static", "9")]
print("within the margin: the static pick")

# Beyond the margin at <= 3 % only (2.20 > 2.10); at <= 6 % the static 2.50
# beats the dynamic 2.20 itself.
far = {"frontier": [point(1.0, 2.20, "d1")]}
p = choose_picks({"static": static, "dynamic": far}, 0.05)
assert p[("dynamic", "3")]["config"] == {"d1": 1} and "pick" not in p[("dynamic", "3")]
assert p[("dynamic", "6")]["pick"] == "static" and p[("dynamic", "6")]["config"] == {"s2": 1}
print("beyond the margin: the dynamic pick")

# Margin 0: the faster one on the tuning set, ties to the static pick.
p = choose_picks({"static": static, "dynamic": near}, 0.0)
assert p[("dynamic", "3")]["config"] == {"d1": 1}
tie = {"frontier": [point(1.0, 2.00, "d1")]}
assert choose_picks({"static": static, "dynamic": tie}, 0.0)[("dynamic", "3")]["pick"] == "static"
print("margin 0: the faster, ties static")

# No dynamic point meets a level: the static pick; no static point meets it:
# the dynamic pick stands; neither: none.
lossy = {"frontier": [point(0.80, 4.0, "d9")]}
p = choose_picks({"static": static, "dynamic": lossy}, 0.05)
assert p[("dynamic", "9")]["pick"] == "static"
only_dynamic = {"frontier": [point(0.80, 4.0, "s9")]}
p = choose_picks({"static": only_dynamic, "dynamic": far}, 0.05)
assert p[("static", "3")] is None and p[("dynamic", "3")]["config"] == {"d1": 1}
p = choose_picks({"static": only_dynamic, "dynamic": lossy}, 0.05)
assert p[("static", "3")] is None and p[("dynamic", "3")] is None
print("missing picks handled")

# With validation QoS: a point is eligible only where it meets the level on
# the validation set too; a point not validated is not eligible. The fastest
# dynamic point (7 % loss on the validation set) fails it at <= 3 %, so the
# next one is deployed there (beyond the margin over the validated static
# pick); at <= 9 % it passes.
dyn = {"frontier": [point(1.0, 4.0, "d1"), point(1.0, 3.0, "d2")]}
validation = {'{"s1": 1}': 1.0, '{"s2": 1}': 0.80, '{"d1": 1}': 0.93, '{"d2": 1}': 0.99}
p = choose_picks({"static": static, "dynamic": dyn}, 0.05, validation)
assert p[("dynamic", "3")]["config"] == {"d2": 1}, p
assert p[("dynamic", "9")]["config"] == {"d1": 1}, p
assert p[("static", "6")]["config"] == {"s1": 1}, p  # s2 fails validation at <= 6 %
p = choose_picks({"static": static, "dynamic": dyn}, 0.05, {'{"d2": 1}': 1.0})
assert p[("static", "3")] is None and p[("dynamic", "9")]["config"] == {"d2": 1}, p
print("validation filters picks")
