#!/usr/bin/env python3
"""Benchmark of the report writers: `torchlint merge` of a synthetic JSON result with many findings
into SARIF, HTML and Markdown (fingerprints, snippets, fix diffs included; no parsing of C++).

  tools/bench_reports.py build/bin/torchlint [--files 50] [--per-file 200]
"""
import argparse
import json
import os
import shutil
import subprocess
import tempfile
import time


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("torchlint")
    ap.add_argument("--files", type=int, default=50)
    ap.add_argument("--per-file", type=int, default=200)
    ap.add_argument("--reps", type=int, default=3)
    a = ap.parse_args()
    a.torchlint = os.path.abspath(a.torchlint)
    d = tempfile.mkdtemp(prefix="torchlint-bench-")
    try:
        findings = []
        for f in range(a.files):
            path = os.path.join(d, "src", "f%03d.cpp" % f)
            os.makedirs(os.path.dirname(path), exist_ok=True)
            text, lines = "", 0
            for i in range(a.per_file):
                head = "float step%d(at::Tensor loss, int n) {\n  float total = 0;\n  for (int i = 0; i < n; ++i) {\n" % i
                body = "    total += loss.item<float>();\n"
                x = "    auto x = torch::rand({8}).cuda();\n"
                tail = "  }\n  return total;\n}\n\n"
                off_item = len(text) + len(head) + body.index("loss")
                off_x = len(text) + len(head) + len(body) + x.index("torch::rand")
                findings.append({"check": "torch-sync-item", "level": "warning", "message": "item() syncs",
                                 "file": path, "line": lines + 4, "column": 14, "offset": off_item, "notes": [], "fixes": []})
                findings.append({"check": "torch-create-then-move", "level": "warning", "message": "create then move",
                                 "file": path, "line": lines + 5, "column": 14, "offset": off_x, "notes": [],
                                 "fixes": [{"file": path, "offset": off_x, "length": len("torch::rand({8}).cuda()"),
                                            "replacement": "torch::rand({8}, torch::TensorOptions().device(torch::kCUDA))"}]})
                text += head + body + x + tail
                lines += (head + body + x + tail).count("\n")
            with open(path, "w") as fh:
                fh.write(text)
        inp = os.path.join(d, "in.json")
        with open(inp, "w") as fh:
            json.dump({"tool": "torchlint", "files_analyzed": a.files, "findings": findings, "errors": []}, fh)
        print("%d findings in %d files of %d lines" % (len(findings), a.files, lines))
        for ext in ("json", "sarif", "html", "md"):
            out = os.path.join(d, "out." + ext)
            best = None
            for _ in range(a.reps):
                t = time.perf_counter()
                p = subprocess.run([a.torchlint, "merge", out, inp], cwd=d, capture_output=True)
                dt = time.perf_counter() - t
                assert p.returncode == 1, p.stderr
                best = dt if best is None else min(best, dt)
            print("merge -> %-5s %7.3f s (best of %d), %6.1f MB" % (ext, best, a.reps, os.path.getsize(out) / 1e6))
    finally:
        shutil.rmtree(d, ignore_errors=True)


if __name__ == "__main__":
    main()
