#!/usr/bin/env python3
"""docs/dev/architecture.md's layer picture, checked against every #include of torchlint's code.

A folder may include itself and the folders listed for it below; anything else is an arrow
pointing up (or sideways where the picture has none) and fails the test with file:line."""
import os
import re
import sys
import unittest

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))

# What each layer may include (besides itself), from the bottom up. Keep in step with
# docs/dev/architecture.md.
ALLOWED = {
    "utils": set(),
    "core": {"utils"},
    "analysis": {"core", "utils"},
    "model": {"analysis", "core", "utils"},
    "checkbase": {"model", "analysis", "core", "utils"},
    "fixits": {"analysis", "core", "utils"},
    "rules": {"checkbase", "model", "fixits", "analysis", "core", "utils"},
    "report": {"core", "utils"},
    "lsp": {"cli", "report", "fixits", "rules", "checkbase", "model", "analysis", "core", "utils"},
    "cli": {"lsp", "report", "fixits", "rules", "checkbase", "model", "analysis", "core", "utils"},
}
INCLUDE = re.compile(r'^\s*#\s*include\s+"([A-Za-z_]+)/[^"]+"')


def violations(root=ROOT):
    out = []
    for layer, allowed in ALLOWED.items():
        folder = os.path.join(root, layer)
        if not os.path.isdir(folder):
            continue
        for dirpath, _, files in os.walk(folder):
            for name in sorted(files):
                if not name.endswith((".h", ".cpp", ".inc")):
                    continue
                path = os.path.join(dirpath, name)
                with open(path, encoding="utf-8", errors="replace") as f:
                    for lineno, line in enumerate(f, 1):
                        m = INCLUDE.match(line)
                        if not m:
                            continue
                        target = m.group(1)
                        if target == layer or target not in ALLOWED:
                            continue  # same layer, or clang/llvm/generated
                        if target not in allowed:
                            out.append(f"{os.path.relpath(path, root)}:{lineno}: {layer}/ includes {target}/")
    return out


class Layering(unittest.TestCase):
    def test_no_arrow_points_up(self):
        self.assertEqual(violations(), [])

    def test_detects_an_upward_include(self):
        import tempfile
        with tempfile.TemporaryDirectory() as tmp:
            os.makedirs(os.path.join(tmp, "core"))
            with open(os.path.join(tmp, "core", "X.h"), "w") as f:
                f.write('#include "utils/A.h"\n#include "analysis/HotCode.h"\n')
            self.assertEqual(violations(tmp), ["core/X.h:2: core/ includes analysis/"])

    def test_the_doc_names_every_layer(self):
        with open(os.path.join(ROOT, "docs", "dev", "architecture.md"), encoding="utf-8") as f:
            doc = f.read()
        for layer in ALLOWED:
            if os.path.isdir(os.path.join(ROOT, layer)):
                self.assertIn(f"`{layer}/`", doc, f"{layer}/ is missing from architecture.md's table")


if __name__ == "__main__":
    unittest.main()
