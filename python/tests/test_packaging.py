"""The package as pip builds it: a wheel built from the repository over the
CMake build (scikit-build-core), installed apart from the repository, works
on its own; the editable install is the one this suite imports."""

import os
import subprocess
import sys
import zipfile
from pathlib import Path

import approx_runtime as ar
from conftest import BUILD, REPO


def test_editable_install_is_the_source_tree():
    assert Path(ar.__file__).resolve().parent == REPO / "python" / "approx_runtime"


def test_environment_is_this_checkouts_own():
    """Each checkout imports its own approx_runtime: it is installed in the
    checkout's environment (build/venv), over the ML stack's environment
    shared by every checkout on the machine, which holds none (an editable
    install there was the last checkout built's, for all of them)."""
    assert Path(sys.prefix).resolve() == (BUILD / "venv").resolve()
    shared = os.environ.get("APPROX_SHARED_VENV") or subprocess.run(
        ["bash", "-c", f"source {REPO}/scripts/paths.sh && echo $APPROX_SHARED_VENV"],
        capture_output=True, text=True, check=True).stdout.strip()
    site = Path(shared) / "lib" / "python3.11" / "site-packages"
    assert site.is_dir() and str(site) in sys.path
    assert not list(site.glob("approx_runtime*")) and not list(site.glob("*approx_runtime*.pth"))
    # An APPROX_VENV inherited from another checkout's scripts is not this
    # checkout's environment (a build here once installed into that one).
    env = dict(os.environ, APPROX_VENV="/elsewhere/build/venv")
    venv = subprocess.run(["bash", "-c", f"source {REPO}/scripts/paths.sh && echo $APPROX_VENV"],
                          capture_output=True, text=True, check=True, env=env).stdout.strip()
    assert Path(venv).resolve() == (BUILD / "venv").resolve()


def test_wheel(tmp_path):
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--disable-pip-version-check",
                    "-q", "--no-build-isolation", "--no-deps", str(REPO), "-w",
                    str(tmp_path / "dist"), f"--config-settings=build-dir={BUILD}"],
                   check=True, capture_output=True, text=True)
    wheels = list((tmp_path / "dist").glob("approx_runtime-*.whl"))
    assert len(wheels) == 1
    names = zipfile.ZipFile(wheels[0]).namelist()
    assert any(n.startswith("approx_runtime/_core") and n.endswith(".so") for n in names)
    assert "approx_runtime/tuning.py" in names and "approx_ml/export.py" in names
    assert not [n for n in names if "__pycache__" in n or n.startswith("tests/")]

    site = tmp_path / "site"
    subprocess.run([sys.executable, "-m", "pip", "install", "--disable-pip-version-check",
                    "-q", "--no-deps", "--target", str(site), str(wheels[0])],
                   check=True, capture_output=True, text=True)
    # Debian's Python, no project environment, away from the repository.
    env = {"PATH": os.environ["PATH"], "PYTHONPATH": str(site), "HOME": str(tmp_path)}
    # The sanitized test run's runtime and options (scripts/test-sanitized.sh).
    env.update({k: v for k, v in os.environ.items()
                if k in ("LD_PRELOAD", "ASAN_OPTIONS", "UBSAN_OPTIONS")})
    code = ("import approx_runtime as ar; print(ar.__file__); "
            "print(sorted(ar.MLIRConfigManager().parse_annotations(open(%r).read())))"
            % str(REPO / "examples" / "integrate" / "integrate.mlir"))
    p = subprocess.run(["/usr/bin/python3", "-c", code], env=env, cwd=tmp_path,
                       capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    assert p.stdout.startswith(str(site))
    assert "integrate_threshold_0" in p.stdout
