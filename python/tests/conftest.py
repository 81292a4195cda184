"""Shared fixtures of the approx_runtime tests: the repository, the build
tree's tools, and annotated inputs. Everything runs the real tools and
libraries (docs/python.md)."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
BUILD = Path(os.environ.get("APPROX_BUILD_DIR") or REPO / "build")
BIN = BUILD / "bin"


@pytest.fixture(scope="session")
def repo() -> Path:
    return REPO


@pytest.fixture(scope="session")
def tools() -> Path:
    if not (BIN / "approx-opt").exists():
        pytest.fail(f"the tools are not built in {BIN} (scripts/build.sh)")
    return BIN


@pytest.fixture(scope="session")
def integrate_mlir() -> str:
    """An annotated MLIR program: a loop_perforate decision tree with
    bounds and decision values."""
    return (REPO / "examples" / "integrate" / "integrate.mlir").read_text()


def run_python(code: str, *args, env=None, timeout=300, **kwargs):
    """Runs `code` in a fresh interpreter of this environment."""
    full = dict(os.environ)
    full.update(env or {})
    return subprocess.run([sys.executable, "-c", code, *args], env=full,
                          capture_output=True, text=True, timeout=timeout,
                          **kwargs)


def pytest_terminal_summary(terminalreporter):
    """One line scripts/test.sh counts."""
    stats = terminalreporter.stats
    failed = len(stats.get("failed", [])) + len(stats.get("error", []))
    terminalreporter.write_line(f"pytest-summary: {len(stats.get('passed', []))} "
                                f"passed, {failed} failed")
