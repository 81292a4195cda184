#!/usr/bin/env python3
"""Writes a C file of about N lines (default 500): many small functions with
loops, branches, structs and one annotated knob, plus a main that calls them
all. Used to measure approx-cc's compile time."""
import sys

lines_wanted = int(sys.argv[1]) if len(sys.argv) > 1 else 500
out = ["#include <stdio.h>", "#include <stdlib.h>", "",
       "struct acc { long sum; double mean; int n; };", ""]
funcs = []
i = 0
while len(out) < lines_wanted - 20:
    name = f"kernel{i}"
    funcs.append(name)
    if i == 0:
        out.append("// @approx:loop_perforate thresholds=[10] decisions=[0, 2]")
    out += [
        f"long {name}(const int *a, int n, int state) {{",
        "  struct acc acc = {0, 0.0, 0};",
        "  for (int i = 0; i < n; i++) {",
        f"    if (a[i] % {i % 7 + 2} == 0)",
        f"      acc.sum += a[i] * {i + 1};",
        "    else",
        "      acc.sum -= a[i];",
        "    acc.n++;",
        "  }",
        "  acc.mean = acc.n ? (double)acc.sum / acc.n : 0;",
        "  return acc.sum + (long)acc.mean;",
        "}",
        "",
    ]
    i += 1
out += ["int main(void) {",
        "  int a[100];",
        "  for (int i = 0; i < 100; i++) a[i] = i * 13 % 97;",
        "  long total = 0;"]
out += [f"  total += {f}(a, 100, 0);" for f in funcs]
out += ['  printf("%ld\\n", total);', "  return 0;", "}"]
print("\n".join(out))
