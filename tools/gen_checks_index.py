#!/usr/bin/env python3
"""Generates docs/checks/README.md, the index of torchlint's checks, from rules/checks.json.

  tools/gen_checks_index.py           rewrite docs/checks/README.md
  tools/gen_checks_index.py --check   exit 1 if it is stale (the test suite runs this)
"""
import argparse
import json
import os
import sys

HEADER = """\
<!-- Generated from rules/checks.json by tools/gen_checks_index.py. Do not edit; run the script. -->
# torchlint checks

Every check, from the catalog (`rules/checks.json`). Levels: `0` on by default, no known false
positives; `1` on by default, advice right in nearly all training code (`--level=0` turns them off);
`manual` off unless named in `--checks`. `torchlint --list-checks` prints the same list and
`torchlint --explain CHECK` prints a check's page.

"""


def render(catalog):
    checks = catalog["checks"]
    out = [HEADER]
    out.append("%d checks, %d with a fix-it (`torchlint --fix`).\n\n" % (len(checks), sum(1 for c in checks if c.get("fixable"))))
    by_cat = {}
    for c in checks:
        by_cat.setdefault(c["category"], []).append(c)
    for cat in sorted(by_cat):
        out.append("## %s\n\n| Check | Level | Fix-it | Summary |\n| --- | --- | --- | --- |\n" % cat)
        for c in sorted(by_cat[cat], key=lambda c: c["name"]):
            summary = c["summary"].replace("|", "\\|")
            out.append("| [`%s`](%s.md) | %s | %s | %s |\n" % (c["name"], c["name"], c["level"],
                                                             "yes" if c.get("fixable") else "", summary))
        out.append("\n")
    return "".join(out)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--check", action="store_true", help="fail if docs/checks/README.md is stale")
    ap.add_argument("--root", default=os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    args = ap.parse_args()
    with open(os.path.join(args.root, "rules", "checks.json")) as f:
        text = render(json.load(f))
    path = os.path.join(args.root, "docs", "checks", "README.md")
    if args.check:
        try:
            with open(path) as f:
                current = f.read()
        except FileNotFoundError:
            current = None
        if current != text:
            print("%s is stale: run tools/gen_checks_index.py" % path)
            return 1
        return 0
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
