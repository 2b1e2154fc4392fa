#!/usr/bin/env python3
"""Protocol-level tests of `torchlint lsp` (issue 18), driven by ctest.

Each test starts the server, speaks LSP 3.17 to it over pipes, and checks the answers: the error
paths (malformed JSON, a bad header, unknown methods, requests before initialize and after
shutdown, a file that does not parse, a missing or broken compile database) and, on a small
training loop against the fuzzer's stub <torch/torch.h> (fuzz/stubs/torch_mini.h: no libtorch parse,
well under a second per analysis), the diagnostics and code actions compared with the CLI's.

Environment: TORCHLINT (the CLI), TORCHLINT_SOURCE_DIR (the repository).
"""
import json
import os
import queue
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import unittest
import urllib.parse

TORCHLINT = os.environ.get("TORCHLINT", "")
SOURCE_DIR = os.environ.get("TORCHLINT_SOURCE_DIR",
                            os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
MINI = os.path.join(SOURCE_DIR, "fuzz", "stubs", "torch_mini.h")

# One torch-sync-item finding (line 6) and one fixable torch-create-then-move finding (line 5).
TRAIN = """\
#include <torch/torch.h>
int main() {
  float total = 0;
  for (int i = 0; i < 10; ++i) {
    auto x = torch::ones({4}).cuda();
    total += x.sum().item<float>();
  }
  return total > 0;
}
"""
CLEAN = """\
#include <torch/torch.h>
int main() {
  float total = 0;
  for (int i = 0; i < 10; ++i)
    total += i;
  return total > 0;
}
"""
BROKEN = TRAIN.replace("total += x", "total += = x")

TIMEOUT = 60


def uri(path):
    return "file://" + urllib.parse.quote(path)


def apply_edits(text, edits):
    """Applies LSP TextEdits (UTF-16 positions; our texts are ASCII) to text."""
    lines = text.split("\n")
    starts = [0]
    for l in lines[:-1]:
        starts.append(starts[-1] + len(l) + 1)

    def off(p):
        if p["line"] >= len(starts):
            return len(text)
        return min(starts[p["line"]] + p["character"], len(text))
    for e in sorted(edits, key=lambda e: off(e["range"]["start"]), reverse=True):
        text = text[:off(e["range"]["start"])] + e["newText"] + text[off(e["range"]["end"]):]
    return text


class Client:
    def __init__(self, args=(), cwd=None, server_default=False):
        # The background index is on by default; the tests that are not about it decide each file
        # alone (no index process racing their expectations).
        if not server_default and not any(a.startswith("--background-index") for a in args):
            args = ["--background-index=false", *args]
        self.proc = subprocess.Popen([TORCHLINT, "lsp", *args], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, cwd=cwd)
        self.messages = queue.Queue()
        self.stderr = []
        self.next_id = 1
        self.backlog = []
        threading.Thread(target=self._read, daemon=True).start()
        self.stderr_reader = threading.Thread(target=lambda: self.stderr.extend(self.proc.stderr), daemon=True)
        self.stderr_reader.start()

    def _read(self):
        out = self.proc.stdout
        while True:
            headers = {}
            while True:
                line = out.readline()
                if not line:
                    self.messages.put(None)
                    return
                line = line.strip()
                if not line:
                    break
                k, _, v = line.decode().partition(":")
                headers[k.strip().lower()] = v.strip()
            body = out.read(int(headers["content-length"]))
            self.messages.put(json.loads(body))

    def send_raw(self, body):
        if isinstance(body, str):
            body = body.encode()
        self.proc.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.proc.stdin.flush()

    def send(self, obj):
        self.send_raw(json.dumps(obj))

    def notify(self, method, params=None):
        m = {"jsonrpc": "2.0", "method": method}
        if params is not None:
            m["params"] = params
        self.send(m)

    def request_async(self, method, params=None):
        i = self.next_id
        self.next_id += 1
        m = {"jsonrpc": "2.0", "id": i, "method": method}
        if params is not None:
            m["params"] = params
        self.send(m)
        return i

    def wait(self, pred, timeout=TIMEOUT, what="message"):
        for i, m in enumerate(self.backlog):
            if pred(m):
                return self.backlog.pop(i)
        end = time.time() + timeout
        while True:
            left = end - time.time()
            if left <= 0:
                raise AssertionError("timed out waiting for %s; got %r\nstderr: %s" %
                                     (what, self.backlog, b"".join(self.stderr).decode(errors="replace")))
            try:
                m = self.messages.get(timeout=left)
            except queue.Empty:
                continue
            if m is None:
                raise AssertionError("server exited (rc %r) while waiting for %s; stderr: %s" %
                                     (self.proc.wait(), what, b"".join(self.stderr).decode(errors="replace")))
            if pred(m):
                return m
            self.backlog.append(m)

    def response(self, i):
        return self.wait(lambda m: m.get("id") == i and "method" not in m, what="response %r" % i)

    def request(self, method, params=None):
        return self.response(self.request_async(method, params))

    def diagnostics(self, path, version=None):
        def pred(m):
            return (m.get("method") == "textDocument/publishDiagnostics" and m["params"]["uri"] == uri(path)
                    and (version is None or m["params"].get("version") == version))
        return self.wait(pred, what="diagnostics for %s version %r" % (path, version))["params"]

    def initialize(self, options=None):
        r = self.request("initialize", {"processId": os.getpid(), "rootUri": None, "capabilities": {},
                                        **({"initializationOptions": options} if options else {})})
        self.notify("initialized", {})
        return r

    def open(self, path, text, version=1):
        self.notify("textDocument/didOpen", {"textDocument": {"uri": uri(path), "languageId": "cpp",
                                                              "version": version, "text": text}})

    def change(self, path, text, version):
        self.notify("textDocument/didChange", {"textDocument": {"uri": uri(path), "version": version},
                                               "contentChanges": [{"text": text}]})

    def stop(self):
        if self.proc.poll() is None:
            r = self.request("shutdown")
            assert r.get("result", "missing") is None, r
            self.notify("exit")
        try:
            rc = self.proc.wait(timeout=30)
            self.stderr_reader.join(timeout=10)
            return rc
        finally:
            for s in (self.proc.stdin, self.proc.stdout, self.proc.stderr):
                try:
                    s.close()
                except Exception:
                    pass


class Base(unittest.TestCase):
    def setUp(self):
        if not TORCHLINT or not os.path.exists(TORCHLINT):
            self.fail("TORCHLINT must name the torchlint binary (got %r)" % TORCHLINT)
        self.dir = os.path.realpath(tempfile.mkdtemp(prefix="torchlint-lsp-"))
        self.cache = os.path.join(self.dir, "cache")
        self.clients = []
        with open(MINI) as f:
            self.write("include/torchlint_mini.h", f.read())
        for h in ("torch/torch.h", "iostream", "vector"):
            self.write("include/" + h, "#pragma once\n#include <torchlint_mini.h>\n")

    def tearDown(self):
        for c in self.clients:
            if c.proc.poll() is None:
                c.proc.kill()
                c.proc.wait()
            for s in (c.proc.stdin, c.proc.stdout, c.proc.stderr):
                try:
                    s.close()
                except Exception:
                    pass
        shutil.rmtree(self.dir, ignore_errors=True)

    def write(self, name, text):
        path = os.path.join(self.dir, name)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w") as f:
            f.write(text)
        return path

    def flags(self):
        return ["-std=c++17", "-nostdinc", "-isystem", os.path.join(self.dir, "include")]

    def write_database(self, sub, files):
        entries = [{"directory": os.path.join(self.dir, sub), "file": f,
                    "arguments": ["clang++", *self.flags(), "-c", f]} for f in files]
        return self.write(os.path.join(sub, "compile_commands.json"), json.dumps(entries))

    def client(self, *args):
        c = Client(["--cache-dir=" + self.cache, *args], cwd=self.dir)
        self.clients.append(c)
        return c

    def expect_train_findings(self, path, init=None):
        """A new server (initialized with init) opens path, which holds TRAIN: its two findings."""
        c = self.client()
        c.initialize(init)
        c.open(path, TRAIN)
        d = c.diagnostics(path)["diagnostics"]
        self.assertEqual(["torch-create-then-move", "torch-sync-item"], sorted(x["code"] for x in d))
        self.assertEqual(0, c.stop())

    def cli_json_db(self, path):
        p = subprocess.run([TORCHLINT, "--format=json", "--cache-dir=" + self.cache, path], capture_output=True, text=True)
        return json.loads(p.stdout)

    def cli_json(self, path):
        # --no-cache: the server must analyse the file itself, not find the CLI's result.
        p = subprocess.run([TORCHLINT, "--format=json", "--no-cache", "--cache-dir=" + self.cache, path, "--",
                            *self.flags()],
                           capture_output=True, text=True)
        self.assertIn(p.returncode, (0, 1), p.stderr)
        return json.loads(p.stdout)


class ErrorPaths(Base):
    def test_bad_input_never_kills_the_server(self):
        c = self.client()
        # Before initialize: an error, not a crash.
        r = c.request("textDocument/codeAction", {})
        self.assertEqual(-32002, r["error"]["code"], r)
        # Malformed JSON: a parse error with a null id.
        c.send_raw("{this is not json")
        r = c.wait(lambda m: "error" in m and m["error"]["code"] == -32700, what="parse error")
        self.assertIsNone(r["id"])
        self.assertIn("malformed JSON", r["error"]["message"])
        # A header block without Content-Length.
        c.proc.stdin.write(b"Content-Type: application/vscode-jsonrpc\r\n\r\n")
        c.proc.stdin.flush()
        r = c.wait(lambda m: "error" in m and m["error"]["code"] == -32700 and "Content-Length" in m["error"]["message"],
                   what="header error")
        # Valid JSON that is not a JSON-RPC message.
        c.send_raw("[1, 2, 3]")
        r = c.wait(lambda m: "error" in m and m["error"]["code"] == -32600, what="invalid request")
        # Still serving.
        r = c.initialize()
        caps = r["result"]["capabilities"]
        self.assertEqual(1, caps["textDocumentSync"]["change"])
        self.assertTrue(caps["textDocumentSync"]["openClose"])
        self.assertIn("quickfix", caps["codeActionProvider"]["codeActionKinds"])
        self.assertEqual("torchlint", r["result"]["serverInfo"]["name"])
        # initialize twice.
        self.assertEqual(-32600, c.request("initialize", {"capabilities": {}})["error"]["code"])
        # Unknown request: MethodNotFound; unknown notification: ignored.
        r = c.request("torchlint/noSuchMethod", {"x": 1})
        self.assertEqual(-32601, r["error"]["code"])
        self.assertIn("torchlint/noSuchMethod", r["error"]["message"])
        c.notify("$/noSuchNotification", {})
        c.notify("workspace/didChangeConfiguration", {"settings": {}})
        # Bad params: an error response (requests) or a logged error (notifications).
        r = c.request("textDocument/codeAction", {"textDocument": {"uri": uri(self.dir + "/x.cpp")}})
        self.assertEqual(-32602, r["error"]["code"])
        r = c.request("textDocument/codeAction", {"textDocument": {"uri": "https://example.com/x.cpp"},
                                                  "range": {"start": {"line": 0, "character": 0},
                                                            "end": {"line": 0, "character": 0}}})
        self.assertEqual(-32602, r["error"]["code"])
        self.assertIn("not a file URI", r["error"]["message"])
        r = c.request("textDocument/codeAction", [1, 2])
        self.assertEqual(-32602, r["error"]["code"])
        c.notify("textDocument/didOpen", {"textDocument": {"uri": "untitled:1", "text": "x"}})
        m = c.wait(lambda m: m.get("method") == "window/logMessage" and "not a file URI" in m["params"]["message"],
                   what="logMessage")
        self.assertEqual(1, m["params"]["type"])
        c.notify("textDocument/didChange", {"textDocument": {"uri": uri(self.dir + "/never-opened.cpp"),
                                                             "version": 2}, "contentChanges": [{"text": ""}]})
        c.wait(lambda m: m.get("method") == "window/logMessage" and "not open" in m["params"]["message"])
        # shutdown, then requests are refused, then exit with 0.
        self.assertIsNone(c.request("shutdown")["result"])
        self.assertEqual(-32600, c.request("textDocument/codeAction", {})["error"]["code"])
        c.notify("exit")
        self.assertEqual(0, c.proc.wait(timeout=30))

    def test_exit_without_shutdown_is_code_1(self):
        c = self.client()
        c.initialize()
        c.notify("exit")
        self.assertEqual(1, c.proc.wait(timeout=30))

    def test_end_of_input_ends_the_server(self):
        c = self.client()
        c.initialize()
        c.proc.stdin.close()
        self.assertEqual(1, c.proc.wait(timeout=30))

    def test_unknown_argument(self):
        p = subprocess.run([TORCHLINT, "lsp", "--no-such-flag"], capture_output=True, text=True)
        self.assertEqual(2, p.returncode)
        self.assertIn("unknown argument", p.stderr)
        p = subprocess.run([TORCHLINT, "lsp", "--help"], capture_output=True, text=True)
        self.assertEqual(0, p.returncode)
        self.assertIn("--compile-commands-dir", p.stdout)

    def test_a_file_that_does_not_parse(self):
        f = self.write("proj/broken.cpp", BROKEN)
        self.write_database("proj", [f])
        c = self.client()
        c.initialize()
        c.open(f, BROKEN)
        d = c.diagnostics(f)
        # One error says why (the findings before the error are the CLI's: it reports them too).
        errors = [x for x in d["diagnostics"] if x["severity"] == 1]
        self.assertEqual(1, len(errors), d)
        e = errors[0]
        self.assertEqual("clang-diagnostic-error", e["code"])
        cli = self.cli_json_db(f)
        self.assertEqual(sorted(x["check"] for x in cli["findings"]), sorted(x["code"] for x in d["diagnostics"]))
        self.assertIn("does not parse", e["message"])
        self.assertEqual(5, e["range"]["start"]["line"])  # where clang stopped
        # Fixed in the buffer: the findings appear (the server is still alive and analysing).
        c.change(f, TRAIN, 2)
        d = c.diagnostics(f, 2)
        self.assertEqual(["torch-create-then-move", "torch-sync-item"], sorted(x["code"] for x in d["diagnostics"]))
        self.assertEqual(0, c.stop())

    def test_compile_database_missing_or_broken(self):
        f = self.write("proj/a.cpp", "int main() { return 0; }\n")
        # --compile-commands-dir names a directory without one: a diagnostic says so; the file is
        # analysed with the default flags anyway.
        c = self.client("--compile-commands-dir=" + os.path.join(self.dir, "nowhere"))
        c.initialize()
        c.open(f, "int main() { return 0; }\n")
        d = c.diagnostics(f)["diagnostics"]
        self.assertEqual(1, len(d), d)
        self.assertEqual("torchlint-compile-database", d[0]["code"])
        self.assertIn("no compile_commands.json in --compile-commands-dir", d[0]["message"])
        self.assertIn("using torchlint's default flags", d[0]["message"])
        self.assertEqual(0, c.stop())
        # A compile_commands.json that is not JSON.
        self.write("proj/compile_commands.json", "{ not json")
        c = self.client()
        c.initialize()
        c.open(f, "int main() { return 0; }\n")
        d = c.diagnostics(f)["diagnostics"]
        self.assertEqual(1, len(d), d)
        self.assertIn("cannot read the compilation database", d[0]["message"])
        self.assertIn(os.path.join(self.dir, "proj", "compile_commands.json"), d[0]["message"])
        self.assertEqual(0, c.stop())
        # None at all: clangd's fallback, said once in the log; no diagnostic.
        os.remove(os.path.join(self.dir, "proj", "compile_commands.json"))
        c = self.client()
        c.initialize()
        c.open(f, "int main() { return 0; }\n")
        self.assertEqual([], c.diagnostics(f)["diagnostics"])
        m = c.wait(lambda m: m.get("method") == "window/logMessage" and "no compile_commands.json" in m["params"]["message"])
        self.assertIn("torchlint's default flags", m["params"]["message"])
        # ... and when the analysis fails for want of a header (code that even synthesised
        # declarations cannot type is left unjudged), the diagnostic says which flags were guessed.
        # (A libtorch header that the guessed libtorch lacks is a header of another version, skipped
        # with a note and no diagnostic: the reliability test LibtorchHeaderOfAnotherVersion.)
        text = ("#include <cfg/cfg.h>\n"
                "void train(int n) { for (int i = 0; i < n; ++i) { auto [a, b] = cfg::pair(i); (void)a; (void)b; } }\n"
                "int main() { train(3); }\n")
        g = self.write("proj/b.cpp", text)
        c.open(g, text)
        d = c.diagnostics(g)["diagnostics"]
        self.assertEqual(1, len(d), d)
        self.assertEqual((2, "torchlint-input"), (d[0]["severity"], d[0]["code"]))
        self.assertIn("analysed partially: header not found: 'cfg/cfg.h'", d[0]["message"])
        self.assertIn("code not judged in train()", d[0]["message"])
        self.assertIn("no compile_commands.json or compile_flags.txt was found above this file", d[0]["message"])
        self.assertEqual(0, c.stop())


class CompileFlags(Base):
    def test_compile_flags_txt(self):
        f = self.write("flags/src/train.cpp", TRAIN)
        self.write("flags/compile_flags.txt", "\n".join(self.flags()) + "\n")
        self.expect_train_findings(f)

    def test_database_named_in_initialization_options(self):
        f = self.write("elsewhere/train.cpp", TRAIN)
        self.write_database("db", [f])
        self.expect_train_findings(f, {"compilationDatabasePath": os.path.join(self.dir, "db")})


class Discovery(Base):
    def test_database_in_a_build_folder_of_the_repository(self):
        # Where the CLI finds it (cli/ProjectFlags.h findCompileDatabase): a cmake-build-*/ folder of
        # the repository root that lists the file, two folders above it.
        os.makedirs(os.path.join(self.dir, "repo", ".git"))
        f = self.write("repo/src/core/train.cpp", TRAIN)
        self.write_database("repo/cmake-build-release", [f])
        self.expect_train_findings(f)

    def test_a_database_rewritten_while_the_server_runs_is_read_again(self):
        # CMake re-run while the editor is open: the build folder's database did not list the file
        # (the server used its guessed flags), now it does. The next analysis uses the new database
        # (one parse shared with the discovery, cli/CompileDatabase.h, read again once it changes).
        os.makedirs(os.path.join(self.dir, "rerun", ".git"))
        text = "#ifdef FROM_DB\n" + TRAIN + "#endif\n"  # without the database's flags, no code
        f = self.write("rerun/src/train.cpp", text)
        other = self.write("rerun/src/other.cpp", "int other() { return 0; }\n")
        self.write_database("rerun/build", [other])
        c = self.client()
        c.initialize()
        c.open(f, text)
        first = c.diagnostics(f, 1)["diagnostics"]
        self.assertNotIn("torch-sync-item", [x["code"] for x in first])
        entries = [{"directory": os.path.join(self.dir, "rerun", "build"), "file": p,
                    "arguments": ["clang++", *self.flags(), "-DFROM_DB", "-c", p]} for p in (other, f)]
        self.write("rerun/build/compile_commands.json", json.dumps(entries, indent=1))
        c.change(f, text, 2)
        d = c.diagnostics(f, 2)["diagnostics"]
        self.assertEqual(["torch-create-then-move", "torch-sync-item"], sorted(x["code"] for x in d), d)
        self.assertEqual(0, c.stop())

    def test_cuda_file_is_analysed_as_host_code(self):
        # A .cu file (cli/CudaHost.h): parsed as CUDA host code without a toolkit, as the CLI does;
        # the kernel is not judged, the per-step item() in the host code is.
        text = "__global__ void k(float *x) { x[threadIdx.x] *= 2.f; }\n" + TRAIN
        # The stub libtorch, with the system's C headers (the CUDA host header needs stddef.h).
        os.makedirs(os.path.join(self.dir, "cu", ".git"))
        f = self.write("cu/src/glue.cu", text)
        self.write(os.path.join("cu", "build", "compile_commands.json"), json.dumps([
            {"directory": os.path.join(self.dir, "cu", "build"), "file": f,
             "arguments": ["clang++", "-std=c++17", "-isystem", os.path.join(self.dir, "include"), "-c", f]}]))
        c = self.client()
        c.initialize()
        c.open(f, text)
        d = c.diagnostics(f)["diagnostics"]
        self.assertIn("torch-sync-item", [x["code"] for x in d], d)
        self.assertNotIn("torchlint-input", [x["code"] for x in d], d)
        self.assertEqual(0, c.stop())


class BackgroundIndex(Base):
    def test_the_index_is_written_and_refreshed_on_save_and_findings_use_the_whole_project(self):
        # metrics.cpp's item() runs per step only through train.cpp's loop: one file alone cannot
        # tell; with --background-index the server writes build/torchlint-index.json and analyses
        # the open file again with it.
        metrics = self.write("idx/src/metrics.cpp",
                             "#include <torch/torch.h>\n"
                             "struct Metrics { float total = 0; void update(const at::Tensor &loss); };\n"
                             "void Metrics::update(const at::Tensor &loss) {\n"
                             "  total += loss.item<float>();\n"
                             "}\n")
        train_text = ("#include <torch/torch.h>\n"
                      "struct Metrics { float total = 0; void update(const at::Tensor &loss); };\n"
                      "struct Net : torch::nn::Module { at::Tensor forward(const at::Tensor &x); };\n"
                      "void fit(Net &net, torch::optim::SGD &opt, Metrics &m) {\n"
                      "  for (int step = 0; step < 100; ++step) {\n"
                      "    at::Tensor loss = net.forward(torch::ones({4}).cuda()).sum();\n"
                      "    loss.backward();\n"
                      "    opt.step();\n"
                      "    %s\n"
                      "  }\n"
                      "}\n")
        train = self.write("idx/src/train.cpp", train_text % "m.update(loss);")
        os.makedirs(os.path.join(self.dir, "idx", ".git"))  # the repository root: build/ is searched
        self.write_database("idx/build", [metrics, train])
        index = os.path.join(self.dir, "idx", "build", "torchlint-index.json")
        c = self.client("--background-index")  # the default (test_on_by_default)
        c.initialize()
        with open(metrics) as f:
            text = f.read()
        c.open(metrics, text)
        first = c.diagnostics(metrics)["diagnostics"]
        # Then, once the index is written, the same version again, now with the finding.
        def with_item(m):
            return (m.get("method") == "textDocument/publishDiagnostics" and m["params"]["uri"] == uri(metrics)
                    and any(d["code"] == "torch-sync-item" for d in m["params"]["diagnostics"]))
        if not any(d["code"] == "torch-sync-item" for d in first):
            d = c.wait(with_item, timeout=120, what="the finding decided by the background index")["params"]
        else:
            d = {"diagnostics": first}
        item = [x for x in d["diagnostics"] if x["code"] == "torch-sync-item"]
        self.assertEqual(1, len(item), d)
        self.assertIn("called on every step of the loop in fit() at train.cpp:5", item[0]["message"])
        self.assertTrue(os.path.isfile(index))
        # A save of train.cpp that stops calling update(): the index is written again, and
        # metrics.cpp's finding goes.
        c.open(train, train_text % "m.update(loss);")
        c.diagnostics(train)
        with open(train, "w") as f:
            f.write(train_text % "// m.update(loss);")
        c.notify("textDocument/didSave", {"textDocument": {"uri": uri(train)}, "text": train_text % "// m.update(loss);"})
        def without_item(m):
            return (m.get("method") == "textDocument/publishDiagnostics" and m["params"]["uri"] == uri(metrics)
                    and not any(x["code"] == "torch-sync-item" for x in m["params"]["diagnostics"]))
        c.wait(without_item, timeout=120, what="metrics.cpp without the finding after the refreshed index")
        self.assertEqual(0, c.stop())
        log = b"".join(c.stderr).decode(errors="replace")
        self.assertIn("project index of", log)

    def test_on_by_default(self):
        # As clangd's: a server started without the flag writes the index of the database in use.
        os.makedirs(os.path.join(self.dir, "defidx", ".git"))
        f = self.write("defidx/src/train.cpp", TRAIN)
        self.write_database("defidx/build", [f])
        index = os.path.join(self.dir, "defidx", "build", "torchlint-index.json")
        c = Client(["--cache-dir=" + self.cache], cwd=self.dir, server_default=True)
        self.clients.append(c)
        c.initialize()
        c.open(f, TRAIN)
        c.diagnostics(f)
        deadline = time.time() + 120
        while not os.path.isfile(index) and time.time() < deadline:
            time.sleep(0.2)
        self.assertTrue(os.path.isfile(index))
        self.assertEqual(0, c.stop())

    def test_off_when_asked(self):
        for flag, init in (("--background-index=false", None), (None, {"backgroundIndex": False})):
            with self.subTest(flag=flag, init=init):
                name = "noidx%d" % (0 if flag else 1)
                os.makedirs(os.path.join(self.dir, name, ".git"))
                f = self.write(name + "/src/train.cpp", TRAIN)
                self.write_database(name + "/build", [f])
                c = Client(["--cache-dir=" + self.cache] + ([flag] if flag else []), cwd=self.dir,
                           server_default=True)
                self.clients.append(c)
                c.initialize(init)
                c.open(f, TRAIN)
                d = c.diagnostics(f)["diagnostics"]
                self.assertEqual(["torch-create-then-move", "torch-sync-item"], sorted(x["code"] for x in d))
                self.assertEqual(0, c.stop())
                self.assertFalse(os.path.exists(os.path.join(self.dir, name, "build", "torchlint-index.json")))


class Diagnostics(Base):
    def setUp(self):
        super().setUp()
        self.file = self.write("proj/src/train.cpp", TRAIN)
        # Found by walking up from the file, in a build/ folder of the repository as clangd does
        # (without proj/.git the file's folder is the root, the database is not found, and every
        # test parsed the real libtorch with torchlint's default flags: ~20 s each).
        os.makedirs(os.path.join(self.dir, "proj", ".git"))
        self.write_database("proj/build", [self.file])

    def test_same_findings_as_the_cli(self):
        cli = self.cli_json(self.file)["findings"]
        self.assertEqual(2, len(cli), cli)
        c = self.client()
        c.initialize()
        c.open(self.file, TRAIN)
        d = c.diagnostics(self.file)
        self.assertEqual(1, d["version"])
        got = sorted(d["diagnostics"], key=lambda x: (x["range"]["start"]["line"], x["range"]["start"]["character"]))
        want = sorted(cli, key=lambda f: (f["line"], f["column"]))
        self.assertEqual(len(want), len(got), got)
        for g, w in zip(got, want):
            self.assertEqual("torchlint", g["source"])
            self.assertEqual(w["check"], g["code"])
            self.assertEqual(w["message"], g["message"])
            self.assertEqual(w["line"] - 1, g["range"]["start"]["line"])
            self.assertEqual(w["column"] - 1, g["range"]["start"]["character"])
            self.assertEqual(2, g["severity"])
            href = g["codeDescription"]["href"]
            self.assertTrue(href.startswith("file:///") and href.endswith("/docs/checks/%s.md" % w["check"]), href)
            self.assertTrue(os.path.exists(urllib.parse.unquote(href[len("file://"):])), href)
            # The notes, as related information at their locations.
            related = [(r["message"], r["location"]["uri"], r["location"]["range"]["start"]["line"] + 1,
                        r["location"]["range"]["start"]["character"] + 1) for r in g.get("relatedInformation", [])]
            self.assertEqual([(n["message"], uri(n["file"]), n["line"], n["column"]) for n in w["notes"]], related)
        self.assertTrue(any(g.get("relatedInformation") for g in got), got)
        self.assertEqual(0, c.stop())

    def test_torch_extension_without_python_headers(self):
        # As the CLI (reliability_test FirstRun.TorchExtensionWithoutPythonHeaders): with no
        # Python.h on the flags, torch/extension.h is read as its C++ part, so the file is judged
        # whole, with no "analysed partially" problem for the missing Python.h.
        self.write("include/torch/all.h", "#pragma once\n#include <torchlint_mini.h>\n")
        self.write("include/torch/extension.h", "#pragma once\n#include <torch/all.h>\n#include <torch/python.h>\n")
        self.write("include/torch/python.h", "#pragma once\n#include <Python.h>\nusing PyHandle = PyObject *;\n")
        text = TRAIN.replace("<torch/torch.h>", "<torch/extension.h>")
        f = self.write("ext/ops.cpp", text)
        self.write_database("ext", [f])
        c = self.client()
        c.initialize()
        c.open(f, text)
        d = c.diagnostics(f)["diagnostics"]
        self.assertEqual(["torch-create-then-move", "torch-sync-item"], sorted(x["code"] for x in d), d)
        self.assertEqual(0, c.stop())

    def test_results_are_reused(self):
        # A saved file analysed once is not analysed again by the next server (the CLI's result
        # cache), and text analysed once is not analysed again by the same server (from memory).
        c = self.client("--verbose")
        c.initialize()
        c.open(self.file, TRAIN)
        first = c.diagnostics(self.file, 1)["diagnostics"]
        c.change(self.file, CLEAN, 2)
        self.assertEqual([], c.diagnostics(self.file, 2)["diagnostics"])
        c.change(self.file, TRAIN, 3)  # undo
        self.assertEqual(first, [dict(d, data=dict(d["data"], version=1)) for d in c.diagnostics(self.file, 3)["diagnostics"]])
        self.assertEqual(0, c.stop())
        log = b"".join(c.stderr).decode()
        self.assertIn("train.cpp: result reused from memory", log)
        self.assertEqual(2, log.count("analysed in"), log)
        c = self.client("--verbose")
        c.initialize()
        c.open(self.file, TRAIN)
        self.assertEqual(first, c.diagnostics(self.file, 1)["diagnostics"])
        self.assertEqual(0, c.stop())
        log = b"".join(c.stderr).decode()
        self.assertIn("train.cpp: cached result", log)
        self.assertNotIn("analysed in", log)

    def test_saving_a_header_analyses_the_files_that_include_it(self):
        main = TRAIN.replace("#include <torch/torch.h>\n", "#include <torch/torch.h>\n#include \"steps.h\"\n").replace(
            "    total += x.sum().item<float>();\n", "#if USE_ITEM\n    total += x.sum().item<float>();\n#endif\n")
        with open(self.file, "w") as f:
            f.write(main)
        header = self.write("proj/src/steps.h", "#define USE_ITEM 1\n")
        c = self.client()
        c.initialize()
        c.open(self.file, main)
        d = c.diagnostics(self.file, 1)["diagnostics"]
        self.assertEqual(["torch-create-then-move", "torch-sync-item"], sorted(x["code"] for x in d))
        # The header is edited and saved in the editor.
        c.open(header, "#define USE_ITEM 1\n")
        c.diagnostics(header, 1)
        with open(header, "w") as f:
            f.write("#define USE_ITEM 0\n")
        c.change(header, "#define USE_ITEM 0\n", 2)
        c.notify("textDocument/didSave", {"textDocument": {"uri": uri(header)}})
        d = c.diagnostics(self.file, 1)["diagnostics"]
        self.assertEqual(["torch-create-then-move"], [x["code"] for x in d])
        self.assertEqual(0, c.stop())

    def test_code_actions_fix_and_nolint(self):
        c = self.client()
        c.initialize()
        c.open(self.file, TRAIN)
        diags = c.diagnostics(self.file)["diagnostics"]
        move = next(x for x in diags if x["code"] == "torch-create-then-move")
        item = next(x for x in diags if x["code"] == "torch-sync-item")
        r = c.request("textDocument/codeAction", {"textDocument": {"uri": uri(self.file)}, "range": move["range"],
                                                  "context": {"diagnostics": [move]}})
        actions = r["result"]
        titles = [a["title"] for a in actions]
        self.assertIn("torchlint: apply the fix for torch-create-then-move", titles)
        self.assertIn("torchlint: suppress with NOLINT(torch-create-then-move)", titles)
        self.assertNotIn("torchlint: suppress with NOLINT(torch-sync-item)", titles)  # another line
        fix = next(a for a in actions if a["title"].startswith("torchlint: apply the fix"))
        self.assertEqual("quickfix", fix["kind"])
        self.assertEqual("torch-create-then-move", fix["diagnostics"][0]["code"])
        fixed = apply_edits(TRAIN, fix["edit"]["changes"][uri(self.file)])
        # The quick fix is the CLI's --fix on a copy.
        copy = self.write("proj/src/copy.cpp", TRAIN)
        p = subprocess.run([TORCHLINT, "--fix", "--cache-dir=" + self.cache, copy, "--", *self.flags()],
                           capture_output=True, text=True)
        with open(copy) as f:
            self.assertEqual(f.read(), fixed)
        self.assertNotIn(".cuda()", fixed)
        # Applied in the editor (didChange): the finding is gone, the other remains.
        c.change(self.file, fixed, 2)
        d = c.diagnostics(self.file, 2)["diagnostics"]
        self.assertEqual(["torch-sync-item"], [x["code"] for x in d])
        # NOLINT on the remaining one.
        item = d[0]
        r = c.request("textDocument/codeAction", {"textDocument": {"uri": uri(self.file)}, "range": item["range"],
                                                  "context": {"diagnostics": [item], "only": ["quickfix"]}})
        nolint = [a for a in r["result"] if "NOLINT" in a["title"]]
        self.assertEqual(1, len(nolint), r)
        suppressed = apply_edits(fixed, nolint[0]["edit"]["changes"][uri(self.file)])
        self.assertIn("item<float>(); // NOLINT(torch-sync-item)\n", suppressed)
        c.change(self.file, suppressed, 3)
        self.assertEqual([], c.diagnostics(self.file, 3)["diagnostics"])
        self.assertEqual(0, c.stop())

    def test_fix_all_is_the_cli_fix(self):
        c = self.client()
        c.initialize()
        c.open(self.file, TRAIN)
        c.diagnostics(self.file)
        r = c.request("textDocument/codeAction", {"textDocument": {"uri": uri(self.file)},
                                                  "range": {"start": {"line": 0, "character": 0},
                                                            "end": {"line": 0, "character": 0}},
                                                  "context": {"diagnostics": [], "only": ["source.fixAll"]}})
        self.assertEqual(1, len(r["result"]), r)
        a = r["result"][0]
        self.assertEqual("source.fixAll.torchlint", a["kind"])
        fixed = apply_edits(TRAIN, a["edit"]["changes"][uri(self.file)])
        copy = self.write("proj/src/copy.cpp", TRAIN)
        subprocess.run([TORCHLINT, "--fix", "--cache-dir=" + self.cache, copy, "--", *self.flags()], capture_output=True)
        with open(copy) as f:
            self.assertEqual(f.read(), fixed)
        self.assertEqual(0, c.stop())

    def test_unsaved_buffer_is_analysed_from_memory(self):
        # On disk the file is clean; the editor's buffer is not.
        with open(self.file, "w") as f:
            f.write(CLEAN)
        c = self.client()
        c.initialize()
        c.open(self.file, TRAIN)
        self.assertEqual(2, len(c.diagnostics(self.file, 1)["diagnostics"]))
        # Quick edits: only the last version is published (the others are superseded).
        for v, text in enumerate([CLEAN, TRAIN, CLEAN, TRAIN.replace("ones", "zeros")], start=2):
            c.change(self.file, text, v)
        d = c.diagnostics(self.file, 5)
        self.assertEqual(2, len(d["diagnostics"]))
        for m in c.backlog:
            if m.get("method") == "textDocument/publishDiagnostics":
                self.assertNotIn(m["params"].get("version"), (2, 3, 4), m)
        # Saved: analysed again, now from disk contents equal to the buffer (the cache is filled).
        with open(self.file, "w") as f:
            f.write(TRAIN.replace("ones", "zeros"))
        c.notify("textDocument/didSave", {"textDocument": {"uri": uri(self.file)}})
        self.assertEqual(2, len(c.diagnostics(self.file, 5)["diagnostics"]))
        # Closed: diagnostics cleared.
        c.notify("textDocument/didClose", {"textDocument": {"uri": uri(self.file)}})
        self.assertEqual([], c.diagnostics(self.file)["diagnostics"])
        self.assertEqual(0, c.stop())

    def test_work_in_flight_for_an_old_version_is_not_published(self):
        c = self.client("--debounce-ms=0", "--verbose")
        c.initialize()
        c.open(self.file, CLEAN)
        self.assertEqual([], c.diagnostics(self.file, 1)["diagnostics"])
        # Version 2 starts at once (no debounce) and takes a second or more (constant evaluation);
        # version 3 arrives while it runs.
        slow = "\n".join("constexpr long slow%d = [] { long s = 0; for (long j = 0; j < 200000; ++j) s += j ^ %d; "
                         "return s; }();" % (i, i) for i in range(16))
        c.change(self.file, TRAIN + slow + "\n", 2)
        end = time.time() + TIMEOUT
        while b"analysing version 2" not in b"".join(c.stderr) and time.time() < end:
            time.sleep(0.01)
        c.change(self.file, CLEAN, 3)
        self.assertEqual([], c.diagnostics(self.file, 3)["diagnostics"])
        self.assertEqual(0, c.stop())
        for m in c.backlog:
            if m.get("method") == "textDocument/publishDiagnostics":
                self.assertNotEqual(2, m["params"].get("version"), m)
        self.assertIn(b"result for version 2 discarded (superseded)", b"".join(c.stderr))

    def test_a_new_file_never_saved(self):
        # Not on disk at all: analysed from the buffer, with the database's closest command (a
        # database in proj/ itself: one in build/ is used only for the files it lists).
        self.write_database("proj", [self.file])
        path = os.path.join(self.dir, "proj", "src", "new.cpp")
        c = self.client()
        c.initialize()
        c.open(path, TRAIN)
        d = c.diagnostics(path, 1)["diagnostics"]
        self.assertEqual(["torch-create-then-move", "torch-sync-item"], sorted(x["code"] for x in d))
        self.assertFalse(os.path.exists(path))
        self.assertEqual(0, c.stop())

    def test_path_with_spaces_and_escapes(self):
        f = self.write("my proj/src/tr ain+1.cpp", TRAIN)
        self.write_database("my proj", [f])
        u = "file://" + urllib.parse.quote(f, safe="/")  # tr%20ain%2B1.cpp
        c = self.client()
        c.initialize()
        c.notify("textDocument/didOpen", {"textDocument": {"uri": u, "languageId": "cpp", "version": 1, "text": TRAIN}})
        d = c.wait(lambda m: m.get("method") == "textDocument/publishDiagnostics" and m["params"]["uri"] == u)
        diags = d["params"]["diagnostics"]
        self.assertEqual(2, len(diags), diags)
        move = next(x for x in diags if x["code"] == "torch-create-then-move")
        r = c.request("textDocument/codeAction", {"textDocument": {"uri": u}, "range": move["range"],
                                                  "context": {"diagnostics": [move]}})
        fix = next(a for a in r["result"] if a["title"].startswith("torchlint: apply the fix"))
        self.assertEqual([u], list(fix["edit"]["changes"]))
        self.assertEqual(0, c.stop())

    def test_utf8_position_encoding(self):
        text = TRAIN.replace("int main() {", "int main() { // caf\u00e9 \U0001F600", 1).replace(
            "    auto x", "    /* \u00e9\u00e9 */ auto x")
        with open(self.file, "w") as f:
            f.write(text)
        c = self.client()
        c.initialize()
        c.open(self.file, text)
        d = {x["code"]: x for x in c.diagnostics(self.file)["diagnostics"]}
        line = text.split("\n")[4]
        col16 = len(line[:line.index("cuda()")].encode("utf-16-le")) // 2  # where the CLI points
        self.assertEqual({"line": 4, "character": col16}, d["torch-create-then-move"]["range"]["start"])
        self.assertEqual(0, c.stop())


if __name__ == "__main__":
    unittest.main()
