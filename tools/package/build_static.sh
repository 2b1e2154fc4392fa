#!/usr/bin/env bash
# Configures (once) and builds the self-contained torchlint (TORCHLINT_STATIC=ON) that the wheel and
# the .deb carry. Build folder: $TORCHLINT_PACKAGE_BUILD (default build-static). Prints its path.
set -euo pipefail
cd "$(dirname "$0")/../.."
B=${TORCHLINT_PACKAGE_BUILD:-build-static}
export CCACHE_BASEDIR=${CCACHE_BASEDIR:-$PWD}
if [ ! -f "$B/CMakeCache.txt" ]; then
  cmake -S . -B "$B" -G Ninja -DCMAKE_BUILD_TYPE=Release -DTORCHLINT_STATIC=ON \
        -DTORCHLINT_BUILD_PROBE=OFF -DTORCHLINT_BUILD_TESTS=OFF >&2
fi
grep -q '^TORCHLINT_STATIC:BOOL=ON' "$B/CMakeCache.txt" \
  || { echo "build_static: $B is not a TORCHLINT_STATIC=ON build" >&2; exit 2; }
cmake --build "$B" --target torchlint >&2
bash tools/package/check_binary.sh "$B/bin/torchlint" >&2
echo "$B"
