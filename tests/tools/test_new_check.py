#!/usr/bin/env python3
"""tools/new_check.py, run into a temporary copy of the files it reads and writes (--root): the
scaffold of a new check has every file the tests ask of a check, the catalog stays valid JSON with
its formatting and its other rows unchanged, the checks index is regenerated, and a second run, an
existing name or a bad name is refused with exit 2 and writes nothing. Nothing is written into the
repository."""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import unittest

SOURCE_DIR = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TOOL = os.path.join(SOURCE_DIR, "tools", "new_check.py")
NAME = "torch-scaffold-selftest"
CLS = "ScaffoldSelftestCheck"


def snapshot(root):
    """Every file under root with its bytes."""
    out = {}
    for d, _, fs in os.walk(root):
        for f in fs:
            p = os.path.join(d, f)
            with open(p, "rb") as h:
                out[os.path.relpath(p, root)] = h.read()
    return out


class NewCheckTest(unittest.TestCase):
    def setUp(self):
        self.root = tempfile.mkdtemp(prefix="new-check-")
        for d in ("rules", os.path.join("docs", "checks"), "test_corpus", os.path.join("runtime_probe", "cases")):
            shutil.copytree(os.path.join(SOURCE_DIR, d), os.path.join(self.root, d))
        with open(os.path.join(self.root, "rules", "checks.json"), encoding="utf-8") as f:
            self.catalog_text = f.read()

    def tearDown(self):
        shutil.rmtree(self.root, ignore_errors=True)

    def run_tool(self, *args):
        return subprocess.run([sys.executable, TOOL, "--root", self.root, *args], capture_output=True, text=True)

    def read(self, rel):
        with open(os.path.join(self.root, rel), encoding="utf-8") as f:
            return f.read()

    def test_scaffold_writes_every_file_a_check_needs(self):
        r = self.run_tool(NAME, "--level", "manual", "--category", "allocation")
        self.assertEqual(r.returncode, 0, r.stderr + r.stdout)
        files = [f"rules/{CLS}.h", f"rules/{CLS}.cpp", f"docs/checks/{NAME}.md",
                 f"test_corpus/{NAME}/positive.cpp", f"test_corpus/{NAME}/negative_ok.cpp",
                 f"runtime_probe/cases/{NAME}.cpp"]
        for rel in files:
            self.assertTrue(os.path.isfile(os.path.join(self.root, rel)), rel)
            self.assertIn(rel, r.stdout)

        # The catalog: valid JSON, formatted as before (json.dumps, indent 2), the other rows
        # unchanged, the new row last with the fields cmake/Catalog.cmake reads.
        text = self.read("rules/checks.json")
        catalog = json.loads(text)
        self.assertEqual(text, json.dumps(catalog, indent=2, ensure_ascii=False) + "\n")
        old = json.loads(self.catalog_text)
        self.assertEqual(catalog["checks"][:-1], old["checks"])
        self.assertEqual(catalog["about"], old["about"])
        row = catalog["checks"][-1]
        self.assertEqual(row["name"], NAME)
        self.assertEqual(row["level"], "manual")
        self.assertEqual(row["category"], "allocation")
        self.assertIs(row["fixable"], False)
        self.assertEqual(set(row), {"name", "level", "category", "summary", "description", "seed", "fixable"})
        self.assertEqual(len(re.findall(r'"name"\s*:', text)), len(catalog["checks"]))

        # The check: a purpose paragraph on top, derived from TorchCheck, with the new include paths.
        h = self.read(f"rules/{CLS}.h")
        self.assertTrue(h.startswith(f"// {NAME}: "), h[:80])
        self.assertIn('#include "checkbase/TorchCheck.h"', h)
        self.assertIn(f"class {CLS} : public TorchCheck", h)
        cpp = self.read(f"rules/{CLS}.cpp")
        self.assertIn(f'#include "rules/{CLS}.h"', cpp)
        self.assertIn(f"void {CLS}::registerMatchers", cpp)
        self.assertIn(f"void {CLS}::check", cpp)

        # The doc page: the sections check pages share, the level and category of the row.
        page = self.read(f"docs/checks/{NAME}.md")
        self.assertTrue(page.startswith(f"# {NAME}\n"))
        for section in ("## What it finds", "## Why", "## Cost", "## How to fix", "## Options"):
            self.assertIn("\n" + section + "\n", page)
        self.assertIn("category `allocation`", page)
        self.assertIn("**manual**", page)

        # The corpus: a positive case with an expectation in the harness's syntax, a negative case
        # (named as corpus_test recognises one) with none.
        pos = self.read(f"test_corpus/{NAME}/positive.cpp")
        self.assertRegex(pos, r"// CHECK-MESSAGES: :\[\[@LINE-1\]\]:\d+: warning: .* \[" + re.escape(NAME) + r"\]")
        neg = self.read(f"test_corpus/{NAME}/negative_ok.cpp")
        self.assertNotIn("CHECK-", neg)

        # The probe case: registered for the check (probe_covers_catalog), before and after.
        probe = self.read(f"runtime_probe/cases/{NAME}.cpp")
        self.assertIn(f'PROBE_CASE("{NAME}"', probe)
        self.assertIn("struct Before", probe)
        self.assertIn("struct After", probe)

        # The index of the checks was regenerated and is current.
        self.assertIn(NAME, self.read("docs/checks/README.md"))
        gen = subprocess.run([sys.executable, os.path.join(SOURCE_DIR, "tools", "gen_checks_index.py"),
                              "--root", self.root, "--check"], capture_output=True, text=True)
        self.assertEqual(gen.returncode, 0, gen.stdout + gen.stderr)

        # A second run refuses and changes nothing.
        before = snapshot(self.root)
        again = self.run_tool(NAME)
        self.assertEqual(again.returncode, 2)
        self.assertIn("already exists", again.stderr)
        self.assertEqual(snapshot(self.root), before)

    def test_per_call_marks_the_row(self):
        # --per-call: the row says "per_call": true (cmake/Catalog.cmake reads it into
        # CheckInfo::costsPerCall); without it the row has no such key (false).
        r = self.run_tool(NAME, "--per-call")
        self.assertEqual(r.returncode, 0, r.stderr + r.stdout)
        row = json.loads(self.read("rules/checks.json"))["checks"][-1]
        self.assertIs(row.get("per_call"), True)
        # The catalog's own per-call checks: the allocation and kernel-launch ones.
        per_call = sorted(c["name"] for c in json.loads(self.catalog_text)["checks"] if c.get("per_call"))
        self.assertEqual(per_call, ["torch-alloc-in-forward", "torch-empty-cache-in-loop", "torch-index-in-loop",
                                    "torch-pointwise-fusion"])

    def test_dry_run_lists_and_writes_nothing(self):
        before = snapshot(self.root)
        r = self.run_tool(NAME, "--dry-run")
        self.assertEqual(r.returncode, 0, r.stderr)
        for rel in (f"rules/{CLS}.h", f"rules/{CLS}.cpp", f"docs/checks/{NAME}.md", "rules/checks.json",
                    f"test_corpus/{NAME}/positive.cpp", f"runtime_probe/cases/{NAME}.cpp"):
            self.assertIn(rel, r.stdout)
        self.assertEqual(snapshot(self.root), before)

    def test_refuses_existing_and_bad_names(self):
        before = snapshot(self.root)
        r = self.run_tool("torch-sync-item")
        self.assertEqual(r.returncode, 2)
        self.assertIn("already exists", r.stderr)
        for bad in ("foo-bar", "torch-", "torch-Foo", "torch-foo_bar", "torch-foo--bar", "torch-foo-", "torch foo"):
            r = self.run_tool(bad)
            self.assertEqual(r.returncode, 2, bad)
            self.assertIn("bad check name", r.stderr, bad)
        # A name whose files exist although the catalog lacks it (a half-removed check).
        os.makedirs(os.path.join(self.root, "test_corpus", NAME))
        r = self.run_tool(NAME)
        self.assertEqual(r.returncode, 2)
        self.assertIn(f"test_corpus/{NAME}", r.stderr)
        os.rmdir(os.path.join(self.root, "test_corpus", NAME))
        self.assertEqual(snapshot(self.root), before)

    def test_class_names_match_the_catalog(self):
        # The tool derives the class as cmake/Catalog.cmake does: every catalogued check's class exists.
        sys.dont_write_bytecode = True
        sys.path.insert(0, os.path.join(SOURCE_DIR, "tools"))
        import new_check
        for c in json.loads(self.catalog_text)["checks"]:
            cls = new_check.class_name(c["name"])
            self.assertTrue(os.path.isfile(os.path.join(SOURCE_DIR, "rules", cls + ".h")), cls)


if __name__ == "__main__":
    unittest.main()
