#!/usr/bin/env python3
"""Large-input benchmark for torchlint (issue 9): does the time grow linearly with the input?

Generates, at doubling sizes,
  * lines:    a translation unit of N lines (helpers calling helpers, training loops, modules,
              templates: the shapes the hot-code analysis walks), up to 20,000 lines;
  * findings: a file with N findings (N/2 fixable torch-create-then-move, N/2 torch-sync-item),
              up to 10,000 findings, analysed with text and JSON output and with --fix;
runs build/bin/torchlint on each (one process, -j 1), and prints the wall and CPU time and the ratio of CPU
time to the previous (half) size: ~2 is linear, ~4 would be quadratic.

By default the inputs include the stub <torch/torch.h> (fuzz/stubs/torch_mini.h) so the numbers
measure torchlint, not the ~10 s parse of the real libtorch headers; --real uses the bundled
libtorch 2.x headers instead (adds a constant per run).

  tools/bench_large_input.py [--torchlint build/bin/torchlint] [--real] [--max-lines 20000]
                             [--max-findings 10000] [--repeat 1] [--markdown]

A benchmark, not a test: it never fails on a timing; it prints numbers (and a markdown table with
--markdown, as pasted into docs/reliability.md).
"""
import argparse
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def gen_lines(n):
    """About n lines of training-like code."""
    out = ["#include <torch/torch.h>", ""]
    i = 0
    while len(out) < n - 30:
        out += [
            f"static torch::Tensor helper{i}(const torch::Tensor &x, int k) {{",
            f"  torch::Tensor y = x * 2.0;",
            f"  for (int j = 0; j < k; ++j) {{",
            f"    y = y + x;",
            f"    if (j % 3 == 0) y = torch::relu(y);",
            f"  }}",
            f"  return {'helper%d(y, k - 1)' % (i - 1) if i else 'y'};",
            f"}}",
            f"struct Net{i} : torch::nn::Module {{",
            f"  torch::Tensor w = torch::zeros({{4}});",
            f"  torch::Tensor forward(torch::Tensor x) {{ return helper{i}(x, 2) * w; }}",
            f"}};",
            f"template <class T> T read{i}(const torch::Tensor &t) {{ return t.template item<T>(); }}",
            f"static void setup{i}() {{",
            f"  auto once = torch::ones({{2}}).cpu();",
            f"  (void)once;",
            f"}}",
            "",
        ]
        i += 1
    out += ["int main() {", "  torch::Tensor acc = torch::zeros({1});"]
    out += [f"  setup{j}();" for j in range(0, i, max(1, i // 8))]
    out += ["  for (int step = 0; step < 100; ++step) {", "    torch::Tensor x = torch::randn({4});"]
    out += [f"    acc += Net{j}().forward(helper{j}(x, 3));" for j in range(0, i, max(1, i // 8))]
    out += ["  }", "  return 0;", "}", ""]
    return "\n".join(out), i


def gen_findings(n):
    """n findings: half fixable create-then-move, half item() in the loop."""
    out = ["#include <torch/torch.h>", "int main() {", "  float total = 0;", "  for (int i = 0; i < 10; ++i) {"]
    for j in range(n // 2):
        out.append(f"    auto x{j} = torch::rand({{4}}).cuda();")
        out.append(f"    total += x{j}.sum().item<float>();")
    out += ["  }", "  return total > 0;", "}", ""]
    return "\n".join(out)


def flags(args, tmp):
    if args.real:
        inc = os.path.join(ROOT, ".deps", "libtorch-2", "include")
        return ["-std=c++20", "-isystem", inc, "-isystem", os.path.join(inc, "torch/csrc/api/include")]
    stub = os.path.join(tmp, "include")
    os.makedirs(os.path.join(stub, "torch"), exist_ok=True)
    shutil.copy(os.path.join(ROOT, "fuzz", "stubs", "torch_mini.h"), os.path.join(stub, "torchlint_mini.h"))
    with open(os.path.join(stub, "torch", "torch.h"), "w") as f:
        f.write("#pragma once\n#include <torchlint_mini.h>\n")
    return ["-std=c++17", "-nostdinc", "-isystem", stub]


def run(args, cmd, repeat):
    """Best (wall seconds, CPU seconds) over repeat runs. CPU time (user+sys of the child) is the
    number to read on a loaded machine: wall time there measures the other processes too."""
    best = None
    rc = None
    for _ in range(repeat):
        c0 = resource.getrusage(resource.RUSAGE_CHILDREN)
        t0 = time.perf_counter()
        p = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        dt = time.perf_counter() - t0
        c1 = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = (c1.ru_utime - c0.ru_utime) + (c1.ru_stime - c0.ru_stime)
        rc = p.returncode
        if rc not in (0, 1):
            sys.exit(f"torchlint failed (exit {rc}) on {cmd}:\n{p.stderr[-2000:]}")
        best = (dt, cpu) if best is None else min(best, (dt, cpu), key=lambda x: x[1])
    return best, rc


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--torchlint", default=os.path.join(ROOT, "build", "bin", "torchlint"))
    ap.add_argument("--real", action="store_true", help="parse the real libtorch 2.x headers")
    ap.add_argument("--max-lines", type=int, default=20000)
    ap.add_argument("--max-findings", type=int, default=10000)
    ap.add_argument("--repeat", type=int, default=1, help="runs per size; the best is kept")
    ap.add_argument("--markdown", action="store_true")
    args = ap.parse_args()
    tl = args.torchlint
    rows = []
    with tempfile.TemporaryDirectory(prefix="torchlint-bench-") as tmp:
        fl = flags(args, tmp)
        base = [tl, "-j", "1", "--quiet", "--checks=-*,torch-*"]

        def sizes(top):
            s = [top]
            while s[-1] > top // 8:
                s.append(s[-1] // 2)
            return sorted(s)

        prev = None
        for n in sizes(args.max_lines):
            src, _ = gen_lines(n)
            path = os.path.join(tmp, f"lines{n}.cpp")
            with open(path, "w") as f:
                f.write(src)
            lines = src.count("\n")
            (dt, cpu), _ = run(args, base + [path, "--"] + fl, args.repeat)
            rows.append(("TU lines", lines, "analyse (text)", dt, cpu, cpu / prev if prev else None))
            prev = cpu

        for mode in ("text", "json", "fix"):
            prev = None
            for n in sizes(args.max_findings):
                path = os.path.join(tmp, f"findings{n}.cpp")
                src = gen_findings(n)
                with open(path, "w") as f:
                    f.write(src)
                extra = ["--format=json"] if mode == "json" else ["--fix"] if mode == "fix" else []
                (dt, cpu), _ = run(args, base + extra + [path, "--"] + fl, 1 if mode == "fix" else args.repeat)
                if mode == "fix":
                    fixed = open(path).read()
                    left = fixed.count(".cuda()")
                    if left:
                        sys.exit(f"--fix left {left} of {n // 2} fixable findings in {path}")
                rows.append(("findings", n, mode if mode != "fix" else "--fix (writes N/2 fixes)", dt, cpu,
                             cpu / prev if prev else None))
                prev = cpu

    hdr = ("input", "size", "mode", "wall s", "CPU s", "CPU x previous (2x size)")
    if args.markdown:
        print("| " + " | ".join(hdr) + " |")
        print("|" + "---|" * len(hdr))
        for r in rows:
            print(f"| {r[0]} | {r[1]} | {r[2]} | {r[3]:.2f} | {r[4]:.2f} | {'' if r[5] is None else f'{r[5]:.2f}'} |")
    else:
        print(f"{hdr[0]:<10} {hdr[1]:>7} {hdr[2]:<26} {hdr[3]:>8} {hdr[4]:>8} {hdr[5]}")
        for r in rows:
            print(f"{r[0]:<10} {r[1]:>7} {r[2]:<26} {r[3]:>8.2f} {r[4]:>8.2f} {'' if r[5] is None else f'{r[5]:.2f}'}")
    print(f"\n# {tl}, {'real libtorch headers' if args.real else 'stub headers'}, -j 1, best of {args.repeat}",
          file=sys.stderr)


if __name__ == "__main__":
    main()
