#!/bin/sh
# Ground truth for the sync checks (issue 15): runs `torchlint trace` on programs built with -g
# against Debian's libtorch 1.13 (CPU) and puts torchlint's static findings beside the counted
# calls, per source line. Writes docs/accuracy-runtime/<program>.json; docs/accuracy-runtime.md
# summarises them. Needs build/bin/torchlint, build/bin/torchlint-probe and
# build/lib/libtorchlint-trace.so (ninja -C build torchlint torchlint-probe torchlint-trace).
#   sh tools/trace_accuracy.sh            (from the repository root; ~3 min on 2 cores)
set -eu
ROOT=$(pwd)
OUT=docs/accuracy-runtime
TMP=build/trace-accuracy
mkdir -p $OUT $TMP
TORCH_FLAGS="-std=c++17 -isystem /usr/include/torch/csrc/api/include"
TL=build/bin/torchlint

lint() { # lint OUT.json FILE [FLAGS...]: the sync checks' static findings (exit 1 = findings)
  out=$1; shift; file=$1; shift
  $TL --format=json --checks='-*,torch-sync-*,torch-non-blocking-copy' "$file" -- "$@" > "$out" || [ $? -eq 1 ]
}

# examples/train.cpp: the README's example program, as is.
c++ $TORCH_FLAGS -g -O1 examples/train.cpp -o $TMP/train -ltorch -ltorch_cpu -lc10
lint $TMP/train.findings.json examples/train.cpp $TORCH_FLAGS
python3 tools/torchlint_trace.py --findings $TMP/train.findings.json --json $OUT/examples-train.json -- $TMP/train

# The probe's seeds (runtime_probe/seeds/), run by the probe itself (-g1 build), each stage in
# turn; the harness's own files are not the user's lines.
PROBE_FLAGS="$TORCH_FLAGS -I runtime_probe"
for seed in seg-loss cnn-training; do
  lint $TMP/$seed.findings.json runtime_probe/seeds/$seed.cpp $PROBE_FLAGS
  python3 tools/torchlint_trace.py --findings $TMP/$seed.findings.json --json $OUT/seed-$seed.json \
    --exclude '^runtime_probe/(main|Measure|Counting|Registry|Report)\.cpp$' --exclude '^runtime_probe/probe/' \
    -- build/bin/torchlint-probe --device cpu --quick --cases $seed --json $TMP/$seed.probe.json
done
