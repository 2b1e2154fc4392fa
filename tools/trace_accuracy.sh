#!/bin/sh
# Ground truth for the sync checks (issue 15): runs `torchlint trace` on programs built with -g
# against Debian's libtorch 1.13 (CPU) and puts torchlint's static findings beside the counted
# calls, per source line. Writes docs/accuracy-runtime/<program>.json; docs/accuracy-runtime.md
# summarises them. Needs build/bin/torchlint, build/bin/torchlint-probe and
# build/lib/libtorchlint-trace.so (ninja -C build torchlint torchlint-probe torchlint-trace).
#   sh tools/trace_accuracy.sh            (from the repository root; ~2 min on 2 cores)
#   MIRROR=/work/.mirror sh tools/trace_accuracy.sh   (adds public programs from git mirrors, below)
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

# Public programs from git mirrors (MIRROR=<folder of bare repositories, one per owner+name/repo>,
# as /work/.mirror): laid out into build/trace-accuracy/src/ at a pinned commit, unchanged (never
# copied into this repository), built with -g -O1, linted and traced. Synthetic data
# (tools/make_synthetic_data.py) stands in for the data sets they download; --max-steps cuts the
# programs that train for long. Each runs in build/trace-accuracy/run/<name>/x/cwd, where its
# relative data path ("./data", "../../../../data/mnist/") finds build/trace-accuracy/data.
#   MIRROR=/work/.mirror sh tools/trace_accuracy.sh     (adds 7 programs; ~25 min on 2 cores)
if [ -n "${MIRROR:-}" ]; then
  python3 tools/make_synthetic_data.py $TMP/data
  # torch/torch.h precompiled once with the programs' flags (gcc finds pch/torch/torch.h.gch first):
  # ~25 s a program instead of ~90 s here.
  if [ ! -f $TMP/pch/torch/torch.h.gch ]; then
    mkdir -p $TMP/pch/torch
    c++ $TORCH_FLAGS -g -O1 -x c++-header /usr/include/torch/csrc/api/include/torch/torch.h -o $TMP/pch/torch/torch.h.gch
  fi
  # (a second #include <torch/torch.h>, from a program's own header, finds the header itself here)
  ln -sf /usr/include/torch/csrc/api/include/torch/torch.h $TMP/pch/torch/torch.h
  # public NAME REPO COMMIT DIR MAXSTEPS FILE...: DIR is the program's folder in the repository
  # (its include/ is on the include path); MAXSTEPS 0 runs the program to its end.
  public() {
    name=$1 repo=$2 commit=$3 dir=$4 max=$5; shift 5
    git_dir=$MIRROR/$(echo $repo | tr / +)/repo
    src=$TMP/src/$name
    mkdir -p $src
    srcs=""
    for f in "$@"; do
      mkdir -p $src/$(dirname $f)
      git -C $git_dir show $commit:$f > $src/$f.new
      if cmp -s $src/$f.new $src/$f; then rm $src/$f.new; else mv $src/$f.new $src/$f; fi
      case $f in *.cpp) srcs="$srcs $src/$f";; esac
    done
    flags="$TORCH_FLAGS -I $src/$dir/include"
    if [ ! -x $TMP/$name ] || [ -n "$(find $src -newer $TMP/$name -type f)" ]; then
      c++ -I $TMP/pch $flags -g -O1 $srcs -o $TMP/$name -ltorch -ltorch_cpu -lc10
    fi
    $TL --format=json --checks='-*,torch-sync-*,torch-non-blocking-copy' --header-filter="$(realpath $src)/.*" \
      $srcs -- $flags > $TMP/$name.findings.json || [ $? -eq 1 ]
    run=$TMP/run/$name/x/cwd
    mkdir -p $run/output
    ln -sfn $ROOT/$TMP/data/mnist $run/data
    steps=""
    [ "$max" -gt 0 ] && steps="--max-steps $max"
    (cd $run && python3 $ROOT/tools/torchlint_trace.py --root $(realpath $ROOT/$src) $steps \
       --findings $ROOT/$TMP/$name.findings.json --json $ROOT/$OUT/$name.json -- $ROOT/$TMP/$name > $ROOT/$TMP/$name.trace.log)
    python3 - "$ROOT/$OUT/$name.json" "$repo" "$commit" "$dir" "$*" <<'PY'
import json, sys
p, repo, commit, d, files = sys.argv[1:]
j = json.load(open(p))
j.update(program="build/trace-accuracy/" + p.rsplit("/", 1)[1][:-len(".json")],
         repository=repo, commit=commit, folder=d, files=files.split())
json.dump(j, open(p, "w"), indent=1)
open(p, "a").write("\n")
PY
  }
  EX="pytorch/examples 77f55b912142e11fcfdf5b530231fb9c52f181e8"
  PC="prabhuomkar/pytorch-cpp 4c4d060f94f4b06cf2ce8cf43fa48b320e319507"
  T=tutorials
  public pytorch-examples-regression $EX cpp/regression 0 cpp/regression/regression.cpp
  public pytorch-examples-mnist $EX cpp/mnist 200 cpp/mnist/mnist.cpp
  public pytorch-cpp-linear-regression $PC $T/basics/linear_regression 0 $T/basics/linear_regression/main.cpp
  public pytorch-cpp-logistic-regression $PC $T/basics/logistic_regression 0 $T/basics/logistic_regression/main.cpp
  d=$T/basics/feedforward_neural_network
  public pytorch-cpp-feedforward $PC $d 200 $d/src/main.cpp $d/src/neural_net.cpp $d/include/neural_net.h
  d=$T/intermediate/recurrent_neural_network
  public pytorch-cpp-rnn $PC $d 100 $d/src/main.cpp $d/src/rnn.cpp $d/include/rnn.h
  d=$T/intermediate/language_model
  public pytorch-cpp-language-model $PC $d 0 $d/src/main.cpp $d/src/corpus.cpp $d/src/dictionary.cpp \
    $d/src/rnn_lm.cpp $d/include/corpus.h $d/include/dictionary.h $d/include/rnn_lm.h
fi

# docs/accuracy-runtime.md from the JSON files.
python3 - "$OUT" <<'PY'
import json, os, sys
out = sys.argv[1]
rows, progs = [], []
# Reviewed reasons for the lines that the rules in why() cannot explain from the code alone:
# {program JSON name: {"file:line": reason}}, each checked against the program's source.
reviewed = json.load(open(os.path.join(out, "reviewed.json")))

def source(file, line, d):
    base = f"build/trace-accuracy/src/{d['program'].rsplit('/', 1)[1]}/" if "repository" in d else ""
    try:
        return open(base + file).read().split("\n")[line - 1]
    except (OSError, IndexError):
        return ""

def why(r, d, name):
    """Why a line is runtime only or static only, from the line's code (empty: unexplained)."""
    code = source(r["file"], r["line"], d)
    rules = set(r["rules"])
    note = reviewed.get(name, {}).get(f"{r['file']}:{r['line']}")
    if note:
        return note
    if r["verdict"] == "confirmed, outside the steps" and r["file"].startswith("runtime_probe/seeds/"):
        return (f"in the steps of the stages that have this line ({r['steps_seen']} steps): the probe runs "
                "the seed's stages in turn, so no stage has half of all steps")
    if r["verdict"] == "confirmed, outside the steps" and r.get("static_levels") == ["remark"]:
        return (f"a remark, not a warning: the check sees the rare path (a logging branch; ran in "
                f"{r['steps_seen']} of {d['steps']} steps)")
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
    if not name.endswith(".json") or name == "reviewed.json":
        continue
    d = json.load(open(os.path.join(out, name)))
    progs.append((name, d))
text = ["# Ground truth for the sync checks: `torchlint trace` against the static findings", "",
        "Generated by `MIRROR=/work/.mirror sh tools/trace_accuracy.sh` (from the repository root, after",
        "`ninja -C build torchlint torchlint-probe torchlint-trace`; `MIRROR` is a folder of bare git",
        "repositories, `<owner>+<name>/repo`, holding the public programs' pinned commits); the JSON behind",
        "each table is in `docs/accuracy-runtime/`. Each program is built with `-g` against Debian's libtorch",
        "1.13 (CPU) and run unchanged under `torchlint trace`, which counts, per source line, the operators that would synchronise",
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
        "as the copy (and sync) it is on CUDA (docs/probe/README.md, limits).", "",
        "The public programs (pytorch/examples, prabhuomkar/pytorch-cpp) are laid out from the mirror at the",
        "commit named in each title, unchanged and not copied into this repository, into",
        "`build/trace-accuracy/src/<program>/`, which is the root of the paths in their tables. They read",
        "synthetic data in place of the data sets they download (`tools/make_synthetic_data.py`: MNIST idx files of",
        "the sizes libtorch's reader requires, 60000 + 10000 images of random pixels and labels; a random text for",
        "the language model). Those that train for long are cut with `torchlint trace --max-steps N`: the code",
        "after their training loop did not run, and a finding there is static only. The reasons that the",
        "script's rules cannot give from a line's code alone were judged by reading the program, and are in",
        "`docs/accuracy-runtime/reviewed.json`.", "",
        "Not included yet: pytorch/examples `cpp/dcgan` (it needs p-ranav's argparse header, which Debian does",
        "not package; its three backward() calls per batch would also make each batch three steps),",
        "AidanShipperley/PPO-LibTorch and laplaceliu/build-your-own-llm-using-cpp-and-libtorch (not tried: time).", ""]
for name, d in progs:
    title = f"{d['program']} {' '.join(d['args'])}".rstrip()
    if "repository" in d:
        files = ", ".join(f"`{f}`" for f in d["files"] if f.endswith(".cpp"))
        title = f"{d['repository']} {files} (github.com/{d['repository']}, commit {d['commit'][:7]}, unchanged)"
    text += [f"## {title}", "",
             f"{d['steps']} steps ({d['step']}); {d['syncs']} counted calls in all; "
             f"{'complete' if d['complete'] else 'FAILED: ' + str(d['failure'])}"
             f"{'; cut at ' + str(d['cut_at_steps']) + ' steps (--max-steps: the code after the training loop did not run)' if d.get('cut_at_steps') else ''}"
             f". JSON: `{out}/{name}`.", "",
             "| source line | syncs/step | steps seen | rule | static finding | verdict | why |",
             "| --- | ---: | ---: | --- | --- | --- | --- |"]
    for r in d["lines"]:
        rules = ", ".join(f"{k} {v}" for k, v in sorted(r["rules"].items()))
        text.append(f"| `{r['file']}:{r['line']}` | {r['per_step']:.2f} | {r['steps_seen']} | {rules or '-'} | "
                    f"{', '.join(r['static']) or '-'} | {r['verdict']} | {why(r, d, name) or ('-' if r['verdict'].startswith('confirmed') else '**unexplained**')} |")
    if d.get("unattributed"):
        text.append("")
        text.append("Not attributed to a user source line: " +
                    ", ".join(f"{k} {v}" for k, v in sorted(d["unattributed"].items())))
    text.append("")
open("docs/accuracy-runtime.md", "w").write("\n".join(text))
print("wrote docs/accuracy-runtime.md")
PY
