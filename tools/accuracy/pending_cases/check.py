#!/usr/bin/env python3
"""Runs the pending corpus cases (tools/accuracy/pending_cases/<check>/) through the torchlint CLI and says,
for each, whether today's torchlint reports exactly what the case expects.

A pending case is written like a corpus case (test_corpus/<check>/*.cpp: `// CHECK-MESSAGES: :[[@LINE-1]]:COL:
warning: ... [check]` lines), but the corpus harness has no expected-failure mechanism and the case fails
today: it waits here for the check (or the whole-project model of issue 23) to learn the pattern. A case
made of several translation units is a folder `<check>/<case>/` holding them (every .cpp of the folder is
one TU of the project; the expectations sit in any of them); it runs with a compile database listing all
of them, passed with -p (whole-project mode).

    python3 tools/accuracy/pending_cases/check.py --torchlint build/bin/torchlint [--version 1|2] [names...]

Exit 0 always (a report): "PASSES" means the case can move to test_corpus/<check>/ (single-file cases) or
into the multi-file corpus once there is one; "fails" lists what is missing or unexpected.
"""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
MSG = re.compile(r"//\s*CHECK-MESSAGES:\s*:(?:\[\[@LINE([+-]\d+)?\]\]|(\d+)):(\d+):\s*(warning|remark|note|error):\s*(.*?)\s*\[([A-Za-z0-9.-]+)\]\s*$")


def flags(version):
    if version == 1:
        return ["-x", "c++", "-std=c++17", "-isystem", "/usr/include/torch/csrc/api/include"]
    t2 = os.path.join(ROOT, ".deps", "libtorch-2", "include")
    return ["-x", "c++", "-std=c++20", "-isystem", t2, "-isystem", os.path.join(t2, "torch", "csrc", "api", "include")]


def expectations(path):
    out = set()
    for n, line in enumerate(open(path), 1):
        m = MSG.search(line)
        if m:
            ln = int(m.group(2)) if m.group(2) else n + int(m.group(1) or 0)
            out.add((os.path.realpath(path), ln, m.group(6), m.group(5)))
    return out


def run(torchlint, check, tus, version, tmp):
    out = os.path.join(tmp, "out.json")
    base = [torchlint, "--format=json", "--output=" + out, "--no-cache", "-j", "1", "--checks=-*," + check]
    if len(tus) == 1:
        cmd = base + tus + ["--"] + flags(version)
    else:
        db = [{"directory": os.path.dirname(tus[0]), "file": t,
               "arguments": ["/usr/bin/c++"] + [f for f in flags(version) if f not in ("-x", "c++")] + ["-c", t]} for t in tus]
        with open(os.path.join(tmp, "compile_commands.json"), "w") as f:
            json.dump(db, f)
        cmd = base + ["-p", tmp] + tus
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if not os.path.exists(out):
        return None, p.stderr[-500:]
    data = json.load(open(out))
    got = {(os.path.realpath(x["file"]), x["line"], x["check"]) for x in data.get("findings", []) if x["check"] == check}
    return got, "; ".join(data.get("errors", []))[:300]


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--torchlint", default=os.path.join(ROOT, "build", "bin", "torchlint"))
    ap.add_argument("--version", type=int, default=1, choices=(1, 2))
    ap.add_argument("names", nargs="*", help="case names (default: all)")
    a = ap.parse_args()
    tl = os.path.abspath(a.torchlint)
    npass = nfail = 0
    for check in sorted(os.listdir(HERE)):
        d = os.path.join(HERE, check)
        if not (os.path.isdir(d) and check.startswith("torch-")):
            continue
        for name in sorted(os.listdir(d)):
            p = os.path.join(d, name)
            stem = name[:-4] if name.endswith(".cpp") else name
            if a.names and stem not in a.names:
                continue
            if os.path.isdir(p):
                tus = sorted(os.path.join(p, f) for f in os.listdir(p) if f.endswith(".cpp"))
            elif name.endswith(".cpp"):
                tus = [p]
            else:
                continue
            want = set()
            for f in os.listdir(p) if os.path.isdir(p) else []:
                if f.endswith((".cpp", ".h", ".hpp")):
                    want |= expectations(os.path.join(p, f))
            if not os.path.isdir(p):
                want = expectations(p)
            with tempfile.TemporaryDirectory() as tmp:
                got, errs = run(tl, check, tus, a.version, tmp)
            if got is None:
                print("%-28s %-40s torchlint failed: %s" % (check, stem, errs))
                nfail += 1
                continue
            w = {(f, l, c) for f, l, c, _ in want}
            missing, extra = w - got, got - w
            if not missing and not extra:
                print("%-28s %-40s PASSES (can move to the corpus)" % (check, stem))
                npass += 1
            else:
                nfail += 1
                desc = []
                desc += ["missing %s:%d" % (os.path.basename(f), l) for f, l, _ in sorted(missing)]
                desc += ["unexpected %s:%d" % (os.path.basename(f), l) for f, l, _ in sorted(extra)]
                print("%-28s %-40s fails: %s%s" % (check, stem, ", ".join(desc), ("  [errors: %s]" % errs) if errs else ""))
    print("%d pending case(s) pass, %d fail" % (npass, nfail))
    return 0


if __name__ == "__main__":
    sys.exit(main())
