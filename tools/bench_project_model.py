#!/usr/bin/env python3
"""Cost of the project model (issue 23): a benchmark, not a test.

On a set of libtorch translation units (default tools/bench_tus/*.cpp) laid out as one project with
a compile database, it times, in one run and with the same parallelism (-j, default 2):
  (a) per-file, cold     torchlint --no-project -p build FILES...   (no cached results)
  (b) whole-project, cold torchlint -p build                        (no cached results)
Both start from a cache that holds only the precompiled libtorch header (built once by a warm-up
run, or copied from --pch-seed, a cache directory that holds one): the PCH is the same work in both
modes, and building it (minutes on a loaded machine) would only dilute the difference.
alternating (a) and (b) --repeat times (median of each), then, on (b)'s cache:
  (c) warm re-run        torchlint -p build                          (files analysed: expect 0)
  (d) one file edited    a comment appended to one TU, then (c) again (files analysed: expect 1)
It prints the wall times, the ratio (b)/(a) and the number of files each run analysed (from
--accel-log), and writes them as Markdown with --out.

usage: tools/bench_project_model.py [--build BUILD] [-j N] [--repeat R] [--torch 2|1] [--out FILE.md]
                                   [--pch-seed CACHE_DIR] [TU.cpp ...]
"""
import argparse
import datetime
import glob
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def flags_for(torch):
    if torch == "1":
        return ["-std=c++17", "-isystem", "/usr/include/torch/csrc/api/include"]
    inc = os.path.join(ROOT, ".deps", "libtorch-2", "include")
    return ["-std=c++20", "-isystem", inc, "-isystem", os.path.join(inc, "torch", "csrc", "api", "include")]


def timed(cmd, cache):
    env = dict(os.environ, TORCHLINT_CACHE_DIR=cache)
    t0 = time.monotonic()
    p = subprocess.run(cmd, capture_output=True, text=True, env=env)
    wall = time.monotonic() - t0
    if p.returncode not in (0, 1):
        sys.exit("failed (%d): %s\n%s" % (p.returncode, " ".join(cmd), p.stderr[-3000:]))
    findings = len(json.loads(p.stdout)["findings"]) if p.stdout.strip() else 0
    analysed = p.stderr.count(": analysed,")
    return wall, findings, analysed


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("-j", type=int, default=2)
    ap.add_argument("--repeat", type=int, default=2)
    ap.add_argument("--torch", default="2")
    ap.add_argument("--out")
    ap.add_argument("--pch-seed", help="a torchlint cache directory whose pch/ to start every run from")
    ap.add_argument("tus", nargs="*")
    a = ap.parse_args()
    tl = os.path.join(a.build, "bin", "torchlint")
    tus = a.tus or sorted(glob.glob(os.path.join(ROOT, "tools", "bench_tus", "*.cpp")))
    work = tempfile.mkdtemp(prefix="tl-bench-project-")
    try:
        src = os.path.join(work, "src")
        os.makedirs(src)
        files = []
        for t in tus:
            shutil.copy(t, src)
            files.append(os.path.join(src, os.path.basename(t)))
        os.makedirs(os.path.join(work, "build"))
        with open(os.path.join(work, "build", "compile_commands.json"), "w") as f:
            json.dump([{"directory": src, "file": p,
                        "arguments": ["clang++"] + flags_for(a.torch) + ["-c", p]} for p in files], f)
        db = os.path.join(work, "build")
        common = [tl, "--format=json", "--accel-log", "-j%d" % a.j, "-p", db]
        seed = os.path.join(work, "seed")
        if a.pch_seed:
            shutil.copytree(os.path.join(a.pch_seed, "pch"), os.path.join(seed, "pch"))
        else:
            print("warm-up (builds the PCH): %.1f s" % timed(common + ["--no-project", files[0]], seed)[0],
                  file=sys.stderr)

        # A copied PCH is not reused (it is validated where it was built): the timed cold runs share
        # the seed's cache with --no-cache (no results read or written, the PCH used).
        def fresh(name):
            return seed

        per_file, project = [], []
        for r in range(a.repeat):
            for mode, out in (("per-file", per_file), ("project", project)):
                cache = fresh("cache-%s-%d" % (mode, r))
                cmd = common + ["--no-cache"] + (["--no-project"] + files if mode == "per-file" else [])
                out.append(timed(cmd, cache) + (cache,))
                print("%s cold #%d: %.1f s, %d findings, %d files analysed" % (mode, r + 1, *out[-1][:3]),
                      file=sys.stderr)
        cache = seed
        timed(common, cache)  # fills the result cache
        warm = timed(common, cache)
        with open(files[0], "a") as f:
            f.write("\n// edited by tools/bench_project_model.py\n")
        edited = timed(common, cache)
        a_med = statistics.median(w for w, *_ in per_file)
        b_med = statistics.median(w for w, *_ in project)
        load = os.getloadavg()
        lines = [
            "| run | wall (median of %d) | findings | files analysed |" % a.repeat,
            "| --- | ---: | ---: | ---: |",
            "| (a) per-file, no cached results (`--no-project -p build FILES`) | %.1f s | %d | %d |" % (a_med, per_file[0][1], per_file[0][2]),
            "| (b) whole project, no cached results (`-p build`) | %.1f s | %d | %d |" % (b_med, project[0][1], project[0][2]),
            "| (c) whole project, warm re-run | %.1f s | %d | %d |" % warm,
            "| (d) whole project, one file edited | %.1f s | %d | %d |" % edited,
            "",
            "(b)/(a) = **%.3f** (every run: per-file %s s, project %s s); %d TUs, -j%d, libtorch %s; "
            "load average %.1f %.1f %.1f; %s, %s" % (
                b_med / a_med, ", ".join("%.1f" % w for w, *_ in per_file),
                ", ".join("%.1f" % w for w, *_ in project), len(files), a.j, a.torch, *load,
                platform.node(), datetime.datetime.utcnow().strftime("%Y-%m-%d %H:%M UTC")),
        ]
        text = "\n".join(lines) + "\n"
        print(text)
        if a.out:
            with open(a.out, "w") as f:
                f.write(text)
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
