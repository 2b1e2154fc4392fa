#!/usr/bin/env python3
"""The accelerated CLI finds exactly what the unaccelerated plugin finds.

Runs clang-tidy-19 -load torchlint-tidy-plugin.so (whole-AST traversal with TORCHLINT_FULL_AST=1,
no PCH, no cache) and
`torchlint` cold (fresh cache: PCHs built, two workers racing for the same PCH), again with the PCH
reused (--no-cache) and warm (every result from the cache) on tests/accel/cases/*.cpp and, when
present, test_corpus/**/*.cpp, and compares the findings (file, line, column, level, check,
message). Then checks the cache mechanics: a changed project header or system header invalidates
results and PCHs, a touched but unchanged file does not, and blocks that cannot be precompiled
exactly (unguarded header, project header reached with <...>, a macro first) are handled.

usage: test_accel.py --build BUILD_DIR --source SOURCE_DIR [--clang-tidy PATH] [--quick]
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import unittest

ARGS = None
CHECKS = "-*,torch-*"
DIAG = re.compile(r"^(/[^:]+):(\d+):(\d+): (warning|error|remark): (.*) \[([^\]]+)\]$")


def torch2_flags(src):
    inc = os.path.join(src, ".deps", "libtorch-2", "include")
    return ["-std=c++20", "-isystem", inc, "-isystem", os.path.join(inc, "torch", "csrc", "api", "include")]


TORCH1_FLAGS = ["-std=c++17", "-isystem", "/usr/include/torch/csrc/api/include"]


def run(cmd, **kw):
    return subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, **kw)


def plugin_findings(files, flags):
    # TORCHLINT_FULL_AST: the plugin walks the whole AST (it limits the walk to user code by
    # default, as the CLI does), the unaccelerated reference. clang-tidy analyses its files one
    # after another: two processes, one per core, each on half of the files.
    env = dict(os.environ, TORCHLINT_FULL_AST="1")
    procs = []
    for half in (files[0::2], files[1::2]):
        if half:
            procs.append(subprocess.Popen(
                [ARGS.clang_tidy, "-load", os.path.join(ARGS.build, "lib", "torchlint-tidy-plugin.so"),
                 "-checks=" + CHECKS, "--header-filter=.*", "--quiet"] + half + ["--"] + flags,
                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env))
    out = set()
    for p in procs:
        stdout, stderr = p.communicate()
        found = set()
        for line in stdout.splitlines():
            m = DIAG.match(line)
            if m:
                f, l, c, lvl, msg, chk = m.groups()
                # Compiler errors: clang-tidy prints each, the CLI folds a file's into one input
                # problem (a missing header: "analysed partially"); the findings are compared.
                if chk.startswith("clang-diagnostic-"):
                    continue
                found.add((os.path.realpath(f), int(l), int(c), lvl, chk, msg))
        if p.returncode not in (0, 1) and not found:
            raise AssertionError("clang-tidy failed: " + stderr[-2000:])
        out |= found
    return out


def torchlint(files, flags, cache, extra=()):
    cmd = [os.path.join(ARGS.build, "bin", "torchlint"), "--checks=" + CHECKS, "--header-filter=.*",
           "--format=json", "--accel-log", "--cache-dir=" + cache] + list(extra) + files + ["--"] + flags
    p = run(cmd)
    if p.returncode not in (0, 1, 2, 3):
        raise AssertionError("torchlint crashed (%d): %s" % (p.returncode, p.stderr[-3000:]))
    data = json.loads(p.stdout)
    out = set()
    for f in data["findings"]:
        if f["check"].startswith("clang-diagnostic-"):
            continue
        out.add((os.path.realpath(f["file"]), f["line"], f["column"], f["level"], f["check"], f["message"]))
    return out, data, p.stderr


def pch_dirs(cache):
    """The PCH variant folders of a cache: pch/<key of the block and flags>/<variant by resolution>/."""
    root = os.path.join(cache, "pch")
    return [os.path.join(root, g, v) for g in sorted(os.listdir(root)) for v in sorted(os.listdir(os.path.join(root, g)))]


def pch_manifests(cache):
    """{block.h's text: its manifest} of every PCH variant folder of a cache."""
    out = {}
    for d in pch_dirs(cache):
        with open(os.path.join(d, "block.h")) as b, open(os.path.join(d, "manifest.json")) as m:
            out[b.read()] = json.load(m)
    return out


def corpus_files(src):
    """(file, versions) of the corpus cases, when the corpus exists."""
    root = os.path.join(src, "test_corpus")
    res = []
    for d, _, names in os.walk(root):
        for n in sorted(names):
            if n.endswith(".cpp") and not n.endswith(".fixed.cpp"):
                p = os.path.join(d, n)
                with open(p, encoding="utf-8", errors="replace") as fh:
                    text = fh.read()
                m = re.search(r"//\s*TORCHLINT-VERSIONS:\s*([12 ,]+)", text)
                vers = set(re.findall(r"[12]", m.group(1))) if m else {"1", "2"}
                res.append((p, vers))
    return res


class Equivalence(unittest.TestCase):
    """Accelerated CLI == plugin, on the accel cases and the corpus."""

    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp(prefix="torchlint-accel-")
        cases = os.path.join(ARGS.source, "tests", "accel", "cases")
        cls.cases = sorted(os.path.join(cases, n) for n in os.listdir(cases) if n.endswith(".cpp"))
        cls.flags2 = torch2_flags(ARGS.source) + ["-I", os.path.join(cases, "include")]
        corpus = [] if ARGS.quick else corpus_files(ARGS.source)
        cls.files2 = cls.cases + [p for p, v in corpus if "2" in v]
        cls.files1 = [os.path.join(cases, "train_loop.cpp")] + [p for p, v in corpus if "1" in v]
        cls.cache = os.path.join(cls.tmp, "cache")
        cls.plugin2 = plugin_findings(cls.files2, cls.flags2)
        # Cold: empty cache, two workers that both need the same PCH.
        cls.cold2, cls.cold2_data, cls.cold2_log = torchlint(cls.files2, cls.flags2, cls.cache, ["-j2"])
        cls.pch2, _, cls.pch2_log = torchlint(cls.files2, cls.flags2, cls.cache, ["--no-cache", "-j2"])
        cls.warm2, _, cls.warm2_log = torchlint(cls.files2, cls.flags2, cls.cache, ["-j2"])

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp, ignore_errors=True)

    def test_plugin_finds_something(self):
        # Guards against a vacuous comparison (e.g. nothing parsed).
        files = {f[0] for f in self.plugin2}
        for name in ("train_loop.cpp", "helpers.h", "metrics.h", "unguarded_block.cpp", "quoted_first.cpp",
                     "user_angle_include.cpp", "header_first_guarded.cpp", "model_guarded.h", "header_first_chain.cpp",
                     "chain_outer.h", "macro_header.h", "header_first_macro.cpp", "quoted_torch.cpp",
                     "header_first_shorthand.cpp", "forward_decls.h", "cmath_first.cpp", "project_angle_first.cpp"):
            self.assertTrue(any(f.endswith("/" + name) for f in files), name + " has no finding")
        for name in ("clean_ok.cpp", "macro_first_ok.cpp"):
            self.assertFalse(any(f.endswith("/" + name) for f in files), name + " has a finding")

    def test_cold_equals_plugin(self):
        self.assertEqual(sorted(self.cold2 - self.plugin2), [], "only the accelerated CLI reports these")
        self.assertEqual(sorted(self.plugin2 - self.cold2), [], "only the plugin reports these")
        self.assertEqual(self.cold2_data["errors"], [])

    def test_pch_reused_equals_plugin(self):
        self.assertEqual(self.pch2, self.plugin2)
        self.assertIn("pch reused", self.pch2_log)
        self.assertNotIn("pch built", self.pch2_log)

    def test_warm_equals_plugin_and_is_all_cached(self):
        self.assertEqual(self.warm2, self.plugin2)
        self.assertEqual(self.warm2_log.count("cached result"), len(self.files2), self.warm2_log)
        self.assertNotIn("analysed", self.warm2_log)

    def test_pch_decisions(self):
        log = self.cold2_log + self.pch2_log
        def line(name):
            return [l for l in log.splitlines() if "/" + name + ":" in l and "analysed" in l]
        # Header-first files (quoted_first, header_first_*) get the PCH of the block met through the
        # project's headers; so do files that define a macro before libtorch (macro_first_ok,
        # header_first_macro) when libtorch never looks at its name (guardClash), or defines it only
        # after the block's last precompiled header (header_first_shorthand): Equivalence checks
        # that their findings are the plugin's.
        for name in ("train_loop.cpp", "clean_ok.cpp", "unguarded_block.cpp", "user_angle_include.cpp",
                     "quoted_first.cpp", "header_first_guarded.cpp", "header_first_chain.cpp", "quoted_torch.cpp",
                     "macro_first_ok.cpp", "header_first_macro.cpp", "header_first_shorthand.cpp",
                     "header_first_forward_decls.cpp", "cmath_first.cpp", "project_angle_first.cpp"):
            self.assertTrue(line(name) and all("pch none" not in l for l in line(name)), (name, line(name)))
        # Every block here precompiles up to its last libtorch include, <torch/torch.h>: one PCH,
        # shared by the torch.h-first and the header-first files; cmath_first's block is
        # <cmath>, <torch/torch.h>, precompiled whole (its second reading of <cmath> is a no-op).
        blocks = {b: m["status"] for b, m in pch_manifests(self.cache).items()}
        self.assertEqual(blocks, {"#include <torch/torch.h>\n": "ok", "#include <cmath>\n#include <torch/torch.h>\n": "ok"})

    def test_libtorch1(self):
        if not os.path.exists("/usr/include/torch/csrc/api/include/torch/torch.h"):
            self.skipTest("libtorch 1.13 (libtorch-dev) not installed")
        cache = os.path.join(self.tmp, "cache1")
        plugin = plugin_findings(self.files1, TORCH1_FLAGS + self.flags2[-2:])
        cold, _, log = torchlint(self.files1, TORCH1_FLAGS + self.flags2[-2:], cache, ["-j1", "--no-cache"])
        self.assertTrue(plugin)
        self.assertEqual(cold, plugin)
        self.assertIn("pch built", log)


class PluginWalk(unittest.TestCase):
    """The plugin limits the walk to user declarations for every check in the run, upstream ones
    included; their findings equal those of the whole walk (TORCHLINT_FULL_AST=1)."""

    def test_upstream_checks_see_the_same(self):
        if not os.path.exists("/usr/include/torch/csrc/api/include/torch/torch.h"):
            self.skipTest("libtorch 1.13 (libtorch-dev) not installed")
        f = os.path.join(ARGS.source, "tests", "accel", "upstream", "upstream_checks.cpp")
        checks = "-*,torch-*,performance-faster-string-find,cppcoreguidelines-owning-memory,misc-const-correctness"
        res = {}
        for full in ("0", "1"):
            p = run([ARGS.clang_tidy, "-load", os.path.join(ARGS.build, "lib", "torchlint-tidy-plugin.so"),
                     "-checks=" + checks, "--quiet", f, "--"] + TORCH1_FLAGS,
                    env=dict(os.environ, TORCHLINT_FULL_AST=full))
            res[full] = sorted(m.groups() for m in map(DIAG.match, p.stdout.splitlines()) if m)
        found = {d[5] for d in res["1"]}
        for c in ("torch-sync-item", "torch-create-then-move", "performance-faster-string-find",
                  "cppcoreguidelines-owning-memory", "misc-const-correctness"):
            self.assertIn(c, found, res["1"])
        self.assertEqual(res["0"], res["1"])


class CacheMechanics(unittest.TestCase):
    """Invalidation of results and PCHs (small fake headers where libtorch is not needed)."""

    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="torchlint-accel-")
        self.cache = os.path.join(self.tmp, "cache")

    def tearDown(self):
        shutil.rmtree(self.tmp, ignore_errors=True)

    def write(self, rel, text):
        p = os.path.join(self.tmp, rel)
        os.makedirs(os.path.dirname(p), exist_ok=True)
        with open(p, "w") as f:
            f.write(text)
        return p

    def test_result_cache_follows_project_header(self):
        cases = os.path.join(ARGS.source, "tests", "accel", "cases")
        main = self.write("proj/loop.cpp", "#include <torch/torch.h>\n#include \"helper.h\"\n"
                          "int main() { float s = 0; for (int i = 0; i < 3; ++i) s += f(torch::ones({1}, torch::kCUDA)); return s > 0; }\n")
        hdr = self.write("proj/helper.h", "#pragma once\ninline float f(const torch::Tensor &t) { return 1.f; }\n")
        flags = torch2_flags(ARGS.source)
        first, _, log = torchlint([main], flags, self.cache)
        self.assertEqual(first, set())
        _, _, log = torchlint([main], flags, self.cache)
        self.assertIn("cached result", log)
        # Same contents, new time: still cached (content hash).
        time.sleep(0.01)
        os.utime(hdr)
        _, _, log = torchlint([main], flags, self.cache)
        self.assertIn("cached result", log)
        # A sync in the helper, which runs in main's loop: analysed again, found.
        self.write("proj/helper.h", "#pragma once\ninline float f(const torch::Tensor &t) { return t.item<float>(); }\n")
        found, _, log = torchlint([main], flags, self.cache)
        self.assertIn("analysed, pch reused", log)
        self.assertEqual([f[0].endswith("helper.h") for f in found], [True])
        # Other configuration (checks): another key.
        _, _, log = torchlint([main], flags, self.cache, ["--checks=-*,torch-create-then-move"])
        self.assertIn("analysed", log)
        # --no-cache never reads it.
        _, _, log = torchlint([main], flags, self.cache, ["--no-cache"])
        self.assertNotIn("cached result", log)

    def test_pch_follows_system_header(self):
        sysdir = os.path.join(self.tmp, "sys")
        hdr = self.write("sys/fakesys.h", "#pragma once\nstruct A { int x; };\n")
        main = self.write("u.cpp", "#include <fakesys.h>\nint main() { A a{1}; return a.x; }\n")
        flags = ["-std=c++17", "-isystem", sysdir]
        _, _, log = torchlint([main], flags, self.cache, ["--no-cache"])
        self.assertIn("pch built", log)
        _, _, log = torchlint([main], flags, self.cache, ["--no-cache"])
        self.assertIn("pch reused", log)
        self.write("sys/fakesys.h", "#pragma once\nstruct A { int x; int y; };\n")
        _, data, log = torchlint([main], flags, self.cache, ["--no-cache"])
        self.assertIn("pch built", log)
        self.assertEqual(data["errors"], [])
        # Other flags: another PCH.
        _, _, log = torchlint([main], flags + ["-DX=1"], self.cache, ["--no-cache"])
        self.assertIn("pch built", log)

    def test_blocks_that_cannot_be_precompiled(self):
        self.write("sys/noguard.h", "int counter_noguard_%d;\n".replace("%d", "1"))
        self.write("usr/proj/own.h", "#pragma once\nstruct Own {};\n")
        sysdir, usrdir = os.path.join(self.tmp, "sys"), os.path.join(self.tmp, "usr")
        flags = ["-std=c++17", "-isystem", sysdir, "-I", usrdir]
        a = self.write("a.cpp", "#include <noguard.h>\nint main() { return 0; }\n")
        b = self.write("b.cpp", "#include <proj/own.h>\nint main() { Own o; (void)o; return 0; }\n")
        _, data, log = torchlint([a, b], flags, self.cache, ["--no-cache", "-j1"])
        self.assertEqual(data["errors"], [])
        self.assertEqual(log.count("pch none"), 2, log)
        self.assertNotIn("error", json.dumps(data["findings"]))

    def test_unguarded_include_truncates_the_block(self):
        sysdir = os.path.join(self.tmp, "sys")
        self.write("sys/g1.h", "#pragma once\nint g1;\n")
        self.write("sys/noguard.h", "int noguard;\n")
        self.write("sys/g2.h", "#ifndef G2\n#define G2\nint g2;\n#endif\n")
        main = self.write("m.cpp", "#include <g1.h>\n#include <noguard.h>\n#include <g2.h>\n"
                          "int main() { return g1 + noguard + g2; }\n")
        for expect in ("pch built", "pch reused"):
            _, data, log = torchlint([main], ["-std=c++17", "-isystem", sysdir], self.cache, ["--no-cache"])
            self.assertIn(expect, log)
            self.assertEqual(data["errors"], [])
            self.assertEqual(data["findings"], [])  # a redefinition of noguard would be an error
        statuses = {b: (m["status"], m["keep"]) for b, m in pch_manifests(self.cache).items()}
        self.assertEqual(statuses, {"#include <g1.h>\n#include <noguard.h>\n#include <g2.h>\n": ("truncate", 1),
                                    "#include <g1.h>\n": ("ok", 0)})

    def test_unguarded_header_whose_second_reading_changes_nothing(self):
        # libtorch's users often include <cmath> first: libstdc++'s <cmath> includes <math.h> and
        # defines and #undefs a macro before its include guard, so clang does not count it as
        # guarded. Its second reading in the TU (the PCH in front) declares nothing and leaves every
        # macro as it was: the block is precompiled whole.
        sysdir = os.path.join(self.tmp, "sys")
        self.write("sys/inner_c.h", "#ifndef INNER_C_H\n#define INNER_C_H\nint inner_c;\n#endif\n")
        self.write("sys/cm.h", "#pragma GCC system_header\n#define CM_NEXT\n#include <inner_c.h>\n#undef CM_NEXT\n"
                               "#ifndef CM_H\n#define CM_H\nint cm;\n#endif\n")
        self.write("sys/g2.h", "#pragma once\nint g2;\n")
        # Read again, it changes a macro: MODE is 1 after the first reading, 2 after the second.
        self.write("sys/mode.h", "#ifdef MODE_ONCE\n#undef MODE\n#define MODE 2\n#else\n#define MODE 1\n"
                                 "#define MODE_ONCE\n#endif\n")
        flags = ["-std=c++17", "-isystem", sysdir]
        a = self.write("a.cpp", "#include <cm.h>\n#include <g2.h>\nint main() { return cm + g2 + inner_c; }\n")
        b = self.write("b.cpp", "#include <g2.h>\n#include <mode.h>\n#include <cm.h>\n"
                                "static_assert(MODE == 1, \"read once\");\nint main() { return cm; }\n")
        for f in (a, b):
            _, slow, _ = torchlint([f], flags, self.cache, ["--no-cache", "--no-pch"])
            _, data, log = torchlint([f], flags, self.cache, ["--no-cache"])
            self.assertIn("pch built", log)
            self.assertEqual((data["findings"], data["errors"]), (slow["findings"], slow["errors"]))
            self.assertEqual(data["findings"], [])
        statuses = {b: (m["status"], m["keep"]) for b, m in pch_manifests(self.cache).items()}
        self.assertEqual(statuses, {"#include <cm.h>\n#include <g2.h>\n": ("ok", 0),
                                    "#include <g2.h>\n#include <mode.h>\n#include <cm.h>\n": ("truncate", 1),
                                    "#include <g2.h>\n": ("ok", 0)})

    def test_block_scanner_stops(self):
        # Comments and blank lines are skipped; a quoted include, a macro or code ends the block.
        sysdir = os.path.join(self.tmp, "sys")
        self.write("sys/s1.h", "#pragma once\nint s1;\n")
        self.write("sys/s2.h", "#pragma once\nint s2;\n")
        main = self.write("m.cpp", "// c\n/* c\n */\n#include <s1.h> // x\n\n#  include   <s2.h>\n"
                          "#define Y\nint main() { return s1 + s2; }\n")
        _, data, log = torchlint([main], ["-std=c++17", "-isystem", sysdir], self.cache, ["--no-cache"])
        self.assertIn("pch built", log)
        blocks = []
        for d in pch_dirs(self.cache):
            with open(os.path.join(d, "block.h")) as f:
                blocks.append(f.read())
        self.assertEqual(blocks, ["#include <s1.h>\n#include <s2.h>\n"])


class CompilerSpellings(unittest.TestCase):
    """A compile database names its compiler as the user's build tool wrote it (`clang++`, `g++`,
    `c++`, `clang++-19`, `/usr/bin/c++`), with libtorch on -I or -isystem: every spelling answers
    from the result cache on the second run and reuses one PCH (issue 24). A fake libtorch
    (c10/macros/Macros.h marks its root) and the C++ library's <vector> keep it fast."""

    SPELLINGS = ("clang++", "g++", "c++", "clang++-19", "/usr/bin/c++")

    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="torchlint-accel-")
        self.cache = os.path.join(self.tmp, "cache")
        self.lib = os.path.join(self.tmp, "lib")
        for rel, text in (("c10/macros/Macros.h", "#pragma once\n#define FAKE_C10 1\n"),
                          ("torch/fake.h", "#pragma once\n#include <c10/macros/Macros.h>\n#include <vector>\n"
                                           "namespace torch { struct Tensor { float item() const { return 1; } }; }\n")):
            os.makedirs(os.path.dirname(os.path.join(self.lib, rel)), exist_ok=True)
            with open(os.path.join(self.lib, rel), "w") as f:
                f.write(text)
        self.proj = os.path.join(self.tmp, "proj")
        os.makedirs(self.proj)
        self.main = os.path.join(self.proj, "a.cpp")
        with open(self.main, "w") as f:
            f.write("#include <torch/fake.h>\n#include <vector>\n"
                    "int main() { std::vector<torch::Tensor> v(2); return v[0].item() > 0; }\n")

    def tearDown(self):
        shutil.rmtree(self.tmp, ignore_errors=True)

    def run_db(self, compiler, inc, extra=()):
        with open(os.path.join(self.proj, "compile_commands.json"), "w") as f:
            json.dump([{"directory": self.proj, "file": "a.cpp",
                        "command": "%s -std=c++17 %s %s -c a.cpp" % (compiler, inc, self.lib)}], f)
        p = run([os.path.join(ARGS.build, "bin", "torchlint"), "--checks=" + CHECKS, "--format=json",
                 "--accel-log", "--cache-dir=" + self.cache, "-p", self.proj] + list(extra) + [self.main])
        self.assertIn(p.returncode, (0, 1), p.stderr)
        self.assertEqual(json.loads(p.stdout)["errors"], [])
        return p.stderr

    def test_every_spelling_is_cached_and_shares_the_pch(self):
        spellings = [c for c in self.SPELLINGS if shutil.which(c)]
        self.assertIn("clang++-19", spellings)  # the package's dependency: the test is not vacuous
        for inc in ("-isystem", "-I"):
            for i, cc in enumerate(spellings):
                first = self.run_db(cc, inc)
                self.assertIn("analysed", first, (cc, inc))
                # One PCH per libtorch configuration: the first spelling builds it, the others reuse it.
                self.assertIn("pch built" if i == 0 else "pch reused", first, (cc, inc, first))
                self.assertIn("cached result", self.run_db(cc, inc), (cc, inc))
                self.assertIn("pch reused", self.run_db(cc, inc, ["--no-cache"]), (cc, inc))
        groups = os.listdir(os.path.join(self.cache, "pch"))
        self.assertEqual(len(groups), 1, groups)  # -I and -isystem differ only in the search: variants

    def test_cache_records_real_paths(self):
        # The C++ library found by a compiler named without a folder is recorded where it is, not
        # at the lexical reading of its "..": every file the PCH depends on exists.
        self.run_db("clang++", "-isystem")
        for d in pch_dirs(self.cache):
            with open(os.path.join(d, "manifest.json")) as f:
                m = json.load(f)
            self.assertTrue(any(p.endswith("/vector") for p, _, _ in m["deps"]), m["deps"])
            for p, _, _ in m["deps"]:
                self.assertTrue(os.path.exists(p) and ".." not in p.split("/"), p)
            for p, _ in m["dirs"]:
                self.assertNotIn("..", p.split("/"), p)


class HeaderFirst(unittest.TestCase):
    """Files whose first include is the project's own header get the PCH of the block met through
    it (fake system headers; tests/accel/cases/header_first_* do it with libtorch against the
    plugin)."""

    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="torchlint-accel-")
        self.cache = os.path.join(self.tmp, "cache")
        self.sysdir = os.path.join(self.tmp, "sys")
        self.flags = ["-std=c++17", "-isystem", self.sysdir]
        self.write("sys/fakesys.h", "#pragma once\nstruct A { int x; };\n")

    def tearDown(self):
        shutil.rmtree(self.tmp, ignore_errors=True)

    def write(self, rel, text):
        p = os.path.join(self.tmp, rel)
        os.makedirs(os.path.dirname(p), exist_ok=True)
        with open(p, "w") as f:
            f.write(text)
        return p

    def blocks(self):
        return {b: m["status"] for b, m in pch_manifests(self.cache).items()}

    def test_guarded_chain_shares_the_pch_of_system_first_files(self):
        self.write("p/inner.h", "#pragma once\n// only includes\n#include <fakesys.h>\n")
        self.write("p/outer.h", "/* lic */\n#ifndef P_OUTER_H\n#define P_OUTER_H\n#include \"inner.h\"\n"
                                "#include <vector>\nstruct B { A a; };\n#endif\n")
        a = self.write("p/a.cpp", "#include \"outer.h\"\nint main() { B b{{1}}; return b.a.x; }\n")
        b = self.write("p/b.cpp", "#include <fakesys.h>\n#include <vector>\nint main() { A a{1}; return a.x; }\n")
        _, data, log = torchlint([a], self.flags, self.cache, ["--no-cache"])
        self.assertEqual(data["errors"], [])
        self.assertIn("pch built", log)
        _, data, log = torchlint([b], self.flags, self.cache, ["--no-cache"])
        self.assertIn("pch reused", log)
        self.assertEqual(self.blocks(), {"#include <fakesys.h>\n#include <vector>\n": "ok"})

    def test_guard_named_in_the_system_headers_gets_no_pch(self):
        # The project's guard CLASH_H is a name the system header tests: defined before it in
        # the original, after it with a PCH in front. The result must be the one without PCH.
        self.write("sys/lib.h", "#pragma once\n#ifndef CLASH_H\nint from_lib;\n#endif\n")
        self.write("p/clash.h", "#ifndef CLASH_H\n#define CLASH_H\n#include <lib.h>\n#endif\n")
        m = self.write("p/m.cpp", "#include \"clash.h\"\nint main() { return from_lib; }\n")
        def diags(data):
            return [(f["line"], f["check"], f["message"]) for f in data["findings"]]
        _, slow, _ = torchlint([m], self.flags, self.cache, ["--no-cache", "--no-pch"])
        self.assertEqual(diags(slow), [(2, "clang-diagnostic-error", "use of undeclared identifier 'from_lib'")])
        _, data, log = torchlint([m], self.flags, self.cache, ["--no-cache"])
        self.assertIn("pch none (the macro CLASH_H", log)
        self.assertEqual(diags(data), diags(slow))
        # The same guard under another name: served.
        self.write("p/clash.h", "#ifndef OTHER_H\n#define OTHER_H\n#include <lib.h>\n#endif\n")
        _, data, log = torchlint([m], self.flags, self.cache, ["--no-cache"])
        self.assertIn("pch reused", log)
        self.assertEqual(diags(data), [])

    def test_walk_stops_where_the_header_does_more_than_include(self):
        self.write("sys/s2.h", "#pragma once\nint s2;\n")
        cases = {
            "#define X(a) a\n#include <fakesys.h>\n": None,           # a function-like macro first: no block
            "#define X 1\n#include <fakesys.h>\n": "#include <fakesys.h>\n",  # X: a name fakesys.h never looks at
            "#pragma once\n#include <fakesys.h>\n#if 1\n#include <s2.h>\n#endif\n": "#include <fakesys.h>\n",
            "#include <fakesys.h>\nint u;\n#include <s2.h>\n": "#include <fakesys.h>\n",
            "#pragma once\n#include <fakesys.h>\n#include <s2.h>\n": "#include <fakesys.h>\n#include <s2.h>\n",
        }
        for i, (header, block) in enumerate(cases.items()):
            cache = os.path.join(self.tmp, "c%d" % i)
            self.write("q%d/h.h" % i, header)
            m = self.write("q%d/m.cpp" % i, "#include \"h.h\"\nint main() { A a{0}; return a.x; }\n")
            _, data, log = torchlint([m], self.flags, cache, ["--no-cache"])
            self.assertEqual(data["errors"], [], header)
            if block is None:
                self.assertIn("pch none", log, header)
                continue
            self.assertIn("pch built", log, header)
            self.cache = cache
            self.assertEqual(list(self.blocks()), [block], header)

    def test_a_macro_the_system_headers_look_at_gets_no_pch(self):
        # `#define USE_FAST 1` before a system header that tests it: defined before it in the
        # original, after it with a PCH in front. The result must be the one without PCH.
        self.write("sys/cfg.h", "#pragma once\n#ifdef USE_FAST\nint fast_path;\n#endif\n")
        self.write("p/h.h", "#pragma once\n#define USE_FAST 1\n#include <cfg.h>\n")
        m = self.write("p/m.cpp", "#include \"h.h\"\nint main() { return fast_path; }\n")
        _, slow, _ = torchlint([m], self.flags, self.cache, ["--no-cache", "--no-pch"])
        _, data, log = torchlint([m], self.flags, self.cache, ["--no-cache"])
        self.assertIn("pch none (the macro USE_FAST", log)
        self.assertEqual((data["findings"], data["errors"]), (slow["findings"], slow["errors"]))
        self.assertEqual(data["findings"], [])

    def test_walk_goes_on_after_a_header_that_only_includes(self):
        self.write("sys/s2.h", "#pragma once\nint s2;\n")
        self.write("p/h.h", "// h\n#ifndef H_H /* guard */\n#define H_H\n#include <fakesys.h> // A\n#endif /* H_H */\n")
        m = self.write("p/m.cpp", "#include \"h.h\"\n#include <s2.h>\nint main() { A a{s2}; return a.x; }\n")
        _, data, log = torchlint([m], self.flags, self.cache, ["--no-cache"])
        self.assertIn("pch built", log)
        self.assertEqual(data["findings"], [])
        self.assertEqual(list(self.blocks()), ["#include <fakesys.h>\n#include <s2.h>\n"])

    def test_project_header_reached_with_angle_brackets_is_walked(self):
        self.write("inc/proj/model.h", "#pragma once\n#include <fakesys.h>\nstruct M { A a; };\n")
        m = self.write("p/m.cpp", "#include <proj/model.h>\nint main() { M m{{0}}; return m.a.x; }\n")
        flags = self.flags + ["-I", os.path.join(self.tmp, "inc")]
        _, data, log = torchlint([m], flags, self.cache, ["--no-cache"])
        self.assertIn("pch built", log)
        self.assertEqual(data["findings"], [])
        self.assertEqual(list(self.blocks()), ["#include <fakesys.h>\n"])

    def test_quoted_include_of_a_system_header_is_part_of_the_block(self):
        m = self.write("p/m.cpp", "#include \"fakesys.h\"\nint main() { A a{0}; return a.x; }\n")
        _, data, log = torchlint([m], self.flags, self.cache, ["--no-cache"])
        self.assertIn("pch built", log)
        self.assertEqual(list(self.blocks()), ["#include <fakesys.h>\n"])
        # Beside the file it is the project's own: no block (nothing else comes first).
        self.write("p/fakesys.h", "#pragma once\nstruct A { int x; };\nint own;\n")
        _, data, log = torchlint([m], self.flags, self.cache, ["--no-cache"])
        self.assertIn("pch none", log)
        self.assertEqual(data["errors"], [])

    def test_missing_header_is_left_to_the_file(self):
        # <nolib.h> is not installed: the block is precompiled without it, the file meets it after
        # the PCH and recovers as it does without one. Installed, it is a member of the block again.
        self.write("sys/dep.h", "#pragma once\n#ifdef FROM_NOLIB\nint from_nolib;\n#endif\nint dep;\n")
        m = self.write("p/m.cpp", "#include <nolib.h>\n#include <dep.h>\nint main() { return dep; }\n")
        def same_as_without_pch():
            _, slow, _ = torchlint([m], self.flags, self.cache, ["--no-cache", "--no-pch"])
            _, data, log = torchlint([m], self.flags, self.cache, ["--no-cache"])
            self.assertEqual((data["findings"], data["errors"], data.get("notices")),
                             (slow["findings"], slow["errors"], slow.get("notices")))
            return data, log
        data, log = same_as_without_pch()
        self.assertIn("pch built", log)
        self.assertTrue(any("'nolib.h'" in n for n in data.get("notices", [])), data)
        self.assertEqual(self.blocks(), {"#include <dep.h>\n": "ok"})
        self.write("sys/nolib.h", "#pragma once\n#define FROM_NOLIB 1\n")
        m = self.write("p/m.cpp", "#include <nolib.h>\n#include <dep.h>\nint main() { return dep + from_nolib; }\n")
        data, log = same_as_without_pch()
        self.assertIn("pch built", log)
        self.assertEqual((data["errors"], data.get("notices", [])), ([], []))
        self.assertIn("#include <nolib.h>\n#include <dep.h>\n", self.blocks())

    def test_header_served_by_a_stand_in_is_left_to_the_file(self):
        # OpenCV first, as in many projects, and not installed: the stand-in serves it in the file,
        # said as without a PCH, and the rest of the block (libtorch, in practice) is precompiled.
        m = self.write("p/m.cpp", "#include <opencv2/opencv.hpp>\n#include <fakesys.h>\n"
                                  "int main() { cv::Mat img; A a{0}; return a.x; }\n")
        _, slow, slow_log = torchlint([m], self.flags, self.cache, ["--no-cache", "--no-pch"])
        _, data, log = torchlint([m], self.flags, self.cache, ["--no-cache"])
        self.assertIn("pch built", log)
        self.assertEqual(list(self.blocks()), ["#include <fakesys.h>\n"])
        self.assertEqual((data["findings"], data["errors"], data.get("notices")),
                         (slow["findings"], slow["errors"], slow.get("notices")))
        said = [l for l in log.splitlines() if "stand-in" in l]
        self.assertTrue(said, log)
        self.assertEqual(said, [l for l in slow_log.splitlines() if "stand-in" in l])
        # Cached like any result (the stand-in's own folder is not where the real header would be).
        for _ in range(2):
            _, cached, log = torchlint([m], self.flags, self.cache)
        self.assertIn(": cached result", log)
        self.assertEqual((cached["findings"], cached.get("notices")), (data["findings"], data.get("notices")))

    def test_undef_before_the_block(self):
        # A Qt project's `#undef slots` before libtorch: the TU meets it after the PCH, which is
        # the same unless the block's headers (or the command line) define the name.
        self.write("p/h.h", "#ifndef H_H\n#define H_H\n#undef slots\n#include <fakesys.h>\n#endif\n")
        m = self.write("p/m.cpp", "#include \"h.h\"\nint main() { A a{0}; return a.x; }\n")
        _, data, log = torchlint([m], self.flags, self.cache, ["--no-cache"])
        self.assertIn("pch built", log)
        self.assertEqual(data["errors"], [])
        self.assertEqual(list(self.blocks()), ["#include <fakesys.h>\n"])
        # A system header that defines it: undefined after it in the original, defined with a PCH.
        self.write("sys/qtish.h", "#pragma once\n#define slots 1\n")
        self.write("q/h.h", "#ifndef H_H\n#define H_H\n#undef slots\n#include <qtish.h>\n#endif\n")
        m = self.write("q/m.cpp", "#include \"h.h\"\nint slots = 2;\nint main() { return slots; }\n")
        _, slow, _ = torchlint([m], self.flags, self.cache, ["--no-cache", "--no-pch"])
        self.assertTrue(any(f["check"] == "clang-diagnostic-error" for f in slow["findings"]), slow)  # `int 1 = 2;`
        _, data, log = torchlint([m], self.flags, self.cache, ["--no-cache"])
        self.assertIn("pch none (the macro slots", log)
        self.assertEqual((data["findings"], data["errors"]), (slow["findings"], slow["errors"]))
        # Defined on the command line: the same.
        m = self.write("p/m2.cpp", "#include \"h.h\"\nint main() { A a{0}; return a.x; }\n")
        _, data, log = torchlint([m], self.flags + ["-Dslots=3"], self.cache, ["--no-cache"])
        self.assertIn("pch none (the macro slots", log)

    def test_forward_declarations_before_the_block(self):
        # A header-first project's habit: its classes forward-declared before libtorch. With the PCH
        # in front they are declared after the block's headers, the same unless those headers look
        # at the names.
        self.write("p/h.h", "#ifndef H_H\n#define H_H\nclass Trainer;\nstruct Data; // x\n"
                            "namespace lib::amp { class Scaler; }\nnamespace lib {\nnamespace io { union Blob; }\n}\n"
                            "#include <fakesys.h>\n#endif\n")
        m = self.write("p/m.cpp", "#include \"h.h\"\nclass Trainer { public: A a; };\n"
                                  "int main() { Trainer t{{0}}; return t.a.x; }\n")
        _, slow, _ = torchlint([m], self.flags, self.cache, ["--no-cache", "--no-pch"])
        _, data, log = torchlint([m], self.flags, self.cache, ["--no-cache"])
        self.assertIn("pch built", log)
        self.assertEqual(list(self.blocks()), ["#include <fakesys.h>\n"])
        self.assertEqual((data["findings"], data["errors"]), (slow["findings"], slow["errors"]))
        self.assertEqual(data["findings"], [])
        # Anything but a forward declaration ends the walk there (a definition, an alias, a
        # function), as does a directive inside a namespace.
        for i, code in enumerate(("struct Data {};\n", "using Id = int;\n", "class Trainer final;\n",
                                  "namespace lib {\n#define X 1\nclass C;\n}\n", "inline namespace v1 { class C; }\n",
                                  "extern int n;\n")):
            self.write("r%d/h.h" % i, "#pragma once\n" + code + "#include <fakesys.h>\n")
            m = self.write("r%d/m.cpp" % i, "#include \"h.h\"\nint main() { A a{0}; return a.x; }\n")
            _, data, log = torchlint([m], self.flags, os.path.join(self.tmp, "c%d" % i), ["--no-cache"])
            self.assertIn("pch none (no leading #include <...> block: a macro, a conditional or code in", log, code)
        # A name the system header looks at: declared before it in the original, after it with a
        # PCH in front. The result must be the one without PCH.
        self.write("sys/lib.h", "#pragma once\ntemplate <class T> struct Probe { static const int v = 0; };\n"
                                "struct Settings;\nint lib_v = sizeof(Probe<Settings>);\n")
        self.write("q/h.h", "#pragma once\nstruct Settings;\n#include <lib.h>\n")
        m = self.write("q/m.cpp", "#include \"h.h\"\nint main() { return lib_v; }\n")
        _, slow, _ = torchlint([m], self.flags, self.cache, ["--no-cache", "--no-pch"])
        _, data, log = torchlint([m], self.flags, self.cache, ["--no-cache"])
        self.assertIn("pch none (the macro Settings", log)
        self.assertIn("or the class it forward-declares there", log)
        self.assertEqual((data["findings"], data["errors"]), (slow["findings"], slow["errors"]))

    def test_project_header_first_then_libtorch(self):
        # `#include <proj/net.h>` (the project's, through -I) before `#include <torch/torch.h>`:
        # the block is the one met through the project's header, not a block that holds it.
        self.write("sys/c10/macros/Macros.h", "#pragma once\n")
        self.write("sys/torch/torch.h", "#pragma once\n#include <c10/macros/Macros.h>\nnamespace torch { struct Tensor {}; }\n")
        self.write("inc/proj/net.h", "#pragma once\n#include <torch/torch.h>\n#include <fakesys.h>\n"
                                     "struct Net { torch::Tensor w; A a; };\n")
        m = self.write("p/m.cpp", "#include <proj/net.h>\n#include <torch/torch.h>\n"
                                  "int main() { Net n{{}, {0}}; return n.a.x; }\n")
        flags = self.flags + ["-I", os.path.join(self.tmp, "inc")]
        _, data, log = torchlint([m], flags, self.cache, ["--no-cache"])
        self.assertIn("pch built", log)
        self.assertEqual(data["findings"], [])
        self.assertEqual(self.blocks(), {"#include <torch/torch.h>\n": "ok"})
        # A project header whose own block has no libtorch: the main file's block stays (and,
        # holding the user's header first, gets no PCH).
        self.write("inc/proj/plain.h", "#pragma once\n#include <fakesys.h>\nstruct P { A a; };\n")
        m = self.write("p/m2.cpp", "#include <proj/plain.h>\n#include <torch/torch.h>\n"
                                   "int main() { P p{{0}}; return p.a.x; }\n")
        _, data, log = torchlint([m], flags, os.path.join(self.tmp, "c2"), ["--no-cache"])
        self.assertIn("pch none", log)
        self.assertEqual(data["errors"], [])

    def test_partial_analysis_is_cached_until_the_header_is_installed(self):
        # A file that misses a header (or has a compiler error) is not parsed again on every run: its
        # result, input problem included, comes from the cache until the header appears where the
        # search would find it.
        m = self.write("p/m.cpp", "#include <nolib.h>\n#include <fakesys.h>\n"
                                  "int main() { A a{0}; return a.x + nolib::answer(); }\n")
        first = run([os.path.join(ARGS.build, "bin", "torchlint"), "--format=json", "--accel-log", "--no-synthesis",
                     "--cache-dir=" + self.cache, m, "--"] + self.flags)
        self.assertIn(first.returncode, (2, 3), first.stderr)
        self.assertIn(": analysed,", first.stderr)
        again = run([os.path.join(ARGS.build, "bin", "torchlint"), "--format=json", "--accel-log", "--no-synthesis",
                     "--cache-dir=" + self.cache, m, "--"] + self.flags)
        self.assertIn(": cached result", again.stderr)
        self.assertEqual((first.returncode, json.loads(first.stdout)), (again.returncode, json.loads(again.stdout)))
        # Installed in a folder of the search: analysed again, and now clean.
        self.write("sys/nolib.h", "#pragma once\nnamespace nolib { inline int answer() { return 0; } }\n")
        third = run([os.path.join(ARGS.build, "bin", "torchlint"), "--format=json", "--accel-log", "--no-synthesis",
                     "--cache-dir=" + self.cache, m, "--"] + self.flags)
        self.assertIn(": analysed,", third.stderr)
        self.assertEqual(0, third.returncode, third.stdout + third.stderr)
        # Beside the file (a quoted include would find it there first): the same.
        q = self.write("q/m.cpp", "#include \"local.h\"\nint main() { return local_answer(); }\n")
        for _ in range(2):
            r = run([os.path.join(ARGS.build, "bin", "torchlint"), "--format=json", "--accel-log", "--cache-dir=" + self.cache,
                     q, "--"] + self.flags)
        self.assertIn(": cached result", r.stderr)
        self.write("q/local.h", "#pragma once\ninline int local_answer() { return 0; }\n")
        r = run([os.path.join(ARGS.build, "bin", "torchlint"), "--format=json", "--accel-log", "--cache-dir=" + self.cache,
                 q, "--"] + self.flags)
        self.assertIn(": analysed,", r.stderr)
        self.assertEqual(0, r.returncode, r.stdout + r.stderr)


class PchCommand(unittest.TestCase):
    """`torchlint pch HEADER -o OUT -- FLAGS`: the PCH of the automatic one for clang-tidy plugin users
    (and the corpus). It holds no vtable uses: a TU that loads it does not instantiate the virtual
    members of the header's class templates again (libtorch's: 3.6 s -> 0.8 s per TU)."""

    # Constructing B<int> uses its vtable; defining that vtable instantiates f(), which is
    # ill-formed for int. A prefix (PCH) never defines vtables; a TU loading clang's own PCH does.
    HEADER = ("#pragma once\n"
              "template <class T> struct B { virtual ~B() {} virtual void f() { T::no_such_member(); } };\n"
              "inline void make() { B<int> b; (void)b; }\n")

    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="torchlint-pch-")
        self.header = os.path.join(self.tmp, "vt.h")
        with open(self.header, "w") as f:
            f.write(self.HEADER)
        self.tu = os.path.join(self.tmp, "tu.cpp")
        with open(self.tu, "w") as f:
            f.write("int main() { return 0; }\n")
        self.tl = os.path.join(ARGS.build, "bin", "torchlint")
        self.clang = shutil.which("clang++-19")

    def tearDown(self):
        shutil.rmtree(self.tmp, ignore_errors=True)

    def load(self, pch):
        return run([self.clang, "-fsyntax-only", "-x", "c++", "-std=c++17", "-include-pch", pch, self.tu])

    def test_a_tu_loading_it_defines_no_vtable_of_the_header(self):
        if not self.clang:
            self.skipTest("clang++-19 not installed")
        # clang's own PCH: the TU defines the vtable and meets the error (the test is not vacuous).
        plain = os.path.join(self.tmp, "plain.pch")
        r = run([self.clang, "-std=c++17", "-x", "c++-header", self.header, "-o", plain])
        self.assertEqual(0, r.returncode, r.stderr)
        r = self.load(plain)
        self.assertNotEqual(0, r.returncode)
        self.assertIn("no_such_member", r.stderr)
        out = os.path.join(self.tmp, "out.pch")
        r = run([self.tl, "pch", self.header, "-o", out, "--", "-std=c++17"])
        self.assertEqual(0, r.returncode, r.stderr)
        r = self.load(out)
        self.assertEqual(0, r.returncode, r.stderr)
        self.assertEqual([n for n in os.listdir(self.tmp) if ".tmp" in n], [])

    def test_bad_input_is_exit_2_naming_the_file(self):
        out = os.path.join(self.tmp, "out.pch")
        r = run([self.tl, "pch", os.path.join(self.tmp, "nothere.h"), "-o", out, "--", "-std=c++17"])
        self.assertEqual(2, r.returncode)
        self.assertIn("nothere.h': no such file", r.stderr)
        bad = os.path.join(self.tmp, "bad.h")
        with open(bad, "w") as f:
            f.write("int x = ;\n")
        r = run([self.tl, "pch", bad, "-o", out, "--", "-std=c++17"])
        self.assertEqual(2, r.returncode)
        self.assertIn("bad.h' does not compile with these flags; no PCH written", r.stderr)
        self.assertFalse(os.path.exists(out))
        self.assertEqual([n for n in os.listdir(self.tmp) if ".tmp" in n], [])
        r = run([self.tl, "pch", self.header])
        self.assertEqual(2, r.returncode)
        self.assertIn("usage: torchlint pch HEADER -o OUT", r.stderr)


def main():
    global ARGS
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", required=True)
    ap.add_argument("--source", required=True)
    ap.add_argument("--clang-tidy", default=shutil.which("clang-tidy-19") or "clang-tidy-19")
    ap.add_argument("--quick", action="store_true", help="accel cases only, not the corpus")
    ARGS, rest = ap.parse_known_args()
    ARGS.build, ARGS.source = os.path.abspath(ARGS.build), os.path.abspath(ARGS.source)
    unittest.main(argv=[sys.argv[0]] + rest, verbosity=2)


if __name__ == "__main__":
    main()
