"""Checks controller_tail's output on a frontier tuned on other inputs
(controller-percentile.test). Arguments: pairs of an output file and the
point the plant's real times allow at speed 1. In every phase at most 10 %
of the units missed and the point changed at most 4 times (6 in the first
phase, which starts on the most accurate point): no thrashing; the phases
at speed 1 ran mostly on that point."""
import os
import sys

args = sys.argv[1:]
for path, want in zip(args[::2], args[1::2]):
    name = os.path.splitext(os.path.basename(path))[0]
    phases = [line for line in open(path).read().splitlines() if line.startswith("phase ")]
    assert len(phases) == 3, phases
    used = []
    for phase, line in enumerate(phases):
        fields = line.replace(",", "").split()
        miss, most, changes = float(fields[6]), int(fields[9]), int(fields[14])
        assert miss <= 0.10 and changes <= (6 if phase == 0 else 4), line
        used.append(most)
    assert used[0] == used[2] == int(want), (path, used)
    print(f"{name}: no thrashing, point {want} at speed 1")
