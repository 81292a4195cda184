#!/usr/bin/env bash
# Installs what the build and the tests need: Debian 12's packages (LLVM/MLIR
# 22 from bookworm-security), then the ML stack (scripts/setup-ml.sh: a
# virtual environment with llama-cpp-python, and the model files). Idempotent
# and cached; needs root or sudo when a Debian package is missing.
set -euo pipefail

packages=(
  cmake ninja-build ccache mold g++ python3 python3-venv git
  llvm-22-dev llvm-22-tools libmlir-22-dev mlir-22-tools clang-22
  libclang-22-dev libclang-cpp22-dev
  libgtest-dev libsqlite3-dev libclang-rt-22-dev libomp-22-dev python3-dev
  libopenmpi-dev openmpi-bin bc
)

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done
root=$(cd "$(dirname "$0")/.." && pwd)
if [ ${#missing[@]} -eq 0 ]; then
  exec "$root/scripts/setup-ml.sh"
fi

sudo=""
if [ "$(id -u)" -ne 0 ]; then
  if ! command -v sudo >/dev/null; then
    echo "setup: missing packages (${missing[*]}) and not root; run as root" >&2
    exit 1
  fi
  sudo=sudo
fi
echo "setup: installing ${missing[*]}"
$sudo apt-get update -q
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q --no-install-recommends "${missing[@]}"
exec "$root/scripts/setup-ml.sh"
