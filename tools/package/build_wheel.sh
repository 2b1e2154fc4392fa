#!/usr/bin/env bash
# One command for the pip wheel: builds the static torchlint (build_static.sh), installs it into a
# staging folder and packs dist/torchlint-<version>-py3-none-manylinux_2_<N>_x86_64.whl.
#   bash tools/package/build_wheel.sh [OUT_DIR]     (default dist/)
set -euo pipefail
cd "$(dirname "$0")/../.."
OUT=${1:-dist}
B=$(bash tools/package/build_static.sh)
STAGE=$(mktemp -d)
trap 'rm -rf "$STAGE"' EXIT
cmake --install "$B" --prefix "$STAGE" --component torchlint --strip >/dev/null
python3 tools/package/make_wheel.py --prefix "$STAGE" --out "$OUT"
