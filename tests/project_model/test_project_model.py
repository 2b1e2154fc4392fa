#!/usr/bin/env python3
"""Multi-file projects through `torchlint -p build` (the project model, issue 23).

Each folder here is a small project written against fuzz/stubs/torch_mini.h (no libtorch parse),
with expected.json: the findings of the whole-project run ("project") and of the per-file run
(`--no-project`, "per_file"), each a list of {check, file, line, contains[, level]}, compared
exactly on (check, file, line); "args" lists options for both runs (`--header-filter=.*` to see
findings in headers); "notes" lists substrings stderr must hold in project mode; "missing" lists
files the compile database names that do not exist. The case is copied into a temporary folder
with a compile_commands.json for every .cpp file.

Also: the result cache holds the summaries (a warm re-run analyses nothing; an edit to one file
re-analyses that file only), a cached summary of another torchlint version is ignored with a note,
and `-p build` with no files reports on every file of the database.

Shards (`-p build --shard K/N`) split every file of the database and carry their summaries;
`torchlint merge` decides their findings with the whole model.

And `torchlint index -p build` writes build/torchlint-index.json, which the clang-tidy plugin
reads: its findings are then decided by the whole project (a cross-file finding appears, a
loading loop's findings go), and without an index it says so once and decides per file.

Environment: TORCHLINT (the CLI), TORCHLINT_SOURCE_DIR (the repository), TORCHLINT_PLUGIN (the
clang-tidy plugin; its test is skipped without it or without clang-tidy-19).
"""
import glob
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE_DIR = os.environ.get("TORCHLINT_SOURCE_DIR", os.path.dirname(os.path.dirname(HERE)))
TORCHLINT = os.environ.get("TORCHLINT", os.path.join(SOURCE_DIR, "build", "bin", "torchlint"))
PLUGIN = os.environ.get("TORCHLINT_PLUGIN", "")
STUBS = os.path.join(SOURCE_DIR, "fuzz", "stubs")
CASES = sorted(d for d in os.listdir(HERE) if os.path.isfile(os.path.join(HERE, d, "expected.json")))


def lay_out(case, root):
    """Copies the case into root/src and writes root/build/compile_commands.json."""
    src = os.path.join(root, "src")
    shutil.copytree(os.path.join(HERE, case), src)
    with open(os.path.join(src, "expected.json")) as f:
        expected = json.load(f)
    os.makedirs(os.path.join(root, "build"))
    entries = []
    for path in sorted(glob.glob(os.path.join(src, "*.cpp"))) + [os.path.join(src, m) for m in expected.get("missing", [])]:
        entries.append({"directory": src, "file": path,
                        "command": "clang++ -std=c++17 -nostdinc -isystem %s -I%s -c %s" % (STUBS, src, path)})
    with open(os.path.join(root, "build", "compile_commands.json"), "w") as f:
        json.dump(entries, f, indent=1)
    return src, expected


def run(root, *args, cache=None):
    cmd = [TORCHLINT, "--format=json", "-j1", "-p", os.path.join(root, "build")] + list(args)
    env = dict(os.environ, TORCHLINT_CACHE_DIR=cache or os.path.join(root, "cache"))
    p = subprocess.run(cmd, capture_output=True, text=True, env=env, cwd=root)
    if p.returncode not in (0, 1):
        raise AssertionError("torchlint failed (%d): %s\n%s" % (p.returncode, " ".join(cmd), p.stderr))
    return json.loads(p.stdout)["findings"] if p.stdout.strip() else [], p.stderr


def torch_findings(findings):
    return sorted((f["check"], os.path.basename(f["file"]), f["line"]) for f in findings
                  if f["check"].startswith("torch-"))


class ProjectModel(unittest.TestCase):
    def check_case(self, case, mode):
        with tempfile.TemporaryDirectory() as root:
            src, expected = lay_out(case, root)
            args = expected.get("args", []) + (["--no-project"] if mode == "per_file" else [])
            if mode == "per_file":
                args += sorted(glob.glob(os.path.join(src, "*.cpp")))
            findings, stderr = run(root, *args)
            want = expected[mode]
            self.assertEqual(sorted((w["check"], w["file"], w["line"]) for w in want), torch_findings(findings),
                             "%s (%s): %s" % (case, mode, json.dumps(findings, indent=1)))
            unmatched = list(findings)
            for w in want:
                # Each expectation takes a finding of its own (a header's line may have one per includer).
                same = [f for f in unmatched if (f["check"], os.path.basename(f["file"]), f["line"]) ==
                        (w["check"], w["file"], w["line"])]
                f = next((f for f in same if w.get("contains", "") in f["message"]), same[0])
                unmatched.remove(f)
                self.assertIn(w.get("contains", ""), f["message"])
                if "level" in w:
                    self.assertEqual(w["level"], f["level"], f["message"])
                self.assertNotIn("\x1f", f["message"], "the basis marker is stripped")
            if mode == "project":
                for n in expected.get("notes", []):
                    self.assertIn(n, stderr)

    def test_cases(self):
        self.assertTrue(CASES)
        for case in CASES:
            for mode in ("project", "per_file"):
                with self.subTest(case=case, mode=mode):
                    self.check_case(case, mode)

    def test_the_compile_database_is_parsed_once(self):
        # The input checks, the discovery of build/ and the driver share one parse
        # (cli/CompileDatabase.h); --accel-log says how many there were.
        with tempfile.TemporaryDirectory() as root:
            src, _ = lay_out("metrics_cross_file", root)
            os.makedirs(os.path.join(root, ".git"))  # the repository root: build/ below it is found
            train = os.path.join(src, "train.cpp")
            build = os.path.join(root, "build")
            for args in (["-p", build], ["-p", build, train], ["-p", build, "--no-project", train],
                         ["-p", os.path.join(build, "compile_commands.json"), train], [train]):
                with self.subTest(args=args):
                    env = dict(os.environ, TORCHLINT_CACHE_DIR=os.path.join(root, "cache"))
                    p = subprocess.run([TORCHLINT, "--accel-log", "-j1"] + args, capture_output=True, text=True,
                                       env=env, cwd=root)
                    self.assertIn(p.returncode, (0, 1), p.stderr)
                    self.assertIn("compile_commands.json parsed 1 time(s)", p.stderr)

    def test_no_project_with_workers_decides_each_file_alone(self):
        # --no-project reaches the -j workers: their findings are per-file ones, whose messages
        # carry no project-model basis (before, each worker ran in project mode and the text
        # output showed the raw basis, "torchlint-hot...", and unfilled placeholders).
        with tempfile.TemporaryDirectory() as root:
            src, _ = lay_out("host_inplace_make_shared", root)
            files = sorted(glob.glob(os.path.join(src, "*.cpp")))
            env = dict(os.environ, TORCHLINT_CACHE_DIR=os.path.join(root, "cache"))
            p = subprocess.run([TORCHLINT, "-j2", "--no-project", "-p", os.path.join(root, "build")] + files,
                               capture_output=True, text=True, env=env, cwd=root)
            self.assertEqual(1, p.returncode, p.stderr)
            self.assertEqual(3, p.stdout.count("[torch-sync-item]"), p.stdout)
            self.assertNotIn("torchlint-hot", p.stdout)
            self.assertNotIn("\x1f", p.stdout)

    def test_the_message_names_the_path_and_sarif_carries_it(self):
        with tempfile.TemporaryDirectory() as root:
            src, _ = lay_out("metrics_cross_file", root)
            env = dict(os.environ, TORCHLINT_CACHE_DIR=os.path.join(root, "cache"))
            p = subprocess.run([TORCHLINT, "--format=sarif", "-p", os.path.join(root, "build"),
                                os.path.join(src, "metrics.cpp")], capture_output=True, text=True, env=env)
            self.assertEqual(1, p.returncode, p.stderr)
            results = json.loads(p.stdout)["runs"][0]["results"]
            self.assertEqual(1, len(results))
            related = results[0].get("relatedLocations", [])
            self.assertEqual(["the step loop in fit()", "calls Metrics::update() here"],
                             [r["message"]["text"] for r in related])
            self.assertTrue(related[1]["physicalLocation"]["artifactLocation"]["uri"].endswith("train.cpp"))
            self.assertEqual(14, related[1]["physicalLocation"]["region"]["startLine"])

    def tidy(self, root, path, check="torch-sync-item", **env):
        environ = {k: v for k, v in os.environ.items() if k != "TORCHLINT_INDEX"}
        environ.update(env)
        p = subprocess.run(["clang-tidy-19", "-load", PLUGIN, "-checks=-*," + check, "-p",
                            os.path.join(root, "build"), path], capture_output=True, text=True, env=environ)
        found = sorted(set((os.path.basename(m.group(1)), int(m.group(2)))
                           for m in re.finditer(r"^(\S+):(\d+):\d+: (?:warning|remark): .*\[%s\]$" % re.escape(check),
                                                p.stdout, re.M)))
        return found, p.stdout, p.stderr

    def test_the_index_carries_widened_host_tensors_to_the_plugin(self):
        if not PLUGIN or not os.path.isfile(PLUGIN) or not shutil.which("clang-tidy-19"):
            self.skipTest("no plugin or no clang-tidy-19")
        with tempfile.TemporaryDirectory() as root:
            src, expected = lay_out("host_widened", root)
            train = os.path.join(src, "train.cpp")
            check = "torch-host-convert-then-copy"
            found, _, _ = self.tidy(root, train, check)
            self.assertEqual([], found, "without an index: nothing to decide it with")
            p = subprocess.run([TORCHLINT, "index", "-p", os.path.join(root, "build")], capture_output=True,
                               text=True, env=dict(os.environ, TORCHLINT_CACHE_DIR=os.path.join(root, "cache")))
            self.assertEqual(0, p.returncode, p.stderr)
            found, out, err = self.tidy(root, train, check)
            self.assertEqual(sorted((w["file"], w["line"]) for w in expected["project"]), found, out + err)
            self.assertIn("was converted from uint8 on the host (in imageToTensor(), loader.cpp:5)", out)
            self.assertNotIn("\x1c", out, "the placeholders are filled in")
            self.assertNotIn("\x1f", out, "the basis marker is stripped")

    def test_the_index_carries_program_facts_and_gradient_needs_to_the_plugin(self):
        if not PLUGIN or not os.path.isfile(PLUGIN) or not shutil.which("clang-tidy-19"):
            self.skipTest("no plugin or no clang-tidy-19")
        for case, check in (("cudnn_across_files", "torch-cudnn-benchmark"),
                            ("cudnn_configured_elsewhere", "torch-cudnn-benchmark"),
                            ("eval_forward_elsewhere", "torch-eval-no-grad")):
            with self.subTest(case=case), tempfile.TemporaryDirectory() as root:
                src, expected = lay_out(case, root)
                main = os.path.join(src, "main.cpp")
                found, _, _ = self.tidy(root, main, check)
                self.assertEqual(sorted((w["file"], w["line"]) for w in expected["per_file"]), found,
                                 "without an index: the file's own answer")
                p = subprocess.run([TORCHLINT, "index", "-p", os.path.join(root, "build")], capture_output=True,
                                   text=True, env=dict(os.environ, TORCHLINT_CACHE_DIR=os.path.join(root, "cache")))
                self.assertEqual(0, p.returncode, p.stderr)
                found, out, err = self.tidy(root, main, check)
                self.assertEqual(sorted((w["file"], w["line"]) for w in expected["project"]), found, out + err)
                for w in expected["project"]:
                    self.assertIn(w["contains"], out)
                self.assertNotIn("\x1c", out, "the placeholders are filled in")
                self.assertNotIn("\x1f", out, "the basis marker is stripped")

    def test_torchlint_index_feeds_the_clang_tidy_plugin(self):
        if not PLUGIN or not os.path.isfile(PLUGIN) or not shutil.which("clang-tidy-19"):
            self.skipTest("no plugin or no clang-tidy-19")
        with tempfile.TemporaryDirectory() as root:
            src, _ = lay_out("metrics_cross_file", root)
            loader_root = os.path.join(root, "loader")
            os.makedirs(loader_root)
            loader_src, _ = lay_out("loader_once", loader_root)
            metrics = os.path.join(src, "metrics.cpp")
            loader = os.path.join(loader_src, "loader.cpp")
            # No index: each file alone, said once per process.
            found, _, err = self.tidy(root, metrics)
            self.assertEqual([], found)
            self.assertEqual(1, err.count("no project index"), err)
            found, _, _ = self.tidy(loader_root, loader)
            self.assertEqual([("loader.cpp", 11), ("loader.cpp", 21)], found, "any loop counts per file")
            # The index: the metrics helper is hot from train.cpp's loop; the loading loops are not steps.
            for r in (root, loader_root):
                p = subprocess.run([TORCHLINT, "index", "-p", os.path.join(r, "build")], capture_output=True,
                                   text=True, env=dict(os.environ, TORCHLINT_CACHE_DIR=os.path.join(r, "cache")))
                self.assertEqual(0, p.returncode, p.stderr)
                self.assertIn("wrote the project index of 2 translation units", p.stderr)
                self.assertTrue(os.path.isfile(os.path.join(r, "build", "torchlint-index.json")))
                self.assertEqual("", p.stdout, "index writes no report")
            found, out, err = self.tidy(root, metrics)
            self.assertEqual([("metrics.cpp", 4)], found, out + err)
            self.assertIn("called on every step of the loop in fit() at train.cpp:9", out)
            self.assertNotIn("no project index", err)
            self.assertNotIn("\x1f", out, "the basis marker is stripped")
            found, _, _ = self.tidy(loader_root, loader)
            self.assertEqual([], found)
            # TORCHLINT_INDEX=none: per file again; a broken index: per file, said once.
            found, _, _ = self.tidy(root, metrics, TORCHLINT_INDEX="none")
            self.assertEqual([], found)
            with open(os.path.join(root, "build", "torchlint-index.json"), "w") as f:
                f.write("{not json")
            found, _, err = self.tidy(root, metrics)
            self.assertEqual([], found)
            self.assertEqual(1, err.count("torchlint-index.json' cannot be read"), err)
            # torchlint index without a database is an input error.
            p = subprocess.run([TORCHLINT, "index", metrics], capture_output=True, text=True)
            self.assertEqual(2, p.returncode)
            self.assertIn("torchlint index needs a compile database", p.stderr)

    def test_shards_split_the_database_and_merge_decides_with_the_whole_model(self):
        for case, want in (("metrics_cross_file", [("torch-sync-item", "metrics.cpp", 4)]), ("loader_once", [])):
            with self.subTest(case=case), tempfile.TemporaryDirectory() as root:
                lay_out(case, root)
                env = dict(os.environ, TORCHLINT_CACHE_DIR=os.path.join(root, "cache"))
                shards = []
                for k in (1, 2):
                    out = os.path.join(root, "shard-%d.sarif" % k)
                    p = subprocess.run([TORCHLINT, "-p", os.path.join(root, "build"), "--shard=%d/2" % k,
                                        "--format=sarif", "-o", out, "--accel-log"], capture_output=True, text=True,
                                       env=env, cwd=root)
                    self.assertIn(p.returncode, (0, 1), p.stderr)
                    self.assertEqual(1, p.stderr.count(": analysed,"), "each shard parses its half: " + p.stderr)
                    with open(out) as f:
                        self.assertEqual(1, len(json.load(f)["runs"][0]["properties"]["torchlint/summaries"]))
                    shards.append(out)
                merged = os.path.join(root, "merged.json")
                p = subprocess.run([TORCHLINT, "merge", merged] + shards, capture_output=True, text=True, cwd=root)
                self.assertIn(p.returncode, (0, 1), p.stderr)
                with open(merged) as f:
                    doc = json.load(f)
                self.assertEqual(want, torch_findings(doc["findings"]))
                self.assertNotIn("summaries", doc)
                for f in doc["findings"]:
                    self.assertNotIn("\x1f", f["message"])
                    self.assertIn("called on every step of the loop in fit() at train.cpp:9", f["message"])
                whole, _ = run(root)
                self.assertEqual(torch_findings(whole), want, "the same as one whole-project run")
        with tempfile.TemporaryDirectory() as root:
            lay_out("metrics_cross_file", root)
            p = subprocess.run([TORCHLINT, "-p", os.path.join(root, "build"), "--shard=1/2"], capture_output=True,
                               text=True, env=dict(os.environ, TORCHLINT_CACHE_DIR=os.path.join(root, "cache")))
            self.assertEqual(2, p.returncode)
            self.assertIn("use --format=sarif or --format=json", p.stderr)

    def test_a_named_file_is_reported_on_with_the_whole_project_as_model(self):
        with tempfile.TemporaryDirectory() as root:
            src, _ = lay_out("metrics_cross_file", root)
            findings, _ = run(root, os.path.join(src, "train.cpp"))
            self.assertEqual([], torch_findings(findings), "metrics.cpp's finding is not train.cpp's")
            findings, _ = run(root, os.path.join(src, "metrics.cpp"))
            self.assertEqual([("torch-sync-item", "metrics.cpp", 4)], torch_findings(findings))

    def test_another_files_missing_header_does_not_fail_a_named_files_run(self):
        # `torchlint -p build train.cpp`: extra.cpp, read only for the model, misses a header. That is
        # one notice naming it, not an input error of this run (exit 0/1; run() asserts it).
        with tempfile.TemporaryDirectory() as root:
            src, _ = lay_out("metrics_cross_file", root)
            extra = os.path.join(src, "extra.cpp")
            with open(extra, "w") as f:
                f.write("#include <not_installed.h>\nint helper() { return lib::answer() +; }\n")
            db = os.path.join(root, "build", "compile_commands.json")
            with open(db) as f:
                entries = json.load(f)
            entries.append(dict(entries[0], file=extra, command=entries[0]["command"].replace(entries[0]["file"], extra)))
            with open(db, "w") as f:
                json.dump(entries, f)
            findings, _ = run(root, os.path.join(src, "metrics.cpp"))
            self.assertEqual([("torch-sync-item", "metrics.cpp", 4)], torch_findings(findings))
            self.assertFalse([f for f in findings if f["check"].startswith("clang-diagnostic")], findings)
            p = subprocess.run([TORCHLINT, "-j1", "-p", os.path.join(root, "build"), os.path.join(src, "metrics.cpp")],
                               capture_output=True, text=True, env=dict(os.environ, TORCHLINT_CACHE_DIR=os.path.join(root, "cache")),
                               cwd=root)
            self.assertEqual(1, p.returncode, p.stderr)
            said = p.stdout + p.stderr
            self.assertIn("1 file of the compile database read only for the project model was analysed partially", said)
            self.assertIn("extra.cpp", said)
            # Named, it is the user's input problem, as before.
            p = subprocess.run([TORCHLINT, "-j1", "-p", os.path.join(root, "build"), extra], capture_output=True, text=True,
                               env=dict(os.environ, TORCHLINT_CACHE_DIR=os.path.join(root, "cache")), cwd=root)
            self.assertIn(p.returncode, (2, 3), p.stderr)

    def test_cached_summaries_are_not_parsed_again_and_an_edit_reparses_one_file(self):
        with tempfile.TemporaryDirectory() as root:
            src, _ = lay_out("virtual_agent", root)
            first, log = run(root, "--accel-log")
            self.assertEqual(2, log.count(": analysed,"), log)
            again, log = run(root, "--accel-log")
            self.assertEqual(0, log.count(": analysed,"), log)
            self.assertEqual(2, log.count(": cached result"), log)
            self.assertEqual(torch_findings(first), torch_findings(again))
            with open(os.path.join(src, "runner.cpp"), "a") as f:
                f.write("\n// edited\n")
            edited, log = run(root, "--accel-log")
            self.assertEqual(1, log.count(": analysed,"), log)
            self.assertIn("runner.cpp: analysed", log)
            self.assertEqual(torch_findings(first), torch_findings(edited))

    def test_a_cached_summary_of_another_version_is_ignored_with_a_note(self):
        with tempfile.TemporaryDirectory() as root:
            lay_out("metrics_cross_file", root)
            first, _ = run(root)
            self.assertEqual([("torch-sync-item", "metrics.cpp", 4)], torch_findings(first))
            entries = glob.glob(os.path.join(root, "cache", "results", "*", "*.json"))
            self.assertEqual(2, len(entries))
            for e in entries:
                with open(e) as f:
                    entry = json.load(f)
                summary = json.loads(entry["summary"])
                summary["format"] = 0
                summary["torchlint"] = "0.0.1"
                entry["summary"] = json.dumps(summary)
                with open(e, "w") as f:
                    json.dump(entry, f)
            findings, stderr = run(root)
            self.assertIn("is ignored: written by another torchlint version (0.0.1, summary format 0", stderr)
            # Without the summaries the model has no step loop: the per-file answers stand.
            self.assertEqual([], torch_findings(findings))


if __name__ == "__main__":
    if not os.path.exists(TORCHLINT):
        sys.exit("no torchlint at %s (set TORCHLINT)" % TORCHLINT)
    unittest.main()
