#!/bin/sh
# The fix-it cases' afters for a probe build against libtorch 2.x (the torch wheel): torchlint
# --fix run here (where torchlint is built) with the bundled libtorch 2.x headers, as the probe's
# own build would run it against the wheel's headers (runtime_probe/RunFixit.cmake). The 2.x
# headers matter: a case may branch on TORCH_VERSION_MAJOR (torch-zero-grad-set-to-none does),
# and the fix rewrites the branch the headers select. Writes $FIXITS/<check>.cpp (build-gpu-fixit/).
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
TL=${TORCHLINT:-$ROOT/build/bin/torchlint}
T2=${TORCH2:-$ROOT/.deps/libtorch-2/include}
FIXITS=${FIXITS:-$ROOT/build-gpu-fixit}
FLAGS="-std=c++20|-fpch-instantiate-templates|-I$ROOT/runtime_probe|-isystem|$T2|-isystem|$T2/torch/csrc/api/include"
rc=0
for f in $(grep -l '^PROBE_FIXIT_CASE(' "$ROOT"/runtime_probe/cases/*.cpp); do
  c=$(basename "$f" .cpp)
  cmake -DTORCHLINT="$TL" -DIN="$f" -DOUT="$FIXITS/$c.cpp" -DCHECK="$c" "-DFLAGS=$FLAGS" \
        -P "$ROOT/runtime_probe/RunFixit.cmake" && echo "ok $c" || { echo "FAILED $c"; rc=1; }
done
exit $rc
