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
