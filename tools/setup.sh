#!/usr/bin/env bash
# Installs everything torchlint's build and tests need, idempotently, on Debian 12 (as root):
# Debian packages, and libtorch 2.x headers extracted from PyPI's torch wheel into .deps/libtorch-2
# (headers and CMake config only: the analyzer needs no libtorch binaries; the runtime probe
# links Debian's libtorch-dev 1.13, CPU).
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
TORCH_WHEEL_VERSION=${TORCHLINT_TORCH_VERSION:-2.15.0}
PKGS="cmake ninja-build g++ ccache git python3 python3-pip unzip clang-19 clang-tidy-19 clang-tools-19
      libclang-19-dev llvm-19-dev libclang-cpp19-dev libfmt-dev libtorch-dev libgtest-dev libgmock-dev
      libbenchmark-dev python3-jsonschema neovim
      zlib1g-dev libzstd-dev dpkg-dev debootstrap"

missing=""
for p in $PKGS; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
if [ -n "$missing" ]; then
  echo "setup: installing Debian packages:$missing"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -q >/dev/null
  apt-get install -y -q --no-install-recommends $missing >/dev/null
fi

# libtorch 2.x headers from the torch wheel (about 540 MB download, cached in ~/.cache/torchlint).
DEST="$ROOT/.deps/libtorch-2"
if [ ! -f "$DEST/include/torch/csrc/api/include/torch/torch.h" ] || [ "$(cat "$DEST/VERSION" 2>/dev/null)" != "$TORCH_WHEEL_VERSION" ]; then
  CACHE="${XDG_CACHE_HOME:-$HOME/.cache}/torchlint/wheels"
  mkdir -p "$CACHE"
  WHEEL=$(ls "$CACHE"/torch-"$TORCH_WHEEL_VERSION"-*.whl 2>/dev/null | head -1 || true)
  if [ -z "$WHEEL" ]; then
    echo "setup: downloading torch==$TORCH_WHEEL_VERSION (wheel only, no dependencies) for its headers"
    PIP="python3 -m pip"
    $PIP download --no-deps --only-binary=:all: -q -d "$CACHE" "torch==$TORCH_WHEEL_VERSION" \
      || $PIP download --no-deps --only-binary=:all: -q --break-system-packages -d "$CACHE" "torch==$TORCH_WHEEL_VERSION"
    WHEEL=$(ls "$CACHE"/torch-"$TORCH_WHEEL_VERSION"-*.whl | head -1)
  fi
  rm -rf "$DEST.tmp" && mkdir -p "$DEST.tmp"
  unzip -q -o "$WHEEL" 'torch/include/*' 'torch/share/cmake/*' -d "$DEST.tmp"
  rm -rf "$DEST" && mv "$DEST.tmp/torch" "$DEST" && rm -rf "$DEST.tmp"
  echo "$TORCH_WHEEL_VERSION" > "$DEST/VERSION"
  echo "setup: libtorch $TORCH_WHEEL_VERSION headers in $DEST"
fi

# Extras for the report tests: headless Chromium (reports.browser) and pre-commit
# (reports.pre_commit). About 45 s and 372 MB on a fresh machine; idempotent.
bash "$ROOT/tools/setup-reports.sh"
