#!/usr/bin/env python3
"""torchlint's accuracy benchmark on public libtorch repositories.

Lays out the repositories of tools/accuracy/repos.json (pinned commits, from `fetch` mirrors), runs the
torchlint CLI on them as a user would (the repository's files, its folders on -I, one libtorch), and
compares every finding with the judged verdicts in tools/accuracy/verdicts.json (TP / FP / debatable,
with the reason) and the judged misses in tools/accuracy/misses.json. Writes docs/accuracy.md and
docs/accuracy.json.

    python3 tools/accuracy/run.py --torchlint build/bin/torchlint [--mirror /work/.mirror] [--mode MODE] [--only a,b]

Modes (--mode):
  project   (default) whole-project mode: a compile_commands.json listing every C/C++ translation unit of
            the repository with the harness's flags (what its own CMake would give: the compiler by its
            absolute path, the repository's folders on -I, libtorch on -isystem) is written to
            <workdir>/<name>.db/ and passed with `-p <dir>`; torchlint reports on the audited files. With a
            CLI that builds the project model (issue 23), every file of the database feeds the model;
            today's CLI reads each audited file's flags from it (per-file).
  flags     the harness's flags after `--` for the audited files (the mode of the first benchmark).
  newcomer  issue 24: no compile database and no flags, nothing but libtorch (what torchlint guesses); one
            run per file, recording its time, whether a PCH was used, its compiler errors, whether its
            training step sits in a file with unjudged code, and the findings it loses against the
            project mode's results (when those are in --workdir). Writes docs/accuracy-newcomer.md.

Each repository's results are kept in --workdir per mode, so the benchmark can run one repository at a
time (--only) in the background and then compose the report with --reuse.

CI cannot fetch, so this is a benchmark to run by hand; test_compare.py tests the comparison offline.
"""
import argparse
import collections
import glob
import json
import os
import re
import shutil
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
LINE_TOLERANCE = 3
# What is laid out of each repository: its C and C++ sources (snapshots lack large data files).
SOURCES = (".cpp", ".cc", ".cxx", ".h", ".hpp", ".hh", ".hxx", ".inl", ".cu", ".cuh")  # verdicts survive small line shifts of the audited code
# The build files a newcomer's clone has beside the sources: torchlint reads them for the standard and the
# include folders when there is no compile database (cli/ProjectFlags.h).
BUILD_FILES = ("CMakeLists.txt", ".cmake", "meson.build", "BUILD", "BUILD.bazel", "WORKSPACE", "MODULE.bazel")
LAYOUT_VERSION = "2"  # 2: build files and a .git folder, as a clone has


def load(name):
    with open(os.path.join(HERE, name)) as f:
        return json.load(f)


# ---------------------------------------------------------------------------------------------------
# Comparison (pure; unit-tested by test_compare.py)

def _key(e):
    return (e["repo"], e["file"], e["check"])


def match(findings, verdicts, misses, tol=LINE_TOLERANCE):
    """Gives each finding a verdict: the nearest unused judged verdict (or judged miss, which is a
    true positive) of the same repo, file and check within tol lines; 'unjudged' otherwise.
    Returns (judged findings, misses still missed)."""
    pool = collections.defaultdict(list)
    for v in verdicts:
        pool[_key(v)].append(dict(v))
    for m in misses:
        pool[_key(m)].append(dict(m, verdict="TP", why="judged miss, now found: " + m.get("why", ""), miss=True))
    out = []
    for f in sorted(findings, key=lambda f: (f["repo"], f["file"], f["line"], f["check"])):
        # A verdict judges its line: several findings on it (calls in one line, a header line
        # reported from several translation units) share it; otherwise the nearest unused one
        # within tol lines (the audited code may shift a little).
        cands = [v for v in pool[_key(f)] if v["line"] == f["line"]] or \
                [v for v in pool[_key(f)] if not v.get("_used") and abs(v["line"] - f["line"]) <= tol]
        if cands:
            v = min(cands, key=lambda v: abs(v["line"] - f["line"]))
            v["_used"] = True
            out.append(dict(f, verdict=v["verdict"], why=v.get("why", ""), miss_found=bool(v.get("miss"))))
        else:
            out.append(dict(f, verdict="unjudged", why="", miss_found=False))
    missed = [m for m in misses if not any(v.get("miss") and v.get("_used") and _key(v) == _key(m) and v["line"] == m["line"]
                                           for v in pool[_key(m)])]
    return out, missed


def is_remark(finding):
    # Reports written before the level was recorded: the sync checks' remarks say so in the message.
    return finding.get("level", "remark" if "; a remark, not a warning" in finding.get("message", "") else "warning") == "remark"


def per_check(judged, missed):
    """Rows per check: findings, TP, FP, debatable, unjudged, precision, misses, recall."""
    rows = collections.OrderedDict()
    checks = sorted({j["check"] for j in judged} | {m["check"] for m in missed})
    for c in checks + ["all"]:
        js = [j for j in judged if c == "all" or j["check"] == c]
        ms = [m for m in missed if c == "all" or m["check"] == c]
        tp = sum(j["verdict"] == "TP" for j in js)
        fp = sum(j["verdict"] == "FP" for j in js)
        deb = sum(j["verdict"] == "debatable" for j in js)
        unj = sum(j["verdict"] == "unjudged" for j in js)
        # Remarks ("a remark, not a warning: ... only runs in the logging branch") apart: what a
        # user sees as warnings.
        ws = [j for j in js if not is_remark(j)]
        tpw = sum(j["verdict"] == "TP" for j in ws)
        fpw = sum(j["verdict"] == "FP" for j in ws)
        rows[c] = {
            "findings": len(js), "TP": tp, "FP": fp, "debatable": deb, "unjudged": unj,
            "precision": (tp / (tp + fp)) if tp + fp else None,
            "remarks": len(js) - len(ws),
            "precision_warnings": (tpw / (tpw + fpw)) if tpw + fpw else None,
            "misses": len(ms),
            "recall": (tp / (tp + len(ms))) if tp + len(ms) else None,
        }
    return rows


def per_project(manifest, judged, missed):
    """One row of per_check's "all" per repository, in manifest order, with the set it belongs to."""
    out = collections.OrderedDict()
    for repo in manifest["repos"]:
        n = repo["name"]
        r = per_check([j for j in judged if j["repo"] == n], [m for m in missed if m["repo"] == n])["all"]
        out[n] = dict(r, set=repo.get("set", "original"))
    return out


def split_unbuilt(misses, known_checks):
    """Misses judged for checks this torchlint does not have yet (issue 25's) are kept apart: they wait for
    the check to land and count in no recall until then."""
    if known_checks is None:
        return misses, []
    return [m for m in misses if m["check"] in known_checks], [m for m in misses if m["check"] not in known_checks]


def previous_result(path, name):
    """A repository's findings as an earlier report (docs/accuracy.json) recorded them."""
    with open(path) as f:
        prev = json.load(f)
    keep = ("repo", "file", "line", "column", "check", "message", "level")
    findings = [{k: x[k] for k in keep if k in x} for x in prev.get("findings", []) if x["repo"] == name]
    return {"files": [], "findings": findings, "errors": prev.get("errors", {}).get(name, []), "wall_s": 0.0,
            "mode": prev.get("mode", "flags"), "previous": os.path.basename(path)}


def known_checks(torchlint):
    try:
        p = subprocess.run([torchlint, "--list-checks"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=60)
    except (OSError, subprocess.TimeoutExpired):
        return None
    names = set(re.findall(r"\b(torch-[a-z0-9-]+)", p.stdout))
    return names or None


def pct(x):
    return "n/a" if x is None else "%.0f%%" % (100 * x)


# ---------------------------------------------------------------------------------------------------
# Running torchlint on the repositories

def layout(repo, mirror, workdir):
    dest = os.path.join(workdir, repo["name"])
    stamp = os.path.join(dest, ".torchlint-accuracy-commit")
    if os.path.exists(stamp) and open(stamp).read().split() == [repo["commit"], LAYOUT_VERSION]:
        return dest
    src = repo["source"].split(":", 1)[-1].replace("/", "+")
    git = os.path.join(mirror, src, "repo")
    if not os.path.isdir(git):
        raise SystemExit("run.py: no mirror of %s at %s (fetch it with the fetch tool, or pass --mirror)" % (repo["source"], git))
    same_commit = os.path.exists(stamp) and open(stamp).read().split()[:1] == [repo["commit"]]
    if not same_commit:  # an older layout of the same commit is completed in place (its results stay)
        shutil.rmtree(dest, ignore_errors=True)
    os.makedirs(dest, exist_ok=True)
    # Blob by blob (a snapshot may lack some large files, which `git archive` refuses): the sources
    # of the pinned commit.
    tree = subprocess.run(["git", "-C", git, "ls-tree", "-r", "-z", repo["commit"]], check=True,
                          stdout=subprocess.PIPE).stdout.decode().split("\0")
    blobs = []
    for entry in tree:
        if not entry:
            continue
        meta, path = entry.split("\t", 1)
        mode, kind, sha = meta.split()
        if kind == "blob" and mode != "120000" and (path.endswith(SOURCES) or os.path.basename(path).endswith(BUILD_FILES)
                                                    or path.startswith(tuple(repo.get("layout_all", [])))):
            blobs.append((sha, path))
    cat = subprocess.run(["git", "-C", git, "cat-file", "--batch"], input="".join(s + "\n" for s, _ in blobs).encode(),
                         check=True, stdout=subprocess.PIPE).stdout
    pos = 0
    for sha, path in blobs:
        eol = cat.index(b"\n", pos)
        header = cat[pos:eol].split()
        pos = eol + 1
        if len(header) < 3 or header[1] != b"blob":  # missing from the snapshot
            continue
        size = int(header[2])
        data, pos = cat[pos:pos + size], pos + size + 1
        out = os.path.join(dest, path)
        os.makedirs(os.path.dirname(out), exist_ok=True)
        with open(out, "wb") as f:
            f.write(data)
    os.makedirs(os.path.join(dest, ".git"), exist_ok=True)  # the repository's root, as in a clone
    with open(stamp, "w") as f:
        f.write(repo["commit"] + " " + LAYOUT_VERSION + "\n")
    return dest


def shared_components(a, b):
    n = 0
    for x, y in zip(a.split(os.sep), b.split(os.sep)):
        if x != y:
            break
        n += 1
    return n


def flags_for(repo, dest, tu=None):
    """The harness's flags; for a translation unit tu, the include folders of its own part of the tree first (a
    collection of examples, each with its own include/ holding the same header names, finds each its own
    header, as each example's CMakeLists.txt would give it)."""
    incs = [dest]  # the repository's root, as its build adds it
    for i in repo.get("includes", []):
        if i == "*":
            for d, _, files in os.walk(dest):
                if any(f.endswith((".h", ".hpp", ".hh", ".cuh")) for f in files):
                    incs.append(d)
        else:
            incs.append(os.path.join(dest, i))
    flags = ["-x", "c++"]
    if repo.get("torch", 1) == 2:
        t2 = os.path.join(ROOT, ".deps", "libtorch-2", "include")
        if not os.path.isdir(t2):
            raise SystemExit("run.py: %s needs the libtorch 2.x headers at %s (cmake fetches them into .deps/ of the "
                             "checkout; in a worktree, link .deps to the main checkout's)" % (repo["name"], t2))
        flags += ["-std=c++20", "-isystem", t2, "-isystem", os.path.join(t2, "torch", "csrc", "api", "include")]
    else:
        flags += ["-std=c++17", "-isystem", "/usr/include/torch/csrc/api/include"]  # Debian's libtorch-dev
    flags += repo.get("flags", [])
    incs = sorted(set(incs))
    if tu:
        folder = os.path.dirname(tu)
        # The folders whose parent holds the file (the repository's root, the example's own include/)
        # first, in name order as before; the others (a sibling example's) after them.
        incs.sort(key=lambda d: 0 if shared_components(os.path.dirname(d), folder) == len(os.path.dirname(d).split(os.sep)) else 1)
    for d in incs:
        flags += ["-I", d]
    return flags


CXX_TUS = (".cpp", ".cc", ".cxx", ".cu")  # translation units of a whole-project database (.cu as CMake's CUDA language lists them)
NVCC = "/usr/local/cuda/bin/nvcc"  # the compiler CMake names for .cu files (torchlint reads its flags, never runs it)
STEP_RE = re.compile(r"\.backward\s*\(|optim\w*\s*(\.|->)\s*step\s*\(|\bloss\w*\s*=")


def excluded(repo, dest):
    drop = set()
    for g in repo.get("exclude", []):
        drop |= set(glob.glob(os.path.join(dest, g), recursive=True))
    return drop


def audited_files(repo, dest):
    files = []
    for g in repo["files"]:
        files += sorted(glob.glob(os.path.join(dest, g), recursive=True))
    return sorted(set(files) - excluded(repo, dest))


def project_files(repo, dest):
    """Every translation unit of the repository, as its own build would list them: project_files globs
    (default: every C++ source), less the exclude globs (vendored code, other platforms' back ends)."""
    files = []
    for g in repo.get("project_files", ["**/*" + e for e in CXX_TUS]):
        files += glob.glob(os.path.join(dest, g), recursive=True)
    drop = excluded(repo, dest)
    return sorted(set(f for f in files if f.endswith(CXX_TUS) and f not in drop) | set(audited_files(repo, dest)))


def write_database(repo, dest, dbdir):
    """compile_commands.json with one entry per translation unit of the project; the compiler named by its
    absolute path as CMake writes it (nvcc for .cu files), the harness's flags."""
    os.makedirs(dbdir, exist_ok=True)
    entries = []
    for f in project_files(repo, dest):
        flags = [a for a in flags_for(repo, dest, f) if a not in ("-x", "c++")]
        if f.endswith(".cu"):  # CMake's CUDA language: nvcc with the target's defines, includes and -std
            cmd = [NVCC, "-forward-unknown-to-host-compiler"] + flags + ["-x", "cu", "-c", f, "-o", f + ".o"]
        else:
            cmd = ["/usr/bin/c++"] + flags + ["-c", f, "-o", f + ".o"]
        entries.append({"directory": dest, "file": f, "arguments": cmd})
    with open(os.path.join(dbdir, "compile_commands.json"), "w") as out:
        json.dump(entries, out, indent=1)
    return len(entries)


def parse_output(repo, dest, out):
    with open(out) as f:
        data = json.load(f)
    rel = lambda p: os.path.relpath(p, dest) if os.path.isabs(p) else p
    findings, errors = [], []
    for x in data.get("findings", []):
        if x["check"].startswith("clang-diagnostic"):  # the compiler's own diagnostics: input problems
            errors.append("%s:%d: %s" % (rel(x["file"]), x["line"], x["message"]))
            continue
        findings.append({"repo": repo["name"], "file": rel(x["file"]), "line": x["line"], "column": x.get("column", 0),
                         "check": x["check"], "message": x["message"], "level": x.get("level", "warning")})
    for e in data.get("errors", []):
        text = e if isinstance(e, str) else json.dumps(e)
        errors.append(text.replace(dest + "/", ""))
    return findings, errors


def result_path(dest, mode):
    return os.path.join(dest, ".torchlint-result%s.json" % ("" if mode == "flags" else "-" + mode))


def run_repo(repo, torchlint, dest, cache, jobs, mode="project", workdir=None):
    files = audited_files(repo, dest)
    out = os.path.join(dest, ".torchlint-findings-%s.json" % mode)
    # The repository's own headers are user code (a trainer class in a header is common): shown, as a
    # user auditing the repository would ask with --header-filter.
    hf = "--header-filter=^" + re.escape(dest + "/")
    base = [torchlint, "--format=json", "--output=" + out, "--cache-dir=" + cache, "-j", str(jobs), hf]
    extra = {}
    if mode == "project":
        dbdir = os.path.join(workdir or os.path.dirname(dest), repo["name"] + ".db")
        extra["database_tus"] = write_database(repo, dest, dbdir)
        cmd = base + ["-p", dbdir] + files
    else:
        cmd = base + files + ["--"] + flags_for(repo, dest)
    t0 = time.time()
    p = subprocess.run(cmd, cwd=dest, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    wall = time.time() - t0
    if p.returncode not in (0, 1, 2, 3) or not os.path.exists(out):
        raise SystemExit("run.py: torchlint failed on %s (exit %d):\n%s" % (repo["name"], p.returncode, p.stderr[-4000:]))
    findings, errors = parse_output(repo, dest, out)
    rel = lambda p: os.path.relpath(p, dest) if os.path.isabs(p) else p
    res = dict({"files": [rel(f) for f in files], "findings": findings, "errors": errors, "wall_s": wall, "mode": mode,
                "exit": p.returncode, "stderr": p.stderr.replace(dest + "/", "")[-2000:]}, **extra)
    with open(result_path(dest, mode), "w") as f:
        json.dump(res, f)
    return res


def body_end(lines, start):
    """The last line (0-based) of the function whose declaration starts on line `start`: its braces
    matched, skipping comments, string and character literals roughly; `start` when a ';' comes first."""
    depth, opened, block = 0, False, False
    for i in range(start, len(lines)):
        ln, j = lines[i], 0
        while j < len(ln):
            c = ln[j]
            if block:
                if ln.startswith("*/", j):
                    block, j = False, j + 1
            elif ln.startswith("//", j):
                break
            elif ln.startswith("/*", j):
                block, j = True, j + 1
            elif c in "\"'":
                k = j + 1
                while k < len(ln) and ln[k] != c:
                    k += 2 if ln[k] == "\\" else 1
                j = k
            elif c == "{":
                depth, opened = depth + 1, True
            elif c == "}":
                depth -= 1
                if opened and depth == 0:
                    return i
            elif c == ";" and not opened:
                return start
            j += 1
    return len(lines) - 1


def step_in_unjudged_code(src, errs):
    """Whether training-step code (STEP_RE) of the file sits in code torchlint did not judge: in a
    function of the file that it names ("code not judged in train() (line 40)"; functions of other files,
    "(logger.hpp:88)", are not the file's step), or anywhere in the file when an error names no function
    or the list was cut ("and 3 more")."""
    lines = src.splitlines()
    for e in errs:
        m = re.search(r"code not judged in (.*)", e)
        if not m:
            if "error" in e.lower() and "stand-in" not in e and "analysed partially" not in e:
                return bool(STEP_RE.search(src))
            continue
        text = m.group(1)
        if re.search(r", and \d+ more", text):
            return bool(STEP_RE.search(src))
        for lm in re.finditer(r"\(line (\d+)\)", text):
            start = int(lm.group(1)) - 1
            if any(STEP_RE.search(l) for l in lines[start:body_end(lines, start) + 1]):
                return True
    return False


def run_newcomer(repo, torchlint, dest, cache):
    """Issue 24's first run: each audited file alone, no compile database, no flags (torchlint guesses
    libtorch's headers and nothing else), from the repository's root. Per file: seconds, PCH use, compiler
    errors, whether the file holds training-step code (backward, an optimizer step, a loss) that sits in a
    file analysed partially."""
    per_file, findings = collections.OrderedDict(), []
    for f in audited_files(repo, dest):
        rel = os.path.relpath(f, dest)
        out = os.path.join(dest, ".torchlint-newcomer-one.json")
        if os.path.exists(out):
            os.remove(out)
        cmd = [torchlint, "--format=json", "--output=" + out, "--cache-dir=" + cache, "--accel-log", "-j", "1",
               "--header-filter=^" + re.escape(dest + "/"), rel]
        t0 = time.time()
        p = subprocess.run(cmd, cwd=dest, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        wall = time.time() - t0
        if p.returncode not in (0, 1, 2, 3) or not os.path.exists(out):
            per_file[rel] = {"wall_s": wall, "exit": p.returncode, "crash": p.stderr[-600:], "findings": 0, "errors": []}
            continue
        fs, errs = parse_output(repo, dest, out)
        findings += fs
        pch = re.search(r"analysed, pch ([^,]*(?:\([^)]*\))?)", p.stderr)
        src = open(f, errors="replace").read()
        partial = [e for e in errs if "not judged" in e or "error" in e.lower() and "stand-in" not in e]
        per_file[rel] = {"wall_s": round(wall, 2), "load": round(os.getloadavg()[0], 1), "exit": p.returncode,
                         "pch": pch.group(1) if pch else "?",
                         "findings": len(fs), "errors": [e[:300] for e in errs],
                         "step": bool(STEP_RE.search(src)),
                         "unjudged_code": bool(partial),
                         "step_unjudged": bool(partial) and step_in_unjudged_code(src, errs),
                         "standin_only": bool(errs) and not partial}
    res = {"files": list(per_file), "per_file": per_file, "findings": findings, "mode": "newcomer",
           "wall_s": sum(v["wall_s"] for v in per_file.values())}
    with open(result_path(dest, "newcomer"), "w") as f:
        json.dump(res, f)
    return res


def files_with_input_errors(res):
    """The files where the compiler reported an error (a missing header, mostly), with the first message;
    before the missing-include recovery, such a TU was analysed as nothing past the error."""
    bad = collections.OrderedDict()
    for e in res["errors"]:
        f = e.split(":", 1)[0]
        bad.setdefault(f, e.strip()[:200])
    return bad


def write_report(manifest, results, judged, missed, rows, total_wall, pch_builds, cmd, path_md, path_json, mode="flags", unbuilt=(),
                 notes=()):
    L = []
    L.append("# Accuracy on public libtorch code\n")
    L.append("Generated by `tools/accuracy/run.py` from the judged verdicts in `tools/accuracy/verdicts.json` and the "
             "judged misses in `tools/accuracy/misses.json`; do not edit by hand (the patterns section comes from "
             "`tools/accuracy/patterns.md`).\n")
    L.append("Reproduce (needs the mirrors of the repositories below, from the `fetch` tool):\n")
    L.append("```sh\n%s\n```\n" % cmd)
    L.append("A finding is matched to a verdict of the same repository, file and check within %d lines. Precision = TP / (TP + FP) "
             "(debatable findings count in neither); recall = TP / (TP + judged misses still missed). Default checks only "
             "(levels 0 and 1).\n" % LINE_TOLERANCE)
    L.append("Mode: **%s** (%s).\n" % (mode, {
        "project": "whole-project mode: a compile database listing every translation unit of the repository, passed with -p",
        "flags": "the harness's flags after `--`, the audited files only",
    }.get(mode, mode)))
    for n in notes:
        L.append("- %s" % n)
    if notes:
        L.append("")
    L.append("## Per project\n")
    L.append("Targets (issue 23): precision >= 95% and recall >= 90% on every project with more than 20 findings.\n")
    L.append("*of them remarks* counts the findings reported as remarks, not warnings (the sync checks' "
             "\"a remark, not a warning: ... only runs in the logging branch\"); *precision of warnings* leaves "
             "them out.\n")
    L.append("| set | repository | findings | of them remarks | TP | FP | debatable | unjudged | precision | precision of warnings | judged misses | recall |")
    L.append("| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    pp = per_project(manifest, judged, missed)
    for st in sorted({r["set"] for r in pp.values()}, key=lambda x: (x != "original", x)):
        names = [n for n, r in pp.items() if r["set"] == st]
        for n in names:
            r = pp[n]
            L.append("| %s | %s | %d | %d | %d | %d | %d | %d | %s | %s | %d | %s |" % (
                st, n, r["findings"], r["remarks"], r["TP"], r["FP"], r["debatable"], r["unjudged"], pct(r["precision"]),
                pct(r["precision_warnings"]), r["misses"], pct(r["recall"])))
        sub = per_check([j for j in judged if j["repo"] in names], [m for m in missed if m["repo"] in names])["all"]
        L.append("| %s | **all of %s** | %d | %d | %d | %d | %d | %d | %s | %s | %d | %s |" % (
            st, st, sub["findings"], sub["remarks"], sub["TP"], sub["FP"], sub["debatable"], sub["unjudged"],
            pct(sub["precision"]), pct(sub["precision_warnings"]), sub["misses"], pct(sub["recall"])))
    L.append("")
    L.append("## Per check\n")
    L.append("| check | findings | TP | FP | debatable | unjudged | precision | judged misses | recall |")
    L.append("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    for c, r in rows.items():
        name = "**all**" if c == "all" else "`%s`" % c
        L.append("| %s | %d | %d | %d | %d | %d | %s | %d | %s |" % (name, r["findings"], r["TP"], r["FP"], r["debatable"],
                 r["unjudged"], pct(r["precision"]), r["misses"], pct(r["recall"])))
    L.append("")
    L.append("## Repositories\n")
    L.append("| repository | commit | kind | TUs | findings | files with an input error | wall s |")
    L.append("| --- | --- | --- | ---: | ---: | ---: | ---: |")
    nbad = 0
    for repo in manifest["repos"]:
        res = results[repo["name"]]
        bad = files_with_input_errors(res)
        nbad += len(bad)
        if res.get("previous"):
            L.append("| %s (`%s`) | `%s` | %s | earlier run | %d | %d | earlier run (%s mode, %s) |" % (repo["name"], repo["source"],
                     repo["commit"][:10], repo["kind"], len(res["findings"]), len(bad), res["mode"], res["previous"]))
            continue
        L.append("| %s (`%s`) | `%s` | %s | %d | %d | %d | %.0f |" % (repo["name"], repo["source"], repo["commit"][:10], repo["kind"],
                 len(res["files"]), len(res["findings"]), len(bad), res["wall_s"]))
    L.append("")
    runs = [r for k, r in results.items() if k != "_jobs" and not r.get("previous")]
    if any("pch_built" in r for r in runs):
        pch_builds = sum(r.get("pch_built", 0) for r in runs)
    cold = "cold cache: every result computed" if not any(r.get("kept_cache") for r in runs) else \
        "every result computed; a PCH built by an earlier run was reused for %s" % ", ".join(
            k for k, r in results.items() if k != "_jobs" and r.get("kept_cache"))
    L.append("Audit: %d translation units in %.0f s wall (-j%d, %s), %d precompiled libtorch "
             "header(s) built; %d file(s) with an input error.\n" % (sum(len(r["files"]) for r in runs), total_wall,
             results["_jobs"], cold, pch_builds, nbad))
    if nbad:
        L.append("### Input errors\n")
        for repo in manifest["repos"]:
            for f, e in files_with_input_errors(results[repo["name"]]).items():
                L.append("- %s `%s`: %s" % (repo["name"], f, e.replace("|", "\\|")))
        L.append("")
    L.append("## Every finding\n")
    L.append("| repository | file:line | check | verdict | why |")
    L.append("| --- | --- | --- | --- | --- |")
    for j in judged:
        L.append("| %s | `%s:%d` | `%s` | %s | %s |" % (j["repo"], j["file"], j["line"], j["check"], j["verdict"], j["why"].replace("|", "\\|")))
    L.append("")
    L.append("## Judged misses still missed\n")
    if not missed:
        L.append("None.\n")
    else:
        L.append("| repository | file:line | check | why |")
        L.append("| --- | --- | --- | --- |")
        for m in missed:
            L.append("| %s | `%s:%d` | `%s` | %s |" % (m["repo"], m["file"], m["line"], m["check"], m.get("why", "").replace("|", "\\|")))
        L.append("")
    if unbuilt:
        L.append("## Places for checks not built yet\n")
        L.append("Judged misses for checks this torchlint does not have (issue 25); they count in no recall until the "
                 "check lands, then as misses or, found, as true positives.\n")
        L.append("| check | repository | file:line | why |")
        L.append("| --- | --- | --- | --- |")
        for m in sorted(unbuilt, key=lambda m: (m["check"], m["repo"], m["file"], m["line"])):
            L.append("| `%s` | %s | `%s:%d` | %s |" % (m["check"], m["repo"], m["file"], m["line"], m.get("why", "").replace("|", "\\|")))
        L.append("")
    pat = os.path.join(HERE, "patterns.md")
    if os.path.exists(pat):
        L.append(open(pat).read())
    with open(path_md, "w") as f:
        f.write("\n".join(L).rstrip() + "\n")
    with open(path_json, "w") as f:
        json.dump({"rows": rows, "projects": per_project(manifest, judged, missed), "mode": mode, "findings": judged, "missed": missed, "wall_s": total_wall, "pch_builds": pch_builds,
                   "errors": {k: v["errors"] for k, v in results.items() if k != "_jobs"}}, f, indent=1, sort_keys=True)
        f.write("\n")


def other_newcomer_reports(path_md):
    """A line naming the other newcomer reports beside path_md (sets run apart, each with its own --out)."""
    folder = os.path.dirname(os.path.abspath(path_md))
    names = sorted(os.path.basename(p) for p in glob.glob(os.path.join(folder, "accuracy-newcomer*.md"))
                   if os.path.abspath(p) != os.path.abspath(path_md))
    if not names:
        return ""
    return "Other sets as a newcomer, each in its own report: %s.\n" % ", ".join("[%s](%s)" % (n, n) for n in names)


def write_newcomer_report(manifest, results, workdir, cmd, path_md, notes=()):
    """docs/accuracy-newcomer.md: issue 24's first run, per file."""
    L = ["# First run as a newcomer: no compile database, nothing but libtorch\n",
         "Generated by `tools/accuracy/run.py --mode newcomer`; do not edit by hand. Each audited file is analysed alone "
         "from its repository's root, as a user who has not built the project would (`torchlint FILE`, no `-p`, no "
         "flags: torchlint finds libtorch and guesses the rest), with a cache that starts cold for each repository.\n",
         "```sh\n%s\n```\n" % cmd,
         "Columns: *step* = the file holds training-step code (a backward, an optimizer step or a loss assignment); "
         "*unjudged* = torchlint says code of the file was not judged (compiler errors not covered by a stand-in); "
         "*step in unjudged code* = the file's training-step code lies in a function of the file that torchlint names as "
         "not judged (\"code not judged in train() (line 40)\"; a header's function, \"(logger.hpp:88)\", is not the "
         "file's step), or the file has errors that name no function (n/a: a run before this column); "
         "*stand-in only* = every error was covered by a stand-in; *lost* = findings of the whole-project run (same "
         "workdir) that this run does not give; *extra* = distinct findings (file, line, check) of this run that the "
         "whole-project run does not give, with their verdicts where judged (TP/FP/debatable/unjudged: a file "
         "analysed alone cannot see the project's step loops, so any loop counts there); *pch* = the precompiled libtorch header used for the file; *load* = the "
         "machine's 1-minute load average when the file finished (times are wall seconds: compare them only between "
         "files of one run on a quiet machine).\n",
         "".join("- %s\n" % n for n in notes),
         other_newcomer_reports(path_md),
         "## Per repository\n",
         "| repository | files | with a step | step in a file with unjudged code | step in unjudged code | stand-in only | findings | lost vs project mode | extra (TP/FP/debatable/unjudged) | median s/file | max s/file |",
         "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- | ---: | ---: |"]
    verdicts = load("verdicts.json")
    misses = load("misses.json")
    rows = []
    for repo in manifest["repos"]:
        res = results.get(repo["name"])
        if not res:
            continue
        pf = res["per_file"]
        proj = os.path.join(workdir, repo["name"], ".torchlint-result-project.json")
        lost = {}
        extra = "n/a"
        if os.path.exists(proj):
            pj = json.load(open(proj))
            have = {(f["file"], f["line"], f["check"]) for f in pj["findings"]}
            new = {}
            for f in res["findings"]:
                k = (f["file"], f["line"], f["check"])
                if k not in have:
                    new.setdefault(k, dict(f, repo=repo["name"]))
            judged, _ = match(list(new.values()), [v for v in verdicts if v["repo"] == repo["name"]],
                              [m for m in misses if m["repo"] == repo["name"]])
            c = collections.Counter(j["verdict"] for j in judged)
            extra = "%d (%d/%d/%d/%d)" % (len(judged), c["TP"], c["FP"], c["debatable"], c["unjudged"])
            got = collections.Counter((f["file"], f["line"], f["check"]) for f in res["findings"])
            for f in pj["findings"]:
                k = (f["file"], f["line"], f["check"])
                if got[k]:
                    got[k] -= 1
                else:
                    lost[f["file"]] = lost.get(f["file"], 0) + 1
        times = sorted(v["wall_s"] for v in pf.values())
        med = times[len(times) // 2] if times else 0
        L.append("| %s | %d | %d | %d | %s | %d | %d | %s | %s | %.1f | %.1f |" % (
            repo["name"], len(pf), sum(v.get("step", False) for v in pf.values()),
            sum(v.get("step", False) and v.get("unjudged_code", False) for v in pf.values()),
            sum(v.get("step_unjudged", False) for v in pf.values()) if all("step_unjudged" in v for v in pf.values()) else "n/a",
            sum(v.get("standin_only", False) for v in pf.values()), len(res["findings"]),
            sum(lost.values()) if os.path.exists(proj) else "n/a", extra, med, times[-1] if times else 0))
        for f, v in pf.items():
            rows.append((repo["name"], f, v, lost.get(f, 0)))
    L.append("")
    L.append("## Per file\n")
    L.append("| repository | file | s | load | pch | step | unjudged | findings | lost | first error |")
    L.append("| --- | --- | ---: | ---: | --- | --- | --- | ---: | ---: | --- |")
    for n, f, v, lost in rows:
        err = (v.get("errors") or [v.get("crash", "")] or [""])[0] if (v.get("errors") or v.get("crash")) else ""
        L.append("| %s | `%s` | %.1f | %s | %s | %s | %s | %d | %d | %s |" % (
            n, f, v["wall_s"], v.get("load", "?"), v.get("pch", "?").replace("|", "\\|"), "yes" if v.get("step") else "", "yes" if v.get("unjudged_code") else "",
            v.get("findings", 0), lost, err[:160].replace("|", "\\|").replace("\n", " ")))
    L.append("")
    with open(path_md, "w") as f:
        f.write("\n".join(L).rstrip() + "\n")


def count_pch(cache):
    n = 0
    for d, _, files in os.walk(cache):
        n += sum(f.endswith(".pch") for f in files)
    return n


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--torchlint", default=os.path.join(ROOT, "build", "bin", "torchlint"))
    ap.add_argument("--mirror", default=os.environ.get("TORCHLINT_MIRROR", "/work/.mirror"))
    ap.add_argument("--workdir", default=os.environ.get("TORCHLINT_ACCURACY_DIR", "/tmp/torchlint-accuracy"))
    ap.add_argument("-j", "--jobs", type=int, default=os.cpu_count() or 2)
    ap.add_argument("--only", help="comma-separated repository names")
    ap.add_argument("--cache-dir", help="torchlint's cache (default <workdir>/.cache; emptied first unless --reuse): one per "
                    "concurrent run of this script")
    ap.add_argument("--set", help="only the repositories of this set (repos.json's \"set\", e.g. unseen-2)")
    ap.add_argument("--mode", choices=("project", "flags", "newcomer"), default="project")
    ap.add_argument("--out", default=None, help="the report (default docs/accuracy.md; docs/accuracy-newcomer.md for --mode newcomer)")
    ap.add_argument("--reuse", action="store_true",
                    help="compare the results of the previous run (in --workdir) with the verdicts again, without running torchlint")
    ap.add_argument("--note", action="append", default=[], help="a sentence about this run, written into the report (repeatable)")
    ap.add_argument("--keep-cache", action="store_true",
                    help="do not empty the cache first (a PCH built by an earlier run is reused: timings are not cold)")
    ap.add_argument("--previous", metavar="JSON",
                    help="with --reuse: a repository with no results in --workdir takes its findings from this earlier "
                         "report (docs/accuracy.json), marked so in the report, instead of being run")
    a = ap.parse_args()
    if not os.access(a.torchlint, os.X_OK):
        raise SystemExit("run.py: no torchlint at %s (build it, or pass --torchlint)" % a.torchlint)
    out = a.out or os.path.join(ROOT, "docs", "accuracy-newcomer.md" if a.mode == "newcomer" else "accuracy.md")
    manifest = load("repos.json")
    if a.only:
        keep = set(a.only.split(","))
        unknown = keep - {r["name"] for r in manifest["repos"]}
        if unknown:
            raise SystemExit("run.py: no repository named %s in repos.json" % ", ".join(sorted(unknown)))
        manifest["repos"] = [r for r in manifest["repos"] if r["name"] in keep]
    if a.set:
        manifest["repos"] = [r for r in manifest["repos"] if r.get("set", "original") == a.set]
    verdicts, misses = load("verdicts.json"), load("misses.json")
    names = {r["name"] for r in manifest["repos"]}
    verdicts = [v for v in verdicts if v["repo"] in names]
    misses = [m for m in misses if m["repo"] in names]
    misses, unbuilt = split_unbuilt(misses, known_checks(os.path.abspath(a.torchlint)))
    os.makedirs(a.workdir, exist_ok=True)
    cache = a.cache_dir or os.path.join(a.workdir, ".cache")
    if not a.reuse and not a.keep_cache:
        shutil.rmtree(cache, ignore_errors=True)  # cold: every PCH and result computed in this run
    results, findings = {"_jobs": a.jobs}, []
    t0 = time.time()
    for repo in manifest["repos"]:
        dest = layout(repo, a.mirror, a.workdir)
        saved = result_path(dest, a.mode)
        if a.reuse and os.path.exists(saved):
            with open(saved) as f:
                res = json.load(f)
        elif a.reuse and a.previous and a.mode != "newcomer":
            res = previous_result(a.previous, repo["name"])
        elif a.mode == "newcomer":
            shutil.rmtree(cache, ignore_errors=True)
            res = run_newcomer(repo, os.path.abspath(a.torchlint), dest, cache)
        else:
            n0 = count_pch(cache)
            res = run_repo(repo, os.path.abspath(a.torchlint), dest, cache, a.jobs, a.mode, a.workdir)
            res["pch_built"] = count_pch(cache) - n0
            res["kept_cache"] = bool(a.keep_cache)
            with open(result_path(dest, a.mode), "w") as f:
                json.dump(res, f)
        results[repo["name"]] = res
        findings += res["findings"]
        if a.mode == "newcomer":
            pf = res["per_file"]
            print("%-22s %3d files %3d findings %2d with unjudged code %5.0f s" % (repo["name"], len(pf), len(res["findings"]),
                  sum(v.get("unjudged_code", False) for v in pf.values()), res["wall_s"]), flush=True)
        else:
            print("%-22s %3d TUs %3d findings %2d errors %5.0f s" % (repo["name"], len(res["files"]), len(res["findings"]),
                  len(files_with_input_errors(res)), res["wall_s"]), flush=True)
    total = sum(r["wall_s"] for k, r in results.items() if k != "_jobs") if a.reuse else time.time() - t0
    if a.mode == "newcomer":
        cmd = "python3 tools/accuracy/run.py --torchlint build/bin/torchlint --mirror <fetch mirrors> --mode newcomer"
        write_newcomer_report(manifest, results, a.workdir, cmd, out, a.note)
        print("wrote", out)
        return 0
    judged, missed = match(findings, verdicts, misses)
    rows = per_check(judged, missed)
    cmd = "python3 tools/accuracy/run.py --torchlint build/bin/torchlint --mirror <fetch mirrors> -j %d --mode %s" % (a.jobs, a.mode)
    if a.reuse and a.previous:
        cmd = ("# each repository alone (in the background, under nice), then the report from the saved results:\n"
               "python3 tools/accuracy/run.py --torchlint build/bin/torchlint --mirror <fetch mirrors> -j %d --mode %s --only NAME\n"
               "python3 tools/accuracy/run.py --torchlint build/bin/torchlint --mode %s --reuse --previous docs/accuracy.json"
               % (a.jobs, a.mode, a.mode))
    write_report(manifest, results, judged, missed, rows, total, count_pch(cache), cmd, out,
                 os.path.splitext(out)[0] + ".json", a.mode, unbuilt, a.note)
    for n, r in per_project(manifest, judged, missed).items():
        print("%-22s findings %3d TP %3d FP %2d deb %2d unjudged %2d precision %5s misses %2d recall %5s" % (
            n, r["findings"], r["TP"], r["FP"], r["debatable"], r["unjudged"], pct(r["precision"]), r["misses"], pct(r["recall"])))
    for c, r in rows.items():
        print("%-32s findings %3d TP %3d FP %2d deb %2d unjudged %2d precision %5s misses %2d recall %5s" % (
            c, r["findings"], r["TP"], r["FP"], r["debatable"], r["unjudged"], pct(r["precision"]), r["misses"], pct(r["recall"])))
    print("wrote", out)


if __name__ == "__main__":
    sys.exit(main())
