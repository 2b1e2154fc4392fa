#!/usr/bin/env python3
"""The torchlint-system hook (.pre-commit-hooks.yaml; the wheel-based `torchlint` hook: tests/packaging) through the real pre-commit framework: a hook
repository made from this checkout's hook files, used by a project's .pre-commit-config.yaml
exactly as users do, on staged files."""
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

TORCHLINT = os.environ.get("TORCHLINT", "")
SOURCE_DIR = os.environ.get("TORCHLINT_SOURCE_DIR", os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from test_reports import CLEAN, ONE, STUB  # noqa: E402

GIT_ENV = {"GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@t", "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@t",
           "GIT_CONFIG_NOSYSTEM": "1"}


class PreCommit(unittest.TestCase):
    def setUp(self):
        self.assertTrue(TORCHLINT and os.path.exists(TORCHLINT), "TORCHLINT must name the binary")
        self.tmp = os.path.realpath(tempfile.mkdtemp(prefix="torchlint-pre-commit-"))
        self.env = dict(os.environ, **GIT_ENV, HOME=self.tmp, PRE_COMMIT_HOME=os.path.join(self.tmp, "cache"),
                        TORCHLINT=TORCHLINT)
        # The hook repository: this checkout's hook definition and entry script, committed.
        self.hooks = os.path.join(self.tmp, "hooks")
        os.makedirs(os.path.join(self.hooks, "tools"))
        shutil.copy(os.path.join(SOURCE_DIR, ".pre-commit-hooks.yaml"), self.hooks)
        shutil.copy(os.path.join(SOURCE_DIR, "tools", "pre-commit-torchlint.sh"), os.path.join(self.hooks, "tools"))
        self.git(self.hooks, "init", "-q")
        self.git(self.hooks, "add", ".")
        self.git(self.hooks, "commit", "-qm", "hooks")
        self.rev = self.git(self.hooks, "rev-parse", "HEAD").strip()
        # The project.
        self.proj = os.path.join(self.tmp, "proj")
        os.makedirs(self.proj)
        self.git(self.proj, "init", "-q")
        self.write("stub.h", STUB)
        self.write("README.md", "hello\n")
        self.env["TORCHLINT_COMPILE_FLAGS"] = "-std=c++17 -I" + self.proj

    def tearDown(self):
        shutil.rmtree(self.tmp, ignore_errors=True)

    def git(self, cwd, *args):
        return subprocess.run(["git", "-C", cwd, *args], check=True, capture_output=True, text=True, env=self.env).stdout

    def write(self, name, text):
        with open(os.path.join(self.proj, name), "w") as f:
            f.write(text)

    def config(self, extra=""):
        self.write(".pre-commit-config.yaml", "repos:\n- repo: file://%s\n  rev: %s\n  hooks:\n  - id: torchlint-system\n%s"
                   % (self.hooks, self.rev, extra))

    def pre_commit(self, *args):
        return subprocess.run([sys.executable, "-m", "pre_commit", "run", "torchlint-system", *args], cwd=self.proj,
                              capture_output=True, text=True, env=self.env, timeout=300)

    def test_staged_file_with_a_finding_fails(self):
        self.config()
        self.write("train.cpp", ONE)
        self.git(self.proj, "add", "train.cpp", ".pre-commit-config.yaml")
        p = self.pre_commit()
        self.assertEqual(1, p.returncode, p.stdout + p.stderr)
        self.assertIn("torch-sync-item", p.stdout)
        self.assertIn("train.cpp:5:19", p.stdout)

    def test_staged_clean_file_passes_and_unstaged_files_are_ignored(self):
        self.config()
        self.write("clean.cpp", CLEAN)
        self.git(self.proj, "add", "clean.cpp", ".pre-commit-config.yaml")
        self.write("wip.cpp", ONE)  # not staged
        p = self.pre_commit()
        self.assertEqual(0, p.returncode, p.stdout + p.stderr)
        self.assertIn("Passed", p.stdout)

    def test_no_cpp_files_passes(self):
        self.config()
        self.git(self.proj, "add", "README.md", ".pre-commit-config.yaml")
        p = self.pre_commit()
        self.assertEqual(0, p.returncode, p.stdout + p.stderr)
        self.assertIn("Skipped", p.stdout)

    def test_empty_file_list_passes(self):
        # always_run makes pre-commit call the hook with no file names at all.
        self.config("    always_run: true\n")
        self.git(self.proj, "add", "README.md", ".pre-commit-config.yaml")
        p = self.pre_commit()
        self.assertEqual(0, p.returncode, p.stdout + p.stderr)
        self.assertIn("Passed", p.stdout)


if __name__ == "__main__":
    unittest.main()
