#!/usr/bin/env bash
# README command 1: install what is missing, build, and run torchlint on the bundled example.
set -euo pipefail
cd "$(dirname "$0")/.."
bash tools/setup.sh
export CCACHE_BASEDIR="$PWD"  # cache hits across checkouts of the tree
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
ninja -C build torchlint torchlint-tidy-plugin
echo
echo "== build/bin/torchlint examples/train.cpp"
set +e
./build/bin/torchlint examples/train.cpp
rc=$?
set -e
echo "== exit code $rc (0 clean, 1 findings, 2 tool or input error, 3 both)"
[ "$rc" -eq 1 ]  # the example is meant to have findings
