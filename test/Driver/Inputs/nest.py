"""Writes MLIR nested N levels deep: regions (valid IR) or array attributes."""
import sys

kind, n, path = sys.argv[1], int(sys.argv[2]), sys.argv[3]
if kind == "regions":
    lines = ["func.func @f() {"]
    lines += ["scf.execute_region {"] * n + ["scf.yield"]
    for i in range(n):
        lines += ["}", "scf.yield" if i < n - 1 else "return"]
    text = "\n".join(lines + ["}"]) + "\n"
else:
    text = ("func.func @g() -> i32 {\n  %0 = arith.constant {a = " + "[" * n +
            "]" * n + "} 1 : i32\n  return %0 : i32\n}\n")
with open(path, "w") as f:
    f.write(text)
