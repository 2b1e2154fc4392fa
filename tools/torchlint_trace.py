#!/usr/bin/env python3
"""torchlint trace: runs an unchanged libtorch program with libtorchlint-trace.so preloaded and
prints, per source line of the program, how many operators that would synchronise the host with a
CUDA device ran per training step, beside torchlint's static findings for that line.

    torchlint trace [options] -- PROGRAM [ARGS...]

A step is one top-level backward() call (aten::_backward); a program that never calls backward()
is reported per run. With --max-steps N the run is cut when step N+1 begins (the counts of N
whole steps, exit status 0), for programs that train longer than a trace needs. Source lines come from llvm-symbolizer-19 on the program's own -g build.
What is counted, and the limits: docs/probe/README.md ("What is counted", "torchlint trace").

Exit status: 0 traced; 5 with --expect-agreement, a line in the steps that is runtime only or
static only; 2 usage or input error (not a libtorch program, ABI mismatch, no preload
library, no llvm-symbolizer); 4 the traced program failed (crash or non-zero exit): the counts so
far are still printed and written.
"""
import argparse
import collections
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
SYNC_CHECK = re.compile(r"^torch-(sync-[a-z-]+|non-blocking-copy)$")
# Frames in these places are libtorch, the C++ library or the system, never the user's line.
SYSTEM_PREFIXES = ("/usr/", "/lib/", "/opt/", "/build/", "<")


def error(msg, code=2):
    print(f"torchlint trace: error: {msg}", file=sys.stderr)
    sys.exit(code)


def linked_libs(path):
    """{soname: resolved path} from ldd, or None when ldd cannot read the file."""
    p = subprocess.run(["ldd", path], capture_output=True, text=True)
    if p.returncode != 0:
        return None
    libs = {}
    for line in p.stdout.splitlines():
        m = re.match(r"\s*(\S+)\s+=>\s+(\S+)", line)
        if m:
            libs[m.group(1)] = os.path.realpath(m.group(2)) if m.group(2) != "not" else None
    return libs


def torch_libs(libs):
    return {k: v for k, v in libs.items() if re.match(r"lib(c10|torch_cpu|torch)\.so", k)}


def find_preload(explicit):
    cands = [explicit] if explicit else []
    cands += [os.environ.get("TORCHLINT_TRACE_LIB", ""),
              os.path.join(HERE, "..", "build", "lib", "libtorchlint-trace.so"),
              os.path.join(os.path.dirname(os.path.realpath(sys.argv[0])), "..", "lib", "libtorchlint-trace.so")]
    for c in cands:
        if c and os.path.isfile(c):
            return os.path.realpath(c)
    error("libtorchlint-trace.so not found (build it: ninja -C build torchlint-trace; or pass --preload FILE)")


def symbolize(symbolizer, sites):
    """{(module, offset): [(file, line, function), ...] innermost first}."""
    by_module = collections.defaultdict(set)
    for s in sites:
        for module, off in s["frames"]:
            by_module[module].add(off)
    out = {}
    for module, offs in by_module.items():
        if module == "?" or not os.path.isfile(module):
            continue
        offs = sorted(offs)
        # A return address points after the call: look up the call's own line (offset - 1).
        query = "\n".join(hex(int(o, 16) - 1) for o in offs) + "\n"
        p = subprocess.run([symbolizer, "--obj=" + module, "--output-style=JSON", "--inlines"],
                           input=query, capture_output=True, text=True)
        if p.returncode != 0:
            continue
        for off, line in zip(offs, p.stdout.splitlines()):
            try:
                rec = json.loads(line)
            except json.JSONDecodeError:
                continue
            frames = []
            for sym in rec.get("Symbol", []):
                f = os.path.normpath(sym.get("FileName", ""))
                frames.append((f, sym.get("Line", 0), sym.get("FunctionName", "")))
            out[(module, off)] = frames
    return out


def user_line(site, table, root, exclude):
    """The innermost frame of the site that is in the user's sources (under root, not excluded)."""
    for module, off in site["frames"]:
        for f, line, fn in table.get((module, off), []):
            if not f or not line or f.startswith(SYSTEM_PREFIXES):
                continue
            f = os.path.realpath(f)
            if not os.path.isfile(f):  # a library's build path (glibc's sysdeps/...): not here
                continue
            if root and not f.startswith(root + os.sep):
                continue
            rel = os.path.relpath(f, root) if root else f
            if any(re.search(x, rel) for x in exclude):
                continue
            return rel, line, fn
    return None


def load_findings(path, root):
    """{(file, line): [(check, level), ...]} for the sync checks' findings in a torchlint --format=json
    file (level: warning, or remark for a sync on a rare path: a logging branch, an assert)."""
    with open(path) as f:
        data = json.load(f)
    found = collections.defaultdict(list)
    for fd in data.get("findings", []):
        if SYNC_CHECK.match(fd.get("check", "")):
            rel = os.path.relpath(os.path.realpath(fd["file"]), root) if root else fd["file"]
            found[(rel, int(fd["line"]))].append((fd["check"], fd.get("level", "warning")))
    return found


def main():
    ap = argparse.ArgumentParser(prog="torchlint trace", description=__doc__.split("\n\n")[0])
    ap.add_argument("--json", help="write the per-line result here")
    ap.add_argument("--raw", help="keep the preload library's raw counts here")
    ap.add_argument("--findings", help="torchlint --format=json output for the program's sources")
    ap.add_argument("--root", default=os.getcwd(), help="the user's source tree (default: the current directory)")
    ap.add_argument("--exclude", action="append", default=[],
                    help="regex on a source path (relative to --root) that is not the user's line (repeatable)")
    ap.add_argument("--preload", help="libtorchlint-trace.so (default: next to this script's build)")
    ap.add_argument("--symbolizer", default="llvm-symbolizer-19")
    ap.add_argument("--max-steps", type=int, metavar="N",
                    help="cut the run when step N+1 begins: the counts of N steps are written and the "
                         "program ends with exit status 0 (for programs that train for long)")
    ap.add_argument("--expect-agreement", action="store_true",
                    help="exit 5 when a line in the steps is runtime only or static only (needs --findings)")
    ap.add_argument("program", nargs=argparse.REMAINDER)
    a = ap.parse_args()
    prog = a.program[1:] if a.program[:1] == ["--"] else a.program
    if not prog:
        ap.print_usage(sys.stderr)
        error("no program to trace (torchlint trace [options] -- PROGRAM [ARGS...])")
    exe = shutil.which(prog[0]) or prog[0]
    if not os.path.isfile(exe) or not os.access(exe, os.X_OK):
        error(f"{prog[0]}: not an executable file")
    if not shutil.which(a.symbolizer):
        error(f"{a.symbolizer} not found (Debian: apt-get install llvm-19)")
    root = os.path.realpath(a.root)
    if a.max_steps is not None and a.max_steps < 1:
        error(f"--max-steps {a.max_steps}: expected a positive number of steps")

    libs = linked_libs(exe)
    if libs is None:
        error(f"{exe}: ldd cannot read it (not a dynamically linked program)")
    prog_torch = torch_libs(libs)
    if not prog_torch:
        error(f"{exe} is not linked against libtorch (ldd shows no libc10.so/libtorch_cpu.so): nothing to trace")
    missing = [k for k, v in prog_torch.items() if not v]
    if missing:
        error(f"{exe}: libtorch libraries not found by the loader: {', '.join(missing)}")
    preload = find_preload(a.preload)
    pre_torch = torch_libs(linked_libs(preload) or {})
    for so, path in pre_torch.items():
        if so in prog_torch and prog_torch[so] != path:
            error(f"ABI mismatch: {exe} uses {prog_torch[so]}, but {preload} was built against {path}; "
                  "rebuild the trace library against the program's libtorch "
                  "(cmake -DCMAKE_PREFIX_PATH=<its libtorch> ... && ninja torchlint-trace)")

    raw = a.raw or tempfile.mktemp(prefix="torchlint-trace-", suffix=".json")
    if os.path.exists(raw):
        os.unlink(raw)
    env = dict(os.environ, LD_PRELOAD=preload, TORCHLINT_TRACE_OUT=os.path.abspath(raw))
    env.pop("TORCHLINT_TRACE_MAX_STEPS", None)
    if a.max_steps:
        env["TORCHLINT_TRACE_MAX_STEPS"] = str(a.max_steps)
    p = subprocess.run([exe] + prog[1:], env=env)
    failed = None
    if p.returncode < 0:
        failed = f"killed by {signal.Signals(-p.returncode).name}"
    elif p.returncode != 0:
        failed = f"exit status {p.returncode}"
    if not os.path.exists(raw):
        error(f"the traced program wrote no counts ({failed or 'it did not exit normally'})", 4 if failed else 2)
    with open(raw) as f:
        data = json.load(f)
    if not data.get("complete", True):
        failed = f"crashed ({data.get('signal')})"
    cut = data["steps"] if data.get("cut") else None

    table = symbolize(a.symbolizer, data["sites"])
    steps = data["steps"]
    per = max(steps, 1)
    lines = collections.defaultdict(lambda: {"count": 0, "steps_seen": 0, "rules": collections.Counter(), "function": ""})
    unattributed = collections.Counter()
    for s in data["sites"]:
        u = user_line(s, table, root, a.exclude)
        if not u:
            unattributed[s["rule"]] += s["count"]
            continue
        L = lines[(u[0], u[1])]
        L["count"] += s["count"]
        L["steps_seen"] = min(L["steps_seen"] + s.get("steps_seen", 0), max(steps, 1))  # sites of a line: disjoint stacks
        L["rules"][s["rule"]] += s["count"]
        L["function"] = u[2]
    findings = load_findings(a.findings, root) if a.findings else {}

    rows = []
    for key in sorted(set(lines) | set(findings)):
        L = lines.get(key)
        checks = sorted(set(c for c, _ in findings.get(key, [])))
        levels = sorted(set(lv for _, lv in findings.get(key, [])))
        verdict = "confirmed" if L and checks else ("runtime only" if L else "static only")
        if L and steps and 2 * L["steps_seen"] < steps:
            # Ran in fewer than half of the steps: setup, per-epoch evaluation or logging, which
            # the checks leave alone on purpose (they report hot code); a finding there is in a
            # loop that is not the training step (an evaluation loop).
            verdict += ", outside the steps"
        if not a.findings and L:
            verdict = ""
        rows.append({"file": key[0], "line": key[1], "count": L["count"] if L else 0,
                     "per_step": round(L["count"] / per, 4) if L else 0.0,
                     "steps_seen": L["steps_seen"] if L else 0,
                     "rules": dict(L["rules"]) if L else {}, "function": L["function"] if L else "",
                     "static": checks, "static_levels": levels, "verdict": verdict})

    print(f"torchlint trace: {exe}: {data['syncs']} operators that would synchronise on CUDA, "
          f"{steps} steps ({data['step']}), {data['dispatches']} operator calls")
    w = max([len(f"{r['file']}:{r['line']}") for r in rows] + [11])
    print(f"{'source line':<{w}}  {'syncs/step':>10}  {'rule':<24}  static finding")
    for r in rows:
        rules = ", ".join(f"{k} {v}" if len(r["rules"]) > 1 else k for k, v in sorted(r["rules"].items()))
        static = ", ".join(r["static"]) or "-"
        tag = f"  [{r['verdict']}]" if r["verdict"] else ""
        print(f"{r['file'] + ':' + str(r['line']):<{w}}  {r['per_step']:>10.2f}  {rules or '-':<24}  {static}{tag}")
    if unattributed:
        print("not in the user's sources (no -g, or only library frames): " +
              ", ".join(f"{k} {v}" for k, v in sorted(unattributed.items())))
    if cut is not None:
        print(f"torchlint trace: the run was cut at {cut} steps (--max-steps); lines after the last step did not run")
    if failed:
        print(f"torchlint trace: the traced program failed ({failed}); the counts above are those up to the failure")
    if a.json:
        with open(a.json, "w") as f:
            json.dump({"program": os.path.relpath(exe, root) if exe.startswith(root) else exe,
                       "args": prog[1:], "torch_version": data.get("torch_version"), "steps": steps,
                       "step": data["step"], "syncs": data["syncs"], "dispatches": data["dispatches"],
                       "complete": not failed, "failure": failed, "cut_at_steps": cut, "lines": rows,
                       "unattributed": dict(unattributed)}, f, indent=1)
            f.write("\n")
    if not a.raw:
        os.unlink(raw)
    if failed:
        return 4
    if a.expect_agreement:
        bad = [r for r in rows if r["verdict"] in ("runtime only", "static only")]  # in the steps
        for r in bad:
            print(f"torchlint trace: {r['file']}:{r['line']}: {r['verdict']}")
        if bad or not a.findings:
            return 5
    return 0


if __name__ == "__main__":
    sys.exit(main())
