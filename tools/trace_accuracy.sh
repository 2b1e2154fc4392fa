#!/bin/sh
# Ground truth for the sync checks (issue 15): runs `torchlint trace` on programs built with -g
# against Debian's libtorch 1.13 (CPU) and puts torchlint's static findings beside the counted
# calls, per source line. Writes docs/accuracy-runtime/<program>.json; docs/accuracy-runtime.md
# summarises them. Needs build/bin/torchlint, build/bin/torchlint-probe and
# build/lib/libtorchlint-trace.so (ninja -C build torchlint torchlint-probe torchlint-trace).
#   sh tools/trace_accuracy.sh            (from the repository root; ~2 min on 2 cores)
#   git clone https://github.com/pytorch/examples /tmp/pytorch-examples && git -C /tmp/pytorch-examples checkout 77f55b9
#   EXAMPLES=/tmp/pytorch-examples sh tools/trace_accuracy.sh    (adds pytorch/examples' cpp/regression)
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
if [ ! -x $TMP/train ] || [ examples/train.cpp -nt $TMP/train ]; then
  c++ $TORCH_FLAGS -g -O1 examples/train.cpp -o $TMP/train -ltorch -ltorch_cpu -lc10
fi
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

# Public programs: pytorch/examples' C++ regression (github.com/pytorch/examples, commit 77f55b9,
# unchanged; not copied into this repository): EXAMPLES=<a checkout of it>. (Its MNIST example
# needs the full 60000-image training set and trains 10 epochs: too long on this machine's CPU.)
if [ -n "${EXAMPLES:-}" ]; then
  for p in regression; do
    src=$EXAMPLES/cpp/$p/$p.cpp
    if [ ! -x $TMP/$p ] || [ $src -nt $TMP/$p ]; then
      c++ $TORCH_FLAGS -g -O1 $src -o $TMP/$p -ltorch -ltorch_cpu -lc10
    fi
    lint $TMP/$p.findings.json $src $TORCH_FLAGS
    (cd $TMP && python3 $ROOT/tools/torchlint_trace.py --root $(realpath $EXAMPLES) --findings $p.findings.json \
       --json $ROOT/$OUT/pytorch-examples-$p.json -- ./$p)
  done
fi

# docs/accuracy-runtime.md from the JSON files.
python3 - "$OUT" <<'PY'
import json, os, sys
out = sys.argv[1]
rows, progs = [], []

def source(file, line):
    try:
        return open(file).read().split("\n")[line - 1]
    except (OSError, IndexError):
        return ""

def why(r):
    """Why a line is runtime only or static only, from the line's code (empty: unexplained)."""
    code = source(r["file"], r["line"])
    rules = set(r["rules"])
    if r["verdict"] == "confirmed, outside the steps" and r["file"].startswith("runtime_probe/seeds/"):
        return (f"in the steps of the stages that have this line ({r['steps_seen']} steps): the probe runs "
                "the seed's stages in turn, so no stage has half of all steps")
    if r["verdict"] == "confirmed, outside the steps":
        return (f"the finding is in a loop that is not the training step (ran {r['count']} times in all): "
                "the check counts every loop as hot")
    if r["verdict"].startswith("confirmed"):
        return ""
    if r["verdict"] == "runtime only, outside the steps":
        return "set-up or per-epoch code: the checks report hot code only"
    if "backward()" in code and rules <= {"bool-index", "nonzero"}:
        return ("the backward of a boolean-mask index (IndexBackward runs index_put_ with the mask): "
                "reported at the forward's line")
    if "blocking copy" in rules and "non_blocking" in code:
        return ("non_blocking is chosen at run time (false in this stage): torch-non-blocking-copy "
                "stays quiet on a run-time choice by design")
    if "blocking copy" in rules and "->to(" in code:
        return "a module moved to the device (set-up, once per variant the probe builds)"
    return ""
for name in sorted(os.listdir(out)):
    if not name.endswith(".json"):
        continue
    d = json.load(open(os.path.join(out, name)))
    progs.append((name, d))
text = ["# Ground truth for the sync checks: `torchlint trace` against the static findings", "",
        "Generated by `sh tools/trace_accuracy.sh` (from the repository root, after",
        "`ninja -C build torchlint torchlint-probe torchlint-trace`); the JSON behind each table is in",
        "`docs/accuracy-runtime/`. Each program is built with `-g` against Debian's libtorch 1.13 (CPU) and run",
        "unchanged under `torchlint trace`, which counts, per source line, the operators that would synchronise",
        "the host with a CUDA device (the probe's list, docs/probe/README.md#what-is-counted) per step (one",
        "`backward()` call). Beside each line: the default sync checks' static findings",
        "(`torchlint --checks=-*,torch-sync-*,torch-non-blocking-copy`).", "",
        "Verdicts: **confirmed** (a static finding and a counted call), **static only** (a finding without a",
        "counted call: a false positive, or code that did not run), **runtime only** (a counted call without a",
        "finding: a miss), **runtime only, outside the steps** (ran in fewer than half of the steps: set-up,",
        "per-epoch evaluation; the checks report hot code only, on purpose). Every runtime-only or static-only line",
        "gets its reason in the last column, or **unexplained**; \", outside the steps\" marks a line that ran in fewer",
        "than half of the steps (a finding there is in an evaluation or logging loop). For the seeds, the probe runs each stage in turn",
        "(equivalence, warm-up, counted and timed steps); its harness (`runtime_probe/main.cpp`, built without",
        "`-g`) makes the calls listed as not attributed (its equivalence check's `item()` and `to(kCPU)`).", "",
        "On the CPU a `.to(device)` is no copy: a blocking `.to(device)`/`.cpu()` called by the program is counted",
        "as the copy (and sync) it is on CUDA (docs/probe/README.md, limits).", ""]
for name, d in progs:
    title = f"{d['program']} {' '.join(d['args'])}".rstrip()
    if name.startswith("pytorch-examples-"):
        p = name[len("pytorch-examples-"):-len(".json")]
        title = f"pytorch/examples `cpp/{p}/{p}.cpp` (github.com/pytorch/examples, commit 77f55b9, unchanged)"
    text += [f"## {title}", "",
             f"{d['steps']} steps ({d['step']}); {d['syncs']} counted calls in all; "
             f"{'complete' if d['complete'] else 'FAILED: ' + str(d['failure'])}. JSON: `{out}/{name}`.", "",
             "| source line | syncs/step | steps seen | rule | static finding | verdict | why |",
             "| --- | ---: | ---: | --- | --- | --- | --- |"]
    for r in d["lines"]:
        rules = ", ".join(f"{k} {v}" for k, v in sorted(r["rules"].items()))
        text.append(f"| `{r['file']}:{r['line']}` | {r['per_step']:.2f} | {r['steps_seen']} | {rules or '-'} | "
                    f"{', '.join(r['static']) or '-'} | {r['verdict']} | {why(r) or ('-' if r['verdict'].startswith('confirmed') else '**unexplained**')} |")
    if d.get("unattributed"):
        text.append("")
        text.append("Not attributed to a user source line: " +
                    ", ".join(f"{k} {v}" for k, v in sorted(d["unattributed"].items())))
    text.append("")
open("docs/accuracy-runtime.md", "w").write("\n".join(text))
print("wrote docs/accuracy-runtime.md")
PY
