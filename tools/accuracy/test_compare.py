#!/usr/bin/env python3
"""Offline tests of the accuracy benchmark's comparison (tools/accuracy/run.py): verdict matching within
the line tolerance, misses, and the precision/recall arithmetic. Run by ctest (accuracy_compare)."""
import json
import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import run  # noqa: E402


def F(line, check="torch-sync-item", file="a.cpp", repo="r"):
    return {"repo": repo, "file": file, "line": line, "check": check, "message": "m"}


def V(line, verdict, check="torch-sync-item", file="a.cpp", repo="r"):
    return {"repo": repo, "file": file, "line": line, "check": check, "verdict": verdict, "why": "w%d" % line}


class StepInUnjudgedCode(unittest.TestCase):
    SRC = ("#include <torch/torch.h>\n"          # 1
           "void log(const char *s) {\n"          # 2
           "  fmt(\"{\", s); // }\n"            # 3
           "}\n"                                  # 4
           "void train(Net &net) {\n"             # 5
           "  for (;;) {\n"                       # 6
           "    loss.backward();\n"               # 7
           "  }\n"                                # 8
           "}\n")                                 # 9
    PARTIAL = "'a.cpp': analysed partially: headers not found: 'spdlog/spdlog.h' (a.cpp:1, declarations were synthesised); "

    def test_a_function_of_the_file_holding_the_step(self):
        self.assertTrue(run.step_in_unjudged_code(self.SRC, [self.PARTIAL + "code not judged in train() (line 5)"]))

    def test_other_functions_are_not_the_step(self):
        # log()'s braces in a string and a comment do not run it into train().
        self.assertFalse(run.step_in_unjudged_code(self.SRC, [self.PARTIAL + "code not judged in log() (line 2) (1 compiler error follows)"]))
        self.assertFalse(run.step_in_unjudged_code(self.SRC, [self.PARTIAL + "code not judged in gs::Logger::log_internal() (logger.hpp:5)"]))
        self.assertFalse(run.step_in_unjudged_code(self.SRC, [self.PARTIAL + "a stand-in was used"]))

    def test_unknown_extent_counts_the_whole_file(self):
        self.assertTrue(run.step_in_unjudged_code(self.SRC, [self.PARTIAL + "code not judged in f() (line 2), and 3 more"]))
        self.assertTrue(run.step_in_unjudged_code(self.SRC, ["'a.cpp': error: expected ';'"]))
        self.assertEqual(run.body_end(self.SRC.splitlines(), 1), 3)
        self.assertEqual(run.body_end(["void f();", "int x;"], 0), 0)


class Compare(unittest.TestCase):
    def test_nearest_verdict_within_tolerance(self):
        judged, _ = run.match([F(12)], [V(10, "FP"), V(13, "TP")], [])
        self.assertEqual(judged[0]["verdict"], "TP")
        self.assertEqual(judged[0]["why"], "w13")

    def test_beyond_tolerance_is_unjudged(self):
        judged, _ = run.match([F(20)], [V(10, "TP")], [])
        self.assertEqual(judged[0]["verdict"], "unjudged")

    def test_other_check_file_or_repo_does_not_match(self):
        judged, _ = run.match([F(10, check="torch-sync-print"), F(10, file="b.cpp"), F(10, repo="q")], [V(10, "TP")], [])
        self.assertEqual([j["verdict"] for j in judged], ["unjudged"] * 3)

    def test_a_verdict_is_used_once(self):
        judged, _ = run.match([F(10), F(11)], [V(10, "TP")], [])
        self.assertEqual(sorted(j["verdict"] for j in judged), ["TP", "unjudged"])

    def test_found_miss_is_a_true_positive_and_leaves_the_misses(self):
        misses = [dict(V(30, "TP"), why="loss.item per step"), dict(V(50, "TP"), check="torch-loader-workers")]
        judged, missed = run.match([F(31)], [], misses)
        self.assertEqual(judged[0]["verdict"], "TP")
        self.assertTrue(judged[0]["miss_found"])
        self.assertEqual([m["line"] for m in missed], [50])

    def test_rows(self):
        judged, missed = run.match([F(1), F(10), F(20), F(40), F(60, check="torch-sync-print")],
                                   [V(1, "TP"), V(10, "TP"), V(20, "FP"), V(40, "debatable")],
                                   [V(80, "TP"), V(90, "TP", check="torch-sync-print")])
        rows = run.per_check(judged, missed)
        item = rows["torch-sync-item"]
        self.assertEqual((item["findings"], item["TP"], item["FP"], item["debatable"], item["misses"]), (4, 2, 1, 1, 1))
        self.assertAlmostEqual(item["precision"], 2 / 3)
        self.assertAlmostEqual(item["recall"], 2 / 3)
        pr = rows["torch-sync-print"]
        self.assertEqual((pr["unjudged"], pr["precision"], pr["recall"]), (1, None, 0.0))
        self.assertEqual(rows["all"]["findings"], 5)
        self.assertEqual(rows["all"]["misses"], 2)

    def test_remarks_are_counted_and_left_out_of_the_precision_of_warnings(self):
        remark = dict(F(20), level="remark")
        old_remark = dict(F(40), message="item() syncs; a remark, not a warning: only in the logging branch")
        judged, _ = run.match([F(1), remark, old_remark], [V(1, "TP"), V(20, "FP"), V(40, "FP")], [])
        item = run.per_check(judged, [])["torch-sync-item"]
        self.assertEqual(item["remarks"], 2)
        self.assertAlmostEqual(item["precision"], 1 / 3)
        self.assertAlmostEqual(item["precision_warnings"], 1.0)

    def test_per_project_rows_keep_manifest_order_and_sets(self):
        manifest = {"repos": [{"name": "b", "set": "unseen-2"}, {"name": "a"}]}
        judged, missed = run.match([F(1, repo="a"), F(5, repo="b"), F(9, repo="b")],
                                   [V(1, "TP", repo="a"), V(5, "FP", repo="b"), V(9, "TP", repo="b")],
                                   [V(20, "TP", repo="b")])
        rows = run.per_project(manifest, judged, missed)
        self.assertEqual(list(rows), ["b", "a"])
        self.assertEqual(rows["a"]["set"], "original")
        self.assertEqual((rows["b"]["TP"], rows["b"]["FP"], rows["b"]["misses"]), (1, 1, 1))
        self.assertAlmostEqual(rows["b"]["precision"], 0.5)
        self.assertAlmostEqual(rows["b"]["recall"], 0.5)

    def test_misses_of_checks_not_built_are_kept_apart(self):
        misses = [dict(V(3, "TP"), check="torch-sync-item"), dict(V(4, "TP"), check="torch-optimizer-in-loop")]
        kept, unbuilt = run.split_unbuilt(misses, {"torch-sync-item"})
        self.assertEqual([m["check"] for m in kept], ["torch-sync-item"])
        self.assertEqual([m["check"] for m in unbuilt], ["torch-optimizer-in-loop"])
        kept, unbuilt = run.split_unbuilt(misses, None)  # no torchlint to ask: nothing set apart
        self.assertEqual((len(kept), len(unbuilt)), (2, 0))

    def test_whole_project_database_lists_every_translation_unit(self):
        import tempfile
        with tempfile.TemporaryDirectory() as d:
            for f in ("src/a.cpp", "src/b.cc", "tools/c.cpp", "third_party/x.cpp", "src/a.h"):
                os.makedirs(os.path.dirname(os.path.join(d, f)), exist_ok=True)
                open(os.path.join(d, f), "w").close()
            repo = {"name": "r", "files": ["src/a.cpp"], "exclude": ["third_party/**"], "includes": ["src"], "torch": 1}
            n = run.write_database(repo, d, os.path.join(d, "db"))
            db = json.load(open(os.path.join(d, "db", "compile_commands.json")))
            self.assertEqual(n, 3)
            self.assertEqual(sorted(os.path.relpath(e["file"], d) for e in db), ["src/a.cpp", "src/b.cc", "tools/c.cpp"])
            for e in db:
                self.assertEqual(e["arguments"][0], "/usr/bin/c++")  # absolute, as CMake writes it
                self.assertIn("-isystem", e["arguments"])
                self.assertIn(os.path.join(d, "src"), e["arguments"])
                self.assertEqual(e["directory"], d)

    def test_committed_verdicts_are_well_formed(self):
        here = os.path.dirname(os.path.abspath(__file__))
        names = {r["name"] for r in json.load(open(os.path.join(here, "repos.json")))["repos"]}
        for name, need_verdict in (("verdicts.json", True), ("misses.json", False)):
            for v in json.load(open(os.path.join(here, name))):
                self.assertIn(v["repo"], names, v)
                self.assertTrue(v["check"].startswith("torch-"), v)
                self.assertIsInstance(v["line"], int, v)
                self.assertTrue(v.get("why"), v)
                if need_verdict:
                    self.assertIn(v["verdict"], ("TP", "FP", "debatable"), v)


if __name__ == "__main__":
    unittest.main()
