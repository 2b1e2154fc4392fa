#!/usr/bin/env python3
"""Runs only the named checks on the accuracy benchmark's repositories (tools/accuracy/repos.json,
laid out from `fetch` mirrors as run.py does) and prints every finding with its source line, for
judging new checks one by one before their verdicts join verdicts.json (docs/accuracy-new-checks-a.md).

    python3 tools/accuracy/new_checks.py --checks torch-foo,torch-bar [--torchlint build/bin/torchlint]
        [--mirror /work/.mirror] [--workdir /tmp/torchlint-accuracy-new] [--only repo,...] [--json out.json]
"""
import argparse
import json
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import run  # noqa: E402  (layout, flags_for: the same layout and flags as the benchmark)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--checks", required=True, help="comma-separated check names")
    ap.add_argument("--torchlint", default=os.path.join(run.ROOT, "build", "bin", "torchlint"))
    ap.add_argument("--mirror", default=os.environ.get("TORCHLINT_MIRROR", "/work/.mirror"))
    ap.add_argument("--workdir", default="/tmp/torchlint-accuracy-new")
    ap.add_argument("--only", help="comma-separated repository names")
    ap.add_argument("-j", "--jobs", type=int, default=2)
    ap.add_argument("--json", help="write the findings here")
    a = ap.parse_args()
    repos = run.load("repos.json")["repos"]
    if a.only:
        repos = [r for r in repos if r["name"] in set(a.only.split(","))]
    os.makedirs(a.workdir, exist_ok=True)
    cache = os.path.join(a.workdir, ".cache")
    allf = []
    for repo in repos:
        dest = run.layout(repo, a.mirror, a.workdir)
        files = sorted({f for g in repo["files"] for f in __import__("glob").glob(os.path.join(dest, g))})
        out = os.path.join(dest, ".new-checks.json")
        cmd = [os.path.abspath(a.torchlint), "--checks=-*," + a.checks, "--format=json", "--output=" + out,
               "--cache-dir=" + cache, "-j", str(a.jobs), "--header-filter=^" + re.escape(dest + "/")] + files + \
              ["--"] + run.flags_for(repo, dest)
        p = subprocess.run(cmd, cwd=dest, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        if p.returncode not in (0, 1, 2, 3) or not os.path.exists(out):
            print("%s: torchlint failed (exit %d): %s" % (repo["name"], p.returncode, p.stderr[-2000:]))
            continue
        data = json.load(open(out))
        n = 0
        for x in data.get("findings", []):
            if x["check"].startswith("clang-diagnostic"):
                continue
            rel = os.path.relpath(x["file"], dest) if os.path.isabs(x["file"]) else x["file"]
            try:
                src = open(os.path.join(dest, rel), errors="replace").read().splitlines()[x["line"] - 1].strip()
            except (OSError, IndexError):
                src = ""
            allf.append({"repo": repo["name"], "file": rel, "line": x["line"], "column": x.get("column", 0),
                         "check": x["check"], "message": x["message"], "source": src})
            n += 1
        print("%-22s %3d TUs %3d findings" % (repo["name"], len(files), n), flush=True)
    for f in allf:
        print("%s %s:%d:%d %s\n    %s\n    %s" % (f["check"], f["repo"] + "/" + f["file"], f["line"], f["column"],
                                                 f["source"], f["message"][:300], ""))
    if a.json:
        with open(a.json, "w") as fh:
            json.dump(allf, fh, indent=1)


if __name__ == "__main__":
    main()
