#!/usr/bin/env python3
"""Tests of torchlint's audit reports and integrations (issue 7), driven by ctest.

Inputs are tiny programs against a stub of at::Tensor (no libtorch parse: each run takes well
under a second), written into a temporary directory per test.

Environment: TORCHLINT (the CLI), TORCHLINT_SOURCE_DIR (the repository), SARIF_SCHEMA (OASIS's
SARIF 2.1.0 JSON schema), CHROMIUM (for the browser test).
"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import textwrap
import unittest

TORCHLINT = os.environ.get("TORCHLINT", "")
SOURCE_DIR = os.environ.get("TORCHLINT_SOURCE_DIR", os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
SARIF_SCHEMA = os.environ.get("SARIF_SCHEMA", os.path.join(SOURCE_DIR, "tests", "reports", "schema", "sarif-schema-2.1.0.json"))

STUB = """\
#pragma once
// A stand-in for libtorch's at::Tensor: torchlint recognises tensors by their qualified type.
namespace at {
class Tensor {
public:
  template <class T> T item() const;
  Tensor detach() const;
  Tensor &operator+=(const Tensor &);
};
}
"""

# One finding (line 5) in train(); nothing in setup().
ONE = """\
#include "stub.h"
float train(at::Tensor loss, int steps) {
  float total = 0;
  for (int i = 0; i < steps; ++i) {
    total += loss.item<float>();
  }
  return total;
}
float setup(at::Tensor t) { return t.item<float>(); }
"""

CLEAN = """\
#include "stub.h"
at::Tensor train(at::Tensor loss, int steps) {
  at::Tensor total = loss.detach();
  for (int i = 0; i < steps; ++i)
    total += loss.detach();
  return total;
}
"""


def flags(d):
    return ["--", "-std=c++17", "-I" + d]


class Base(unittest.TestCase):
    def setUp(self):
        if not TORCHLINT or not os.path.exists(TORCHLINT):
            self.fail("TORCHLINT must name the torchlint binary (got %r)" % TORCHLINT)
        self.dir = os.path.realpath(tempfile.mkdtemp(prefix="torchlint-reports-"))
        self.write("stub.h", STUB)

    def tearDown(self):
        shutil.rmtree(self.dir, ignore_errors=True)

    def write(self, name, text):
        path = os.path.join(self.dir, name)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w") as f:
            f.write(text)
        return path

    def run_tl(self, *args, cwd=None, env=None, expect=None):
        e = dict(os.environ)
        e.pop("TORCHLINT_PROGRESS", None)
        if env:
            e.update(env)
        p = subprocess.run([TORCHLINT, *args], cwd=cwd or self.dir, env=e, capture_output=True, text=True, timeout=300)
        if expect is not None:
            self.assertEqual(p.returncode, expect, "exit %d, stderr:\n%s\nstdout:\n%s" % (p.returncode, p.stderr, p.stdout[:3000]))
        return p

    def sarif(self, files, *extra, expect=None, cwd=None, env=None):
        out = os.path.join(self.dir, "out-%d.sarif" % len(os.listdir(self.dir)))
        self.run_tl("--format=sarif", "-o", out, *extra, *files, *flags(self.dir), expect=expect, cwd=cwd, env=env)
        with open(out) as f:
            return json.load(f)

    def results(self, doc):
        return doc["runs"][0]["results"]

    def validate(self, doc):
        import jsonschema
        self.assertTrue(os.path.exists(SARIF_SCHEMA), "SARIF schema not found at " + SARIF_SCHEMA)
        with open(SARIF_SCHEMA) as f:
            schema = json.load(f)
        cls = jsonschema.validators.validator_for(schema)
        cls.check_schema(schema)
        errors = sorted(cls(schema, format_checker=cls.FORMAT_CHECKER).iter_errors(doc), key=lambda e: list(e.path))
        self.assertEqual([], ["%s at %s" % (e.message[:300], list(e.path)) for e in errors])


class Sarif(Base):
    def test_validates_against_the_oasis_schema(self):
        a = self.write("a.cpp", ONE)
        c = self.write("clean.cpp", CLEAN)
        doc = self.sarif([a, c], expect=1)
        self.validate(doc)
        self.assertEqual(1, len(self.results(doc)))
        # Tool errors are notifications, still a valid log.
        doc = self.sarif([a, os.path.join(self.dir, "missing.cpp")], expect=3)
        self.validate(doc)
        notes = doc["runs"][0]["invocations"][0]["toolExecutionNotifications"]
        self.assertTrue(any("missing.cpp" in n["message"]["text"] for n in notes))
        self.assertFalse(doc["runs"][0]["invocations"][0]["executionSuccessful"])

    def test_the_validator_rejects_a_broken_log(self):
        # The schema check above can fail: a log without ruleId's message text is rejected.
        a = self.write("a.cpp", ONE)
        doc = self.sarif([a], expect=1)
        del self.results(doc)[0]["message"]
        with self.assertRaises(AssertionError):
            self.validate(doc)

    def test_uris_are_relative_to_the_root(self):
        a = self.write("src/a.cpp", ONE)
        doc = self.sarif([a], expect=1)  # default root: the current directory (self.dir)
        run = doc["runs"][0]
        self.assertEqual("file://" + self.dir + "/", run["originalUriBaseIds"]["SRCROOT"]["uri"])
        loc = run["results"][0]["locations"][0]["physicalLocation"]
        self.assertEqual({"uri": "src/a.cpp", "uriBaseId": "SRCROOT"}, loc["artifactLocation"])
        self.assertEqual(5, loc["region"]["startLine"])
        self.assertEqual(19, loc["region"]["startColumn"])
        # --sarif-root
        doc = self.sarif([a], "--sarif-root=" + os.path.join(self.dir, "src"), expect=1)
        loc = self.results(doc)[0]["locations"][0]["physicalLocation"]
        self.assertEqual("a.cpp", loc["artifactLocation"]["uri"])
        # A file outside the root keeps an absolute URI, without a base.
        other = tempfile.mkdtemp(prefix="torchlint-root-")
        try:
            doc = self.sarif([a], "--sarif-root=" + other, expect=1)
            art = self.results(doc)[0]["locations"][0]["physicalLocation"]["artifactLocation"]
            self.assertEqual({"uri": "file://" + a}, art)
            self.validate(doc)
        finally:
            shutil.rmtree(other)

    def test_default_root_is_the_compile_database_directory(self):
        a = self.write("src/a.cpp", ONE)
        build = os.path.join(self.dir, "build")
        os.makedirs(build)
        with open(os.path.join(build, "compile_commands.json"), "w") as f:
            json.dump([{"directory": self.dir, "file": a,
                        "command": "clang++ -std=c++17 -I%s -c %s" % (self.dir, a)}], f)
        out = os.path.join(self.dir, "o.sarif")
        self.run_tl("--format=sarif", "-o", out, "-p", build, a, expect=1)
        with open(out) as f:
            run = json.load(f)["runs"][0]
        self.assertEqual("file://" + build + "/", run["originalUriBaseIds"]["SRCROOT"]["uri"])
        self.assertEqual("file://" + a, run["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"])

    def test_rules_have_stable_ids_full_descriptions_and_help(self):
        with open(os.path.join(SOURCE_DIR, "rules", "checks.json")) as f:
            catalog = json.load(f)["checks"]
        a = self.write("a.cpp", ONE)
        doc = self.sarif([a], expect=1)
        rules = doc["runs"][0]["tool"]["driver"]["rules"]
        self.assertEqual([c["name"] for c in catalog], [r["id"] for r in rules])
        for c, r in zip(catalog, rules):
            self.assertEqual(c["description"], r["fullDescription"]["text"])
            self.assertEqual(c["summary"], r["shortDescription"]["text"])
            self.assertIn(c["description"], r["help"]["text"])
            self.assertTrue(r["help"]["markdown"].strip())
            self.assertTrue(r["helpUri"].startswith("file:///"), r["helpUri"])
        res = self.results(doc)[0]
        self.assertEqual("torch-sync-item", res["ruleId"])
        self.assertEqual("torch-sync-item", rules[res["ruleIndex"]]["id"])


class Fingerprints(Base):
    def fingerprints(self, path):
        doc = self.sarif([path], expect=None)
        return [(r["locations"][0]["physicalLocation"]["region"]["startLine"], r["partialFingerprints"]["torchlint/v1"])
                for r in self.results(doc)]

    def test_stable_under_unrelated_line_moves(self):
        a = self.write("a.cpp", ONE)
        before = self.fingerprints(a)
        self.assertEqual(1, len(before))
        moved = ONE.replace('#include "stub.h"\n', '#include "stub.h"\n// a comment\n\nint helper(int x) {\n  return x + 1;\n}\n\n')
        moved = moved.replace("  float total = 0;\n", "  float total = 0;\n  int unused = steps * 2;\n  (void)unused;\n")
        self.write("a.cpp", moved)
        after = self.fingerprints(a)
        self.assertNotEqual(before[0][0], after[0][0], "the finding should have moved")
        self.assertEqual(before[0][1], after[0][1])
        # Re-indenting the line keeps it too.
        self.write("a.cpp", moved.replace("    total += loss.item<float>();", "        total   +=  loss.item<float>();"))
        self.assertEqual(before[0][1], self.fingerprints(a)[0][1])

    def test_changes_when_the_finding_changes(self):
        a = self.write("a.cpp", ONE)
        before = self.fingerprints(a)
        self.write("a.cpp", ONE.replace("total += loss.item<float>();", "total -= loss.item<float>();"))
        self.assertNotEqual(before[0][1], self.fingerprints(a)[0][1])
        # Same line in another function: another fingerprint.
        self.write("a.cpp", ONE.replace("float train(", "float evaluate("))
        self.assertNotEqual(before[0][1], self.fingerprints(a)[0][1])

    def test_identical_lines_get_distinct_fingerprints(self):
        twice = ONE.replace("    total += loss.item<float>();\n", "    total += loss.item<float>();\n    total += loss.item<float>();\n")
        a = self.write("a.cpp", twice)
        fps = self.fingerprints(a)
        self.assertEqual(2, len(fps))
        self.assertNotEqual(fps[0][1], fps[1][1])


class Baseline(Base):
    def test_sarif_and_json_baselines_hide_known_findings(self):
        a = self.write("a.cpp", ONE)
        base_sarif = os.path.join(self.dir, "base.sarif")
        base_json = os.path.join(self.dir, "base.json")
        self.run_tl("--format=sarif", "-o", base_sarif, a, *flags(self.dir), expect=1)
        self.run_tl("--format=json", "-o", base_json, a, *flags(self.dir), expect=1)
        # Unrelated lines move the old finding; a new one appears in a new function.
        self.write("a.cpp", "// header comment\n\n" + ONE + textwrap.dedent("""\
            float evaluate(at::Tensor x, int n) {
              float s = 0;
              for (int i = 0; i < n; ++i)
                s += x.item<float>();
              return s;
            }
            """))
        for base in (base_sarif, base_json):
            p = self.run_tl("--format=json", "--baseline", base, a, *flags(self.dir), expect=1)
            found = json.loads(p.stdout)["findings"]
            self.assertEqual([15], [f["line"] for f in found], base)
            self.assertIn("1 finding already in the baseline", p.stderr)
        # Nothing new: clean exit.
        self.write("a.cpp", "\n\n" + ONE)
        p = self.run_tl("--baseline", base_sarif, a, *flags(self.dir), expect=0)
        self.assertNotIn("warning:", p.stdout)

    def test_unreadable_baseline_is_an_error(self):
        a = self.write("a.cpp", ONE)
        bad = self.write("bad.sarif", "{not json")
        p = self.run_tl("--baseline", bad, a, *flags(self.dir), expect=3)
        self.assertIn("--baseline", p.stdout + p.stderr)


class Since(Base):
    def git(self, *args):
        subprocess.run(["git", "-C", self.dir, *args], check=True, capture_output=True,
                       env=dict(os.environ, GIT_AUTHOR_NAME="t", GIT_AUTHOR_EMAIL="t@t", GIT_COMMITTER_NAME="t",
                                GIT_COMMITTER_EMAIL="t@t"))

    def test_only_changed_lines(self):
        a = self.write("a.cpp", ONE)
        self.git("init", "-q")
        self.git("add", ".")
        self.git("commit", "-qm", "legacy")
        # Legacy finding stays (moved by 2 lines); a new one is added; one more in an untracked file.
        self.write("a.cpp", ONE.replace('#include "stub.h"\n', '#include "stub.h"\n// changed\n').replace(
            "    total += loss.item<float>();\n", "    total += loss.item<float>();\n    total *= loss.item<float>();\n"))
        u = self.write("new.cpp", ONE)
        p = self.run_tl("--format=json", a, u, *flags(self.dir), expect=1)
        self.assertEqual(3, len(json.loads(p.stdout)["findings"]))
        p = self.run_tl("--format=json", "--since", "HEAD", a, u, *flags(self.dir), expect=1)
        found = sorted((os.path.basename(f["file"]), f["line"]) for f in json.loads(p.stdout)["findings"])
        self.assertEqual([("a.cpp", 7), ("new.cpp", 5)], found)
        # Staged changes count too; committed ones do not.
        self.git("add", ".")
        self.git("commit", "-qm", "more")
        self.run_tl("--since", "HEAD", a, u, *flags(self.dir), expect=0)
        p = self.run_tl("--format=json", "--since", "HEAD~1", a, u, *flags(self.dir), expect=1)
        self.assertEqual(2, len(json.loads(p.stdout)["findings"]))

    def test_bad_ref_is_an_error(self):
        a = self.write("a.cpp", ONE)
        self.git("init", "-q")
        self.git("add", ".")
        self.git("commit", "-qm", "x")
        p = self.run_tl("--since", "no-such-ref", a, *flags(self.dir))
        self.assertEqual(2, p.returncode & 2, p.stderr + p.stdout)
        self.assertIn("no-such-ref", p.stdout + p.stderr)


class ShardAndMerge(Base):
    def inputs(self):
        return [self.write("f%d.cpp" % i, ONE if i % 2 else ONE.replace("float train(", "float train%d(" % i)) for i in range(5)]

    def keys(self, doc):
        return sorted((r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"],
                       r["locations"][0]["physicalLocation"]["region"]["startLine"], r["ruleId"],
                       r["partialFingerprints"]["torchlint/v1"]) for r in self.results(doc))

    def test_shards_partition_the_inputs_and_merge_restores_the_full_run(self):
        files = self.inputs()
        full = self.sarif(files, "-j=1", expect=1)
        self.assertEqual(5, len(self.results(full)))
        shards = []
        for k in (1, 2, 3):
            out = os.path.join(self.dir, "shard%d.sarif" % k)
            # Command-line order must not matter.
            order = files if k != 2 else list(reversed(files))
            p = self.run_tl("--format=sarif", "-o", out, "--shard=%d/3" % k, *order, *flags(self.dir))
            self.assertIn(p.returncode, (0, 1), p.stderr)
            shards.append(out)
        seen = []
        for s, expected in zip(shards, (2, 2, 1)):
            with open(s) as f:
                doc = json.load(f)
            seen += [r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] for r in self.results(doc)]
            self.assertEqual(expected, doc["runs"][0]["properties"]["filesAnalyzed"], s)
        self.assertEqual(sorted(seen), sorted(set(seen)), "shards overlap")
        merged = os.path.join(self.dir, "merged.sarif")
        p = subprocess.run([TORCHLINT, "merge", merged, *shards], cwd=self.dir, capture_output=True, text=True)
        self.assertEqual(1, p.returncode, p.stderr)
        with open(merged) as f:
            mdoc = json.load(f)
        self.validate(mdoc)
        self.assertEqual(self.keys(full), self.keys(mdoc))
        self.assertEqual(5, mdoc["runs"][0]["properties"]["filesAnalyzed"])
        # JSON shards merge too, into JSON.
        jsons = []
        for k in (1, 2):
            out = os.path.join(self.dir, "shard%d.json" % k)
            self.run_tl("--format=json", "-o", out, "--shard=%d/2" % k, *files, *flags(self.dir))
            jsons.append(out)
        mj = os.path.join(self.dir, "merged.json")
        p = subprocess.run([TORCHLINT, "merge", mj, *jsons], cwd=self.dir, capture_output=True, text=True)
        self.assertEqual(1, p.returncode, p.stderr)
        with open(mj) as f:
            self.assertEqual(5, len(json.load(f)["findings"]))

    def test_bad_shard_and_bad_merge_inputs(self):
        files = self.inputs()
        for spec in ("0/3", "4/3", "x", "1/0"):
            p = self.run_tl("--shard=" + spec, *files, *flags(self.dir))
            self.assertEqual(2, p.returncode, spec)
        p = subprocess.run([TORCHLINT, "merge", os.path.join(self.dir, "m.sarif"), os.path.join(self.dir, "nope.sarif")],
                           capture_output=True, text=True)
        self.assertEqual(2, p.returncode & 2)
        self.assertIn("nope.sarif", p.stderr)
        p = subprocess.run([TORCHLINT, "merge", "only-out.sarif"], capture_output=True, text=True)
        self.assertEqual(2, p.returncode)


class Html(Base):
    def html(self, files, *extra, env=None):
        out = os.path.join(self.dir, "report.html")
        self.run_tl("--format=html", "--output", out, *extra, *files, *flags(self.dir), env=env)
        with open(out) as f:
            return f.read()

    def test_self_contained_with_summary_chart_snippet_and_why(self):
        a = self.write("src/a.cpp", ONE)
        c = self.write("src/clean.cpp", CLEAN)
        page = self.html([a, c], env={"TORCHLINT_HOME": self.dir})  # a home without docs/probe
        self.assertTrue(page.startswith("<!DOCTYPE html>"))
        # Offline: nothing fetched from anywhere.
        self.assertIsNone(re.search(r'(src|href)\s*=\s*["\']?(https?:)?//', page))
        self.assertNotIn("@import", page)
        self.assertIsNone(re.search(r"url\(\s*['\"]?https?:", page))
        self.assertIn('id="by-check"', page)
        self.assertIn('id="by-file"', page)
        self.assertIn("<svg", page)
        self.assertIn("<code>src/a.cpp:5:19</code>", page)
        self.assertIn("total += loss.item&lt;float&gt;();", page)  # the snippet
        with open(os.path.join(SOURCE_DIR, "rules", "checks.json")) as f:
            desc = [c for c in json.load(f)["checks"] if c["name"] == "torch-sync-item"][0]["description"]
        self.assertIn(desc.replace("'", "&#39;").replace("<", "&lt;").replace(">", "&gt;"), page)
        self.assertEqual(1, page.count('<article class="finding"'))
        self.assertNotIn("Runtime probe:", page)  # no docs/probe here

    def test_fix_diff_and_probe_speedup(self):
        src = self.write("m.cpp", "int main() {\n  auto x = torch::rand({8}).cuda();\n}\n")
        text = open(src).read()
        start = text.index("torch::rand({8}).cuda()")
        finding = {"check": "torch-create-then-move", "level": "warning", "message": "creates then moves",
                   "file": src, "line": 2, "column": 12, "offset": start, "notes": [],
                   "fixes": [{"file": src, "offset": start, "length": len("torch::rand({8}).cuda()"),
                              "replacement": "torch::rand({8}, torch::TensorOptions().device(torch::kCUDA))"}]}
        inp = self.write("in.json", json.dumps({"tool": "torchlint", "files_analyzed": 1, "findings": [finding], "errors": []}))
        home = os.path.join(self.dir, "home")
        os.makedirs(os.path.join(home, "docs", "probe"))
        with open(os.path.join(home, "docs", "probe", "cuda-h100.json"), "w") as f:
            json.dump({"device": "NVIDIA H100", "torch_version": "2.11", "cuda_version": "13.0",
                       "cases": [{"check": "torch-create-then-move", "name": "create", "speedup": 3.9,
                                  "equivalent": True, "after_source": "fixit",
                                  "before": {"median_ms": 7.8, "counted": {"syncs_per_step": 1}},
                                  "after": {"median_ms": 2.0, "counted": {"syncs_per_step": 0}}},
                                 {"check": "torch-sync-item", "name": "bad", "speedup": 9.0, "equivalent": False}],
                       "seeds": []}, f)
        out = os.path.join(self.dir, "r.html")
        p = subprocess.run([TORCHLINT, "merge", out, inp], cwd=self.dir, capture_output=True, text=True,
                           env=dict(os.environ, TORCHLINT_HOME=home))
        self.assertEqual(1, p.returncode, p.stderr)
        page = open(out).read()
        self.assertIn('<span class="del">-  auto x = torch::rand({8}).cuda();</span>', page)
        self.assertIn('<span class="add">+  auto x = torch::rand({8}, torch::TensorOptions().device(torch::kCUDA));</span>', page)
        self.assertIn("Runtime probe: measured 3.9x faster (7.80 ms -&gt; 2.00 ms per step) on NVIDIA H100 (docs/probe/cuda-h100.json)"
                      "; removes 1 host-device sync per step, counted by the probe", page)
        self.assertNotIn("9.0x", page)  # not equivalent: not cited
        # Markdown shows the same diff and speedup.
        md = os.path.join(self.dir, "r.md")
        subprocess.run([TORCHLINT, "merge", md, inp], cwd=self.dir, capture_output=True, env=dict(os.environ, TORCHLINT_HOME=home))
        text = open(md).read()
        self.assertIn("+  auto x = torch::rand({8}, torch::TensorOptions().device(torch::kCUDA));", text)
        self.assertIn("3.9x on NVIDIA H100", text)

    def test_probe_speedup_is_the_median_gpu_run(self):
        # Three GPU runs of the same case and a faster CPU run: the report cites the GPU run with the
        # median speedup, not the highest (one lease's launch-rate noise) and not the CPU one.
        src = self.write("m.cpp", "int main() {\n  auto x = torch::rand({8}).cuda();\n}\n")
        finding = {"check": "torch-create-then-move", "level": "warning", "message": "creates then moves",
                   "file": src, "line": 2, "column": 12, "notes": [], "fixes": []}
        inp = self.write("in.json", json.dumps({"tool": "torchlint", "files_analyzed": 1, "findings": [finding], "errors": []}))
        home = os.path.join(self.dir, "home")
        os.makedirs(os.path.join(home, "docs", "probe"))
        for name, device, speedup in [("cpu.json", "cpu", 50.0), ("cuda-a.json", "NVIDIA H100", 1.3),
                                      ("cuda-b.json", "NVIDIA H200", 1.01), ("cuda-c.json", "NVIDIA H200", 1.1)]:
            with open(os.path.join(home, "docs", "probe", name), "w") as f:
                json.dump({"device": device, "cases": [{"check": "torch-create-then-move", "name": "create",
                                                        "speedup": speedup, "equivalent": True,
                                                        "before": {"median_ms": 1.0}, "after": {"median_ms": 1.0 / speedup}}],
                           "seeds": []}, f)
        md = os.path.join(self.dir, "r.md")
        p = subprocess.run([TORCHLINT, "merge", md, inp], cwd=self.dir, capture_output=True, text=True,
                           env=dict(os.environ, TORCHLINT_HOME=home))
        self.assertEqual(1, p.returncode, p.stderr)
        text = open(md).read()
        self.assertIn("1.1x on NVIDIA H200", text)
        self.assertNotIn("1.3x", text)
        self.assertNotIn("50.0x", text)

    def test_clean_run(self):
        c = self.write("clean.cpp", CLEAN)
        page = self.html([c])
        self.assertIn('id="clean"', page)
        self.assertIn("<b id=\"total\">0</b>", page)


@unittest.skipUnless(os.environ.get("CHROMIUM"), "set CHROMIUM to run the browser test")
class Browser(Base):
    def chromium(self, url, *args):
        return subprocess.run([os.environ["CHROMIUM"], "--headless", "--no-sandbox", "--disable-gpu",
                               "--no-first-run", "--user-data-dir=" + os.path.join(self.dir, "profile"),
                               "--enable-logging=stderr", "--v=0", *args, url],
                              capture_output=True, text=True, timeout=120)

    def console(self, p):
        return [l for l in p.stderr.splitlines() if ":CONSOLE" in l]

    def test_renders_shows_findings_no_console_errors(self):
        a = self.write("a.cpp", ONE)
        out = os.path.join(self.dir, "report.html")
        self.run_tl("--format=html", "-o", out, a, *flags(self.dir), expect=1)
        p = self.chromium("file://" + out, "--dump-dom")
        self.assertEqual(0, p.returncode, p.stderr[-2000:])
        self.assertEqual([], self.console(p))
        dom = p.stdout
        self.assertIn('data-ready="1"', dom, "the page's script did not run to the end")
        self.assertIn('<span id="shown">1</span>', dom)
        self.assertIn("a.cpp:5:19", dom)
        png = os.path.join(self.dir, "shot.png")
        p = self.chromium("file://" + out, "--screenshot=" + png, "--window-size=1200,1600", "--hide-scrollbars")
        self.assertEqual([], self.console(p))
        self.assertGreater(os.path.getsize(png), 20000)

    def test_console_errors_are_detected(self):
        bad = self.write("bad.html", "<!DOCTYPE html><p>x</p><script>undefinedFunction();</script>")
        p = self.chromium("file://" + bad, "--dump-dom")
        self.assertTrue(any("undefinedFunction" in l for l in self.console(p)), p.stderr[-2000:])


class Markdown(Base):
    def test_pull_request_summary(self):
        a = self.write("a.cpp", ONE)
        p = self.run_tl("--format=markdown", a, *flags(self.dir), expect=1,
                        env={"TORCHLINT_HOME": self.dir})  # a home without docs/probe
        md = p.stdout
        self.assertTrue(md.startswith("### torchlint: 1 finding in 1 file (1 analysed)"), md[:200])
        self.assertIn("| `torch-sync-item` | 1 | 0 | - |", md)
        self.assertIn("- `a.cpp:5:19` **torch-sync-item**:", md)
        c = self.write("clean.cpp", CLEAN)
        p = self.run_tl("--format=md", c, *flags(self.dir), expect=0)
        self.assertIn("No performance anti-patterns found.", p.stdout)


class ProgressLine(Base):
    def run_pty(self, *args):
        import pty
        import select
        master, slave = pty.openpty()
        env = dict(os.environ)
        env.pop("TORCHLINT_PROGRESS", None)
        p = subprocess.Popen([TORCHLINT, *args], cwd=self.dir, stdout=subprocess.DEVNULL, stderr=slave, env=env)
        os.close(slave)
        err = b""
        while True:
            r, _, _ = select.select([master], [], [], 0.2)
            if r:
                try:
                    chunk = os.read(master, 4096)
                except OSError:
                    chunk = b""
                if not chunk and p.poll() is not None:
                    break
                err += chunk
            elif p.poll() is not None:
                break
        p.wait()
        os.close(master)
        return p.returncode, err.decode(errors="replace")

    def test_progress_on_a_terminal_only(self):
        files = [self.write("f%d.cpp" % i, ONE) for i in range(3)]
        for jobs in ("-j=1", "-j=2"):
            rc, err = self.run_pty(jobs, *files, *flags(self.dir))
            self.assertEqual(1, rc, err)
            self.assertRegex(err, r"torchlint: 3/3 files, 3 findings, ETA 0:00", jobs)
            self.assertIn("\x1b[K", err)
        p = self.run_tl(*files, *flags(self.dir), expect=1)
        self.assertNotIn("files,", p.stderr)


class Editors(Base):
    def test_clang_tidy_wrapper_loads_the_plugin(self):
        # tools/clang-tidy-torchlint is what docs/editors.md points editors at.
        wrapper = os.path.join(SOURCE_DIR, "tools", "clang-tidy-torchlint")
        plugin = os.path.join(os.path.dirname(os.path.dirname(TORCHLINT)), "lib", "torchlint-tidy-plugin.so")
        env = dict(os.environ, TORCHLINT_PLUGIN=plugin)
        if os.environ.get("CLANG_TIDY"):
            env["CLANG_TIDY"] = os.environ["CLANG_TIDY"]
        a = self.write("a.cpp", ONE)
        p = subprocess.run([wrapper, "-checks=-*,torch-*", a, *flags(self.dir)], capture_output=True, text=True, env=env)
        self.assertIn("a.cpp:5:19: warning: Tensor::item()", p.stdout, p.stderr)
        self.assertIn("[torch-sync-item]", p.stdout)
        p = subprocess.run([wrapper, "-checks=-*,torch-*", a], capture_output=True, text=True,
                           env=dict(env, TORCHLINT_PLUGIN=os.path.join(self.dir, "none.so")))
        self.assertEqual(2, p.returncode)


class Docs(Base):
    def test_checks_index_is_up_to_date(self):
        gen = os.path.join(SOURCE_DIR, "tools", "gen_checks_index.py")
        p = subprocess.run([sys.executable, gen, "--check"], capture_output=True, text=True)
        self.assertEqual(0, p.returncode, p.stdout + p.stderr)
        # And the check fails on a stale index.
        root = os.path.join(self.dir, "repo")
        shutil.copytree(os.path.join(SOURCE_DIR, "rules"), os.path.join(root, "rules"))
        shutil.copytree(os.path.join(SOURCE_DIR, "docs", "checks"), os.path.join(root, "docs", "checks"))
        with open(os.path.join(root, "rules", "checks.json")) as f:
            cat = json.load(f)
        cat["checks"][0]["summary"] = "changed summary"
        with open(os.path.join(root, "rules", "checks.json"), "w") as f:
            json.dump(cat, f)
        p = subprocess.run([sys.executable, gen, "--check", "--root", root], capture_output=True, text=True)
        self.assertEqual(1, p.returncode, p.stdout + p.stderr)
        self.assertIn("stale", p.stdout + p.stderr)


if __name__ == "__main__":
    unittest.main()
