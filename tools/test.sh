#!/usr/bin/env bash
# README command 2 (and .ci/run): install what is missing, build everything, run every test.
set -euo pipefail
cd "$(dirname "$0")/.."
bash tools/setup.sh
export CCACHE_BASEDIR="$PWD"  # cache hits across checkouts of the tree
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
ninja -C build
cd build
# Two tests at a time (TORCHLINT_TEST_JOBS): those that run two analysers themselves (corpus,
# corpus_fix, accel_equivalence: PROCESSORS 2) run alone.
ctest -j "${TORCHLINT_TEST_JOBS:-2}" --output-on-failure --timeout 2400 "$@"
