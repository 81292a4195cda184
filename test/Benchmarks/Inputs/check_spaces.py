"""Checks benchmarks/tuner/spaces.py's generated families: an instance is a
function of its family and seed; optimum() (branch and bound) equals the
optimum found by evaluating every configuration on tiny instances; every
family's instances have the shapes the family promises; writes each
family's first instance as MLIR for approx-tune to parse."""
import os
import sys

sys.path.insert(0, sys.argv[1])
import spaces  # noqa: E402

out = sys.argv[2]
for name, f in spaces.FAMILIES.items():
    shapes = set()
    for seed in range(1, 6):
        a, b = spaces.generate(name, seed), spaces.generate(name, seed)
        assert repr(a) == repr(b), (name, seed)
        assert f.knobs[0] <= len(a.knobs) <= f.knobs[1], (name, seed)
        assert f.qos_min[0] <= a.qos_min <= f.qos_min[1], (name, seed)
        for k in a.knobs:
            assert f.thresholds[0] <= k.thresholds <= f.thresholds[1]
            assert abs(sum(k.weights) - 1) < 1e-9 and k.values[0] == 0
        assert all(0 <= x < y < len(a.knobs) for x, y in a.pairs)
        shapes.add((len(a.knobs), len(a.parameters()), tuple(a.pairs)))
    assert len(shapes) > 1, f"{name}: five seeds gave one shape"
    assert repr(spaces.generate(name, 1)) != repr(spaces.generate(name, 2))
    first = spaces.generate(name, 1)
    with open(os.path.join(out, f"{name}.mlir"), "w") as fh:
        fh.write(first.mlir())
    with open(os.path.join(out, f"{name}.shape"), "w") as fh:
        fh.write(f"{len(first.knobs)} knobs, {len(first.parameters())} parameters\n")
    print(f"{name}: seeded, {len(shapes)} shapes in 5 seeds")
for seed in range(1, 9):
    s = spaces.generate("gen-tiny", seed)
    fast, slow = s.optimum(), s.enumerate_optimum()
    assert fast == slow, (seed, fast, slow)
    t, q = s.evaluate(s.exact_config())
    assert abs(t - 1) < 1e-12 and q == 1.0, (t, q)
print("gen-tiny: branch and bound = enumeration on 8 instances")
