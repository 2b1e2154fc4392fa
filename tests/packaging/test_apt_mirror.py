#!/usr/bin/env python3
"""tools/package/apt_mirror.sh (the clean-root release check's mirror, issue 24): the archive is read
from the machine's own apt sources (one-line and deb822 formats), never named in the repository.
Runs the script on fake roots; offline, a second.

  python3 tests/packaging/test_apt_mirror.py -v
"""
import os
import re
import subprocess
import tempfile
import unittest

SOURCE_DIR = os.environ.get("TORCHLINT_SOURCE_DIR") or os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SCRIPT = os.path.join(SOURCE_DIR, "tools", "package", "apt_mirror.sh")


def run(suite, files):
    """Writes files ({relative path: text}) under a fake root, runs the script: (rc, stdout, stderr)."""
    with tempfile.TemporaryDirectory() as root:
        for rel, text in files.items():
            path = os.path.join(root, rel)
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "w") as f:
                f.write(text)
        p = subprocess.run(["bash", SCRIPT, suite, root], capture_output=True, text=True, timeout=60)
        return p.returncode, p.stdout.strip(), p.stderr.strip()


class AptMirror(unittest.TestCase):
    def test_one_line_format_with_options_and_comments(self):
        rc, out, err = run("bookworm", {"etc/apt/sources.list": (
            "# deb http://old.invalid/debian bookworm main\n"
            "deb-src http://src.invalid/debian bookworm main\n"
            "deb [arch=amd64 signed-by=/usr/share/keyrings/k.gpg] http://a.invalid/debian-security bookworm-security main\n"
            "deb [ arch=amd64 ] http://a.invalid/debian/ bookworm contrib main non-free  # trailing comment\n"
            "deb http://b.invalid/debian bookworm main\n")})
        self.assertEqual((rc, out), (0, "http://a.invalid/debian"), err)

    def test_deb822_with_several_suites_and_disabled_stanzas(self):
        rc, out, err = run("bookworm", {"etc/apt/sources.list.d/debian.sources": (
            "Types: deb\n"
            "URIs: http://off.invalid/debian\n"
            "Suites: bookworm\n"
            "Components: main\n"
            "Enabled: no\n"
            "\n"
            "Types: deb deb-src\n"
            "# a comment inside the stanza\n"
            "URIs: http://m.invalid/debian\n"
            "Suites: bookworm bookworm-updates\n"
            "Components: main\n"
            "Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg\n"
            "\n"
            "Types: deb\n"
            "URIs: http://m.invalid/debian-security\n"
            "Suites: bookworm-security\n"
            "Components: main\n")})
        self.assertEqual((rc, out), (0, "http://m.invalid/debian"), err)

    def test_sources_list_first_then_folder_in_name_order_other_extensions_ignored(self):
        files = {
            "etc/apt/sources.list.d/b.list": "deb http://b.invalid/debian bookworm main\n",
            "etc/apt/sources.list.d/a.list.disabled": "deb http://disabled.invalid/debian bookworm main\n",
            "etc/apt/sources.list.d/c.sources": "Types: deb\nURIs: http://c.invalid/debian\nSuites: bookworm\nComponents: main\n",
        }
        self.assertEqual(run("bookworm", files)[:2], (0, "http://b.invalid/debian"))
        files["etc/apt/sources.list"] = "deb http://first.invalid/debian bookworm main\n"
        self.assertEqual(run("bookworm", files)[:2], (0, "http://first.invalid/debian"))

    def test_other_suites_and_components_are_not_taken(self):
        rc, out, err = run("bookworm", {"etc/apt/sources.list": (
            "deb http://x.invalid/apt cloud-sdk-bookworm main\n"
            "deb http://y.invalid/debian bookworm contrib\n"
            "deb http://z.invalid/debian trixie main\n")})
        self.assertEqual(rc, 2)
        self.assertEqual(out, "")
        self.assertIn("no 'deb' source for suite 'bookworm'", err)
        self.assertIn("sources.list", err)

    def test_no_sources_at_all(self):
        rc, out, err = run("bookworm", {"etc/hostname": "x\n"})
        self.assertEqual(rc, 2)
        self.assertIn("no apt source files", err)

    def test_no_mirror_host_is_named_in_the_packaging_scripts(self):
        url = re.compile(r"\b(?:https?|ftp)://(?!(?:[a-z0-9.-]+\.)?(?:invalid|example)\b)[A-Za-z0-9.-]+")
        for folder in ("tools/package", "tests/packaging"):
            for dirpath, _, names in os.walk(os.path.join(SOURCE_DIR, folder)):
                for name in names:
                    if name.endswith((".sh", ".py", ".txt", ".cmake")) or name == "CMakeLists.txt":
                        with open(os.path.join(dirpath, name), errors="replace") as f:
                            hits = url.findall(f.read())
                        self.assertEqual(hits, [], os.path.join(dirpath, name))


if __name__ == "__main__":
    unittest.main()
