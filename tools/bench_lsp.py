#!/usr/bin/env python3
"""`torchlint lsp` latency benchmark (issue 18; a benchmark, not a test: it measures, it does not judge).

Starts `torchlint lsp`, opens a libtorch translation unit (default: a copy of examples/train.cpp,
which includes <torch/torch.h>) and, once the precompiled libtorch header and the caches are warm,
times from the client's notification to the server's textDocument/publishDiagnostics for that
version:

  edit+save   didChange with new text, immediately followed by didSave (the save overtakes the
              debounce): a full analysis of the new text, with the PCH reused. The number that
              matters: what a user waits for after saving an edited file.
  save        didSave of text already analysed while typing (the debounced analysis ran): the
              result is reused from memory.
  reopen      a new server opens the unchanged file: the CLI's result cache (on disk) answers.

The machine may be shared: besides the wall times it prints the server's CPU time for each
edit+save (user + system, /proc/PID/stat; the analysis runs on one thread) and the load average.

Each edit appends a different comment line at the end of the file, so that every analysis is a real
one (no cached result), while the leading #include block (the PCH) is unchanged.

usage: tools/bench_lsp.py [--build BUILD] [--runs N] [--cache-dir DIR] [FILE.cpp]
"""
import argparse
import json
import os
import queue
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


class Server:
    def __init__(self, cmd):
        self.p = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        self.q = queue.Queue()
        self.stderr = []
        self.id = 0
        threading.Thread(target=self._read, daemon=True).start()
        threading.Thread(target=lambda: self.stderr.extend(self.p.stderr), daemon=True).start()

    def _read(self):
        while True:
            n = None
            while True:
                line = self.p.stdout.readline()
                if not line:
                    self.q.put(None)
                    return
                line = line.strip()
                if not line:
                    break
                k, _, v = line.decode().partition(":")
                if k.lower() == "content-length":
                    n = int(v)
            body = self.p.stdout.read(n)
            t = time.perf_counter()
            self.q.put((t, json.loads(body), self.cpu()))

    def send(self, obj):
        b = json.dumps(obj).encode()
        self.p.stdin.write(b"Content-Length: %d\r\n\r\n" % len(b) + b)
        self.p.stdin.flush()
        return time.perf_counter()

    def cpu(self):
        """CPU seconds (user + system) the server has used so far."""
        try:
            with open("/proc/%d/stat" % self.p.pid) as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except OSError:
            return 0.0
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def notify(self, method, params):
        return self.send({"jsonrpc": "2.0", "method": method, "params": params})

    def request(self, method, params):
        self.id += 1
        self.send({"jsonrpc": "2.0", "id": self.id, "method": method, "params": params})
        return self.wait(lambda m: m.get("id") == self.id)[1]

    def wait(self, pred, timeout=600):
        end = time.time() + timeout
        while True:
            item = self.q.get(timeout=max(0.1, end - time.time()))
            if item is None:
                sys.exit("torchlint lsp exited: " + b"".join(self.stderr).decode(errors="replace"))
            if pred(item[1]):
                return item

    def diagnostics(self, uri, version):
        return self.wait(lambda m: m.get("method") == "textDocument/publishDiagnostics"
                         and m["params"]["uri"] == uri and m["params"].get("version") == version)

    def stop(self):
        self.request("shutdown", None)
        self.notify("exit", None)
        self.p.wait(timeout=30)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--runs", type=int, default=7)
    ap.add_argument("--cache-dir", help="default: the CLI's (~/.cache/torchlint)")
    ap.add_argument("file", nargs="?", default=os.path.join(ROOT, "examples", "train.cpp"))
    a = ap.parse_args()
    torchlint = os.path.join(a.build, "bin", "torchlint")
    work = tempfile.mkdtemp(prefix="torchlint-bench-lsp-")
    path = os.path.join(work, os.path.basename(a.file))
    shutil.copy(a.file, path)
    with open(path) as f:
        base = f.read()
    uri = "file://" + urllib.parse.quote(path)
    # One file's latency: no background index of the copy's project competing for the cores.
    cmd = [torchlint, "lsp", "--background-index=false"] + (["--cache-dir=" + a.cache_dir] if a.cache_dir else [])
    try:
        s = Server(cmd)
        s.request("initialize", {"processId": os.getpid(), "rootUri": None, "capabilities": {}})
        s.notify("initialized", {})
        t0 = s.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "cpp", "version": 1,
                                                                "text": base}})
        t1, m, _ = s.diagnostics(uri, 1)
        print("open (PCH built or reused, no cached result for the copy's path): %.2f s, %d diagnostics"
              % (t1 - t0, len(m["params"]["diagnostics"])))
        version = 1
        edit_save, edit_save_cpu, save = [], [], []
        for i in range(a.runs + 1):  # the first edit warms up
            time.sleep(1)  # the caches of the previous analysis are filled after its publication
            version += 1
            text = base + "// edit %d at %f\n" % (i, time.time())
            with open(path, "w") as f:
                f.write(text)
            s.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": version},
                                                "contentChanges": [{"text": text}]})
            c0 = s.cpu()
            t0 = s.notify("textDocument/didSave", {"textDocument": {"uri": uri}, "text": text})
            t1, m, c1 = s.diagnostics(uri, version)
            if i:
                edit_save.append(t1 - t0)
                edit_save_cpu.append(c1 - c0)
            # A save of what was analysed already.
            time.sleep(1)
            t0 = s.notify("textDocument/didSave", {"textDocument": {"uri": uri}, "text": text})
            t1, m, _ = s.diagnostics(uri, version)
            if i:
                save.append(t1 - t0)
        ndiag = len(m["params"]["diagnostics"])
        s.stop()
        # A new server: the result cache on disk answers for the unchanged file.
        s = Server(cmd)
        s.request("initialize", {"processId": os.getpid(), "rootUri": None, "capabilities": {}})
        t0 = s.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "cpp", "version": 1,
                                                                "text": text}})
        t1, _, _ = s.diagnostics(uri, 1)
        reopen = t1 - t0
        s.stop()
    finally:
        shutil.rmtree(work, ignore_errors=True)

    def stats(xs):
        return "median %.2f s, min %.2f s, max %.2f s (%d runs)" % (statistics.median(xs), min(xs), max(xs), len(xs))
    print("file: %s (%d diagnostics)" % (a.file, ndiag))
    print("edit+save -> publishDiagnostics: " + stats(edit_save))
    print("  CPU time of the server for it: " + stats(edit_save_cpu) +
          " (the wall time on an otherwise idle machine)")
    print("save (already analysed) -> publishDiagnostics: " + stats(save))
    print("reopen in a new server (result cache) -> publishDiagnostics: %.3f s" % reopen)
    print("machine: %d cores, load average %.2f %.2f %.2f" % ((os.cpu_count() or 0,) + os.getloadavg()))


if __name__ == "__main__":
    main()
