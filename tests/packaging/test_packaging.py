#!/usr/bin/env python3
"""Packaging (issue 19), offline: the installed layout (data and clang's resource headers found
relative to the binary, relocatable), the wheel (built by tools/package/make_wheel.py, installed with
pip into a virtualenv), the pre-commit hook that installs the wheel (real pre-commit, temporary git
repositories), the CI templates' scripts (action.yml's ci/github/run.sh, the GitLab template's
script: section) and --format=codequality.

  TORCHLINT=BIN TORCHLINT_BUILD_DIR=BUILD TORCHLINT_VERSION=V python3 test_packaging.py [CLASS]
"""
import base64
import csv
import hashlib
import io
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import unittest
import zipfile

TORCHLINT = os.environ.get("TORCHLINT", "")
BUILD = os.environ.get("TORCHLINT_BUILD_DIR", "")
VERSION = os.environ.get("TORCHLINT_VERSION", "")
CMAKE = os.environ.get("CMAKE", "cmake")
SOURCE_DIR = os.environ.get("TORCHLINT_SOURCE_DIR") or os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(SOURCE_DIR, "tests", "reports"))
from test_reports import CLEAN, ONE, STUB  # noqa: E402

GIT_ENV = {"GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@t", "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@t",
           "GIT_CONFIG_NOSYSTEM": "1"}
try:
    import yaml
except ImportError:  # pre-commit depends on PyYAML; without it the template tests are skipped
    yaml = None

_shared = {}


def tmpdir(prefix):
    return os.path.realpath(tempfile.mkdtemp(prefix="torchlint-" + prefix + "-"))


def installed_prefix():
    """`cmake --install BUILD --component torchlint` into a temporary folder, then moved elsewhere
    (the layout must be relocatable), once per process."""
    if "prefix" not in _shared:
        t = tmpdir("install")
        subprocess.run([CMAKE, "--install", BUILD, "--prefix", os.path.join(t, "first"), "--component", "torchlint"],
                       check=True, capture_output=True)
        shutil.move(os.path.join(t, "first"), os.path.join(t, "moved"))
        _shared["prefix"] = os.path.join(t, "moved")
        _shared["tmp"] = [t]
    return _shared["prefix"]


def built_wheel():
    if "wheel" not in _shared:
        prefix = installed_prefix()
        out = tmpdir("wheel")
        _shared["tmp"].append(out)
        p = subprocess.run([sys.executable, os.path.join(SOURCE_DIR, "tools", "package", "make_wheel.py"),
                            "--prefix", prefix, "--out", out], check=True, capture_output=True, text=True)
        _shared["wheel"] = p.stdout.strip().splitlines()[-1]
    return _shared["wheel"]


def is_static_build():
    with open(os.path.join(BUILD, "CMakeCache.txt")) as f:
        return "TORCHLINT_STATIC:BOOL=ON" in f.read()


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)


def git(cwd, *args, env=None):
    return subprocess.run(["git", "-C", cwd, *args], check=True, capture_output=True, text=True,
                          env=dict(os.environ, **GIT_ENV, **(env or {}))).stdout


def make_project(root):
    """stub.h, train.cpp (one finding: torch-sync-item at 5:19), clean.cpp, build/compile_commands.json."""
    os.makedirs(root, exist_ok=True)
    write(os.path.join(root, "stub.h"), STUB)
    write(os.path.join(root, "clean.cpp"), CLEAN)
    write(os.path.join(root, "README.md"), "hello\n")
    db = [{"directory": root, "file": f, "arguments": ["c++", "-std=c++17", "-I" + root, "-c", f]}
          for f in ("train.cpp", "clean.cpp")]
    write(os.path.join(root, "build", "compile_commands.json"), json.dumps(db))
    git(root, "init", "-q", "-b", "main")
    git(root, "add", ".")
    git(root, "commit", "-qm", "base")
    write(os.path.join(root, "train.cpp"), ONE)
    git(root, "add", "train.cpp")
    git(root, "commit", "-qm", "train")


def check_codequality(test, report, expect):
    """GitLab's Code Quality format: a JSON array of {description, check_name, fingerprint,
    severity, location:{path, lines:{begin}}}; expect: [(path, line, check)]."""
    test.assertIsInstance(report, list)
    for issue in report:
        for key in ("description", "check_name", "fingerprint", "severity", "location"):
            test.assertIn(key, issue)
        test.assertIsInstance(issue["description"], str)
        test.assertIn(issue["severity"], {"info", "minor", "major", "critical", "blocker"})
        test.assertRegex(issue["fingerprint"], r"^[0-9a-f]{16,}$")
        test.assertFalse(os.path.isabs(issue["location"]["path"]), issue)
        test.assertIsInstance(issue["location"]["lines"]["begin"], int)
    test.assertEqual(len({i["fingerprint"] for i in report}), len(report), "fingerprints must be unique")
    test.assertEqual(sorted(expect),
                     sorted((i["location"]["path"], i["location"]["lines"]["begin"], i["check_name"]) for i in report))


class InstallLayout(unittest.TestCase):
    """<prefix>/bin/torchlint finds <prefix>/share/torchlint (docs, stand-ins, clang/include)."""

    @classmethod
    def setUpClass(cls):
        cls.prefix = installed_prefix()
        cls.exe = os.path.join(cls.prefix, "bin", "torchlint")
        cls.env = {k: v for k, v in os.environ.items() if k not in ("TORCHLINT_HOME", "TORCHLINT_RESOURCE_DIR",
                                                                    "TORCHLINT_STAND_INS")}

    def run_tl(self, *args, cwd=None):
        return subprocess.run([self.exe, "--no-cache", *args], capture_output=True, text=True, env=self.env,
                              cwd=cwd or tempfile.gettempdir(), timeout=300)

    def test_layout(self):
        share = os.path.join(self.prefix, "share", "torchlint")
        for rel in ("clang/include/stddef.h", "docs/checks/torch-sync-item.md", "docs/probe/cpu.json",
                    "stand-ins/cxxopts.hpp", "tools/torchlint_trace.py", "rules/checks.json", "LICENSE"):
            self.assertTrue(os.path.exists(os.path.join(share, rel)), rel)
        self.assertTrue(os.path.exists(os.path.join(self.prefix, "share", "doc", "torchlint", "copyright")))
        self.assertFalse(os.path.exists(os.path.join(self.prefix, "lib")), "the plugin is a separate component")

    def test_version_is_the_project_version(self):
        p = self.run_tl("--version")
        self.assertRegex(p.stdout, r"torchlint %s \(LLVM 19\." % re.escape(VERSION))

    def test_docs_found_relative_to_the_binary(self):
        page = os.path.join(self.prefix, "share", "torchlint", "docs", "checks", "torch-sync-item.md")
        with open(page, "a") as f:
            f.write("\ninstalled-copy-marker\n")
        self.assertIn("installed-copy-marker", self.run_tl("--explain", "torch-sync-item").stdout)

    def test_bundled_resource_headers_are_used(self):
        # A header only the installed copy of clang's resource include/ has: found through -resource-dir.
        inc = os.path.join(self.prefix, "share", "torchlint", "clang", "include")
        write(os.path.join(inc, "torchlint_resource_marker.h"), "#pragma once\nint torchlint_marker;\n")
        src = tmpdir("resource")
        _shared["tmp"].append(src)
        write(os.path.join(src, "stub.h"), STUB)
        write(os.path.join(src, "a.cpp"), "#include <torchlint_resource_marker.h>\n#include <stddef.h>\n" + CLEAN)
        p = self.run_tl("--strict-includes", "a.cpp", "--", "-std=c++17", "-I" + src, cwd=src)
        self.assertEqual(0, p.returncode, p.stdout + p.stderr)

    def test_codequality_format(self):
        src = tmpdir("cq")
        _shared["tmp"].append(src)
        write(os.path.join(src, "stub.h"), STUB)
        write(os.path.join(src, "sub", "train.cpp"), ONE)
        p = self.run_tl("--format=codequality", "--sarif-root", src, "sub/train.cpp", "--", "-std=c++17", "-I" + src,
                        cwd=src)
        self.assertEqual(1, p.returncode, p.stderr)
        check_codequality(self, json.loads(p.stdout), [("sub/train.cpp", 5, "torch-sync-item")])
        self.assertEqual("major", json.loads(p.stdout)[0]["severity"])


class Wheel(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.wheel = built_wheel()

    def test_name_and_contents(self):
        name = os.path.basename(self.wheel)
        tag = "manylinux_2_36_x86_64" if is_static_build() else r"(manylinux_2_\d+|linux)_x86_64"
        self.assertRegex(name, r"^torchlint-%s-py3-none-%s\.whl$" % (re.escape(VERSION), tag))
        with zipfile.ZipFile(self.wheel) as z:
            names = set(z.namelist())
            di = "torchlint-%s.dist-info/" % VERSION
            for n in ("torchlint/__init__.py", "torchlint/data/bin/torchlint", di + "licenses/LICENSE",
                      "torchlint/data/share/torchlint/clang/include/stddef.h", di + "RECORD"):
                self.assertIn(n, names)
            self.assertTrue(z.getinfo("torchlint/data/bin/torchlint").external_attr >> 16 & 0o111)
            meta = z.read(di + "METADATA").decode()
            self.assertIn("Version: %s\n" % VERSION, meta)
            self.assertIn("License-Expression: Apache-2.0 WITH LLVM-exception", meta)
            self.assertIn("torchlint = torchlint:main", z.read(di + "entry_points.txt").decode())
            self.assertIn('__version__ = "%s"' % VERSION, z.read("torchlint/__init__.py").decode())
            rows = list(csv.reader(io.StringIO(z.read(di + "RECORD").decode())))
            self.assertEqual(names, {r[0] for r in rows})
            for path, digest, size in rows:
                if path.endswith("RECORD"):
                    continue
                data = z.read(path)
                self.assertEqual(int(size), len(data), path)
                self.assertEqual(digest, "sha256=" + base64.urlsafe_b64encode(hashlib.sha256(data).digest())
                                 .rstrip(b"=").decode(), path)

    def test_pip_install_gives_a_torchlint_command(self):
        t = tmpdir("venv")
        _shared["tmp"].append(t)
        venv = os.path.join(t, "venv")
        subprocess.run([sys.executable, "-m", "venv", venv], check=True)
        subprocess.run([os.path.join(venv, "bin", "pip"), "install", "-q", "--no-index", self.wheel], check=True)
        tl = os.path.join(venv, "bin", "torchlint")
        self.assertIn("torchlint %s " % VERSION, subprocess.run([tl, "--version"], capture_output=True, text=True).stdout)
        write(os.path.join(t, "stub.h"), STUB)
        write(os.path.join(t, "train.cpp"), ONE)
        p = subprocess.run([tl, "--no-cache", "train.cpp", "--", "-std=c++17", "-I."], cwd=t, capture_output=True,
                           text=True)
        self.assertEqual(1, p.returncode, p.stdout + p.stderr)
        self.assertIn("train.cpp:5:19: warning:", p.stdout)
        hook = os.path.join(venv, "bin", "torchlint-pre-commit")
        self.assertEqual(0, subprocess.run([hook, "-p", "build"], cwd=t).returncode)  # no files: passes
        p = subprocess.run([hook, "train.cpp"], cwd=t, capture_output=True, text=True,
                           env=dict(os.environ, TORCHLINT_COMPILE_FLAGS="-std=c++17 -I" + t))
        self.assertEqual(1, p.returncode, p.stdout + p.stderr)


class PreCommitWheel(unittest.TestCase):
    """The `torchlint` hook (language: python) through the real pre-commit: pre-commit installs this
    repository (the placeholder package) and the torchlint wheel, here from a local folder
    (PIP_FIND_LINKS, PIP_NO_INDEX: no network), as it would from PyPI."""

    def setUp(self):
        self.wheel = built_wheel()
        self.tmp = tmpdir("pre-commit-wheel")
        self.env = dict(os.environ, **GIT_ENV, HOME=self.tmp, PRE_COMMIT_HOME=os.path.join(self.tmp, "cache"),
                        PIP_NO_INDEX="1", PIP_FIND_LINKS=os.path.dirname(self.wheel),
                        PIP_DISABLE_PIP_VERSION_CHECK="1", TORCHLINT_COMPILE_FLAGS="")
        self.env.pop("TORCHLINT", None)
        self.env["PATH"] = os.pathsep.join(p for p in self.env["PATH"].split(os.pathsep)
                                           if not os.path.exists(os.path.join(p, "torchlint")))
        hooks = os.path.join(self.tmp, "hooks")
        for rel in (".pre-commit-hooks.yaml", "pyproject.toml", "tools/pre-commit-torchlint.sh",
                    "tools/package/placeholder_backend/placeholder_backend.py"):
            os.makedirs(os.path.dirname(os.path.join(hooks, rel)), exist_ok=True)
            shutil.copy(os.path.join(SOURCE_DIR, rel), os.path.join(hooks, rel))
        git(hooks, "init", "-q")
        git(hooks, "add", ".")
        git(hooks, "commit", "-qm", "hooks")
        self.hooks, self.rev = hooks, git(hooks, "rev-parse", "HEAD").strip()
        self.proj = os.path.join(self.tmp, "proj")
        os.makedirs(self.proj)
        git(self.proj, "init", "-q")
        write(os.path.join(self.proj, "stub.h"), STUB)
        self.env["TORCHLINT_COMPILE_FLAGS"] = "-std=c++17 -I" + self.proj
        write(os.path.join(self.proj, ".pre-commit-config.yaml"),
              "repos:\n- repo: file://%s\n  rev: %s\n  hooks:\n  - id: torchlint\n" % (self.hooks, self.rev))

    def tearDown(self):
        shutil.rmtree(self.tmp, ignore_errors=True)

    def pre_commit(self):
        return subprocess.run([sys.executable, "-m", "pre_commit", "run", "torchlint"], cwd=self.proj,
                              capture_output=True, text=True, env=self.env, timeout=600)

    def test_hook_pins_the_project_version(self):
        with open(os.path.join(SOURCE_DIR, ".pre-commit-hooks.yaml")) as f:
            self.assertIn("'torchlint==%s'" % VERSION, f.read())

    def test_finding_fails_clean_passes(self):
        write(os.path.join(self.proj, "train.cpp"), ONE)
        git(self.proj, "add", "train.cpp", ".pre-commit-config.yaml")
        p = self.pre_commit()
        self.assertEqual(1, p.returncode, p.stdout + p.stderr)
        self.assertIn("train.cpp:5:19", p.stdout)
        self.assertIn("torch-sync-item", p.stdout)
        git(self.proj, "rm", "-q", "--cached", "train.cpp")
        write(os.path.join(self.proj, "clean.cpp"), CLEAN)
        git(self.proj, "add", "clean.cpp")
        p = self.pre_commit()
        self.assertEqual(0, p.returncode, p.stdout + p.stderr)
        self.assertIn("Passed", p.stdout)


class CiTemplates(unittest.TestCase):
    """action.yml's ci/github/run.sh and the GitLab template's script, run here on a small project
    with the torchlint under test on PATH."""

    def setUp(self):
        self.tmp = tmpdir("ci")
        self.proj = os.path.join(self.tmp, "proj")
        make_project(self.proj)
        self.bin = os.path.join(self.tmp, "bin")
        os.makedirs(self.bin)
        os.symlink(TORCHLINT, os.path.join(self.bin, "torchlint"))
        self.env = dict(os.environ, **GIT_ENV, PATH=self.bin + os.pathsep + os.environ["PATH"],
                        TORCHLINT_CACHE_DIR=os.path.join(self.tmp, "cache"))

    def tearDown(self):
        shutil.rmtree(self.tmp, ignore_errors=True)

    # --- GitHub: action.yml ---
    def github(self, **inputs):
        out = os.path.join(self.tmp, "github_output")
        open(out, "w").close()
        env = dict(self.env, GITHUB_WORKSPACE=self.proj, GITHUB_OUTPUT=out, TORCHLINT_COMPILE_DATABASE="build",
                   TORCHLINT_CHANGED_ONLY="true", TORCHLINT_SARIF="torchlint.sarif", TORCHLINT_BASE_REF="")
        env.update(inputs)
        p = subprocess.run(["bash", os.path.join(SOURCE_DIR, "ci", "github", "run.sh")], cwd=self.proj, env=env,
                           capture_output=True, text=True, timeout=300)
        self.assertEqual(0, p.returncode, p.stdout + p.stderr)
        with open(out) as f:
            rc = re.search(r"^exit-code=(\d+)$", f.read(), re.M)
        self.assertTrue(rc, p.stdout + p.stderr)
        with open(os.path.join(self.proj, env["TORCHLINT_SARIF"])) as f:
            sarif = json.load(f)
        results = [(r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"],
                    r["locations"][0]["physicalLocation"]["region"]["startLine"], r["ruleId"])
                   for run in sarif["runs"] for r in run["results"]]
        return int(rc.group(1)), results, p.stdout

    def test_github_whole_compile_database(self):
        rc, results, log = self.github()
        self.assertEqual(1, rc)
        self.assertEqual([("train.cpp", 5, "torch-sync-item")], results)
        self.assertIn("2 file(s) from build/compile_commands.json", log)

    def test_github_pull_request_changed_files(self):
        origin = os.path.join(self.tmp, "origin.git")
        subprocess.run(["git", "clone", "-q", "--bare", self.proj, origin], check=True)
        git(origin, "update-ref", "refs/heads/main", "HEAD~1")  # the base branch: before train.cpp
        git(self.proj, "remote", "add", "origin", origin)
        rc, results, log = self.github(TORCHLINT_BASE_REF="main")
        self.assertIn("1 C++ file(s) changed against origin/main", log)
        self.assertEqual((1, [("train.cpp", 5, "torch-sync-item")]), (rc, results))
        git(origin, "update-ref", "refs/heads/main", git(self.proj, "rev-parse", "HEAD").strip())
        rc, results, log = self.github(TORCHLINT_BASE_REF="main")  # nothing changed: an empty report
        self.assertEqual((0, []), (rc, results))

    def test_github_shards_then_merge(self):
        # With a compile database the shards run in project mode: each analyses half of the
        # database and writes its findings undecided with its summaries; the merge decides them
        # with the whole project's model (docs/ci.md), so only the merged report is the answer.
        seen = []
        for k in (1, 2):
            rc, results, _ = self.github(TORCHLINT_SHARD="%d/2" % k, TORCHLINT_SARIF="shard-%d.sarif" % k)
            seen += results
            with open(os.path.join(self.proj, "shard-%d.sarif" % k)) as f:
                self.assertIn("torchlint/summaries", json.load(f)["runs"][0]["properties"])
        self.assertIn(("train.cpp", 5, "torch-sync-item"), seen)
        rc, results, _ = self.github(TORCHLINT_MERGE="shard-*.sarif", TORCHLINT_SARIF="merged.sarif")
        self.assertEqual((1, [("train.cpp", 5, "torch-sync-item")]), (rc, results))

    @unittest.skipIf(yaml is None, "PyYAML")
    def test_action_yml(self):
        with open(os.path.join(SOURCE_DIR, "action.yml")) as f:
            action = yaml.safe_load(f)
        self.assertEqual("composite", action["runs"]["using"])
        self.assertEqual(VERSION, action["inputs"]["version"]["default"])
        uses = [s.get("uses", "") for s in action["runs"]["steps"]]
        self.assertTrue(any(u.startswith("github/codeql-action/upload-sarif@") for u in uses), uses)
        for step in action["runs"]["steps"]:
            for m in re.findall(r"\$GITHUB_ACTION_PATH/(\S+?)\"", step.get("run", "")):
                self.assertTrue(os.path.exists(os.path.join(SOURCE_DIR, m)), m)
            for v in re.findall(r"inputs\.([a-z-]+)", json.dumps(step)):
                self.assertIn(v, action["inputs"])

    # --- GitLab: ci/gitlab/torchlint.gitlab-ci.yml ---
    def gitlab(self, **variables):
        with open(os.path.join(SOURCE_DIR, "ci", "gitlab", "torchlint.gitlab-ci.yml")) as f:
            tpl = yaml.safe_load(f)
        self.assertEqual(".torchlint", tpl["torchlint"]["extends"])
        job = tpl[".torchlint"]
        self.assertEqual("gl-code-quality-report.json", job["artifacts"]["reports"]["codequality"])
        self.assertEqual(VERSION, tpl["variables"]["TORCHLINT_VERSION"])
        env = dict(self.env, CI_PROJECT_DIR=self.proj, **{k: str(v) for k, v in tpl["variables"].items()})
        env.update(variables)
        script = "\n".join(job["script"])
        # GitLab runs each script line in one shell with `set -e` (sh -e / bash -e).
        p = subprocess.run(["bash", "-e", "-c", script], cwd=self.proj, env=env, capture_output=True, text=True,
                           timeout=300)
        report = os.path.join(self.proj, "gl-code-quality-report.json")
        data = None
        if os.path.exists(report):
            with open(report) as f:
                data = json.load(f)
            os.unlink(report)
        return p, data

    @unittest.skipIf(yaml is None, "PyYAML")
    def test_gitlab_code_quality_report(self):
        p, report = self.gitlab(TORCHLINT_BUILD_DIR="build")
        self.assertEqual(0, p.returncode, p.stdout + p.stderr)  # findings do not fail the job by default
        check_codequality(self, report, [("train.cpp", 5, "torch-sync-item")])
        p, report = self.gitlab(TORCHLINT_BUILD_DIR="build", TORCHLINT_FAIL_ON="findings")
        self.assertEqual(1, p.returncode, p.stdout + p.stderr)

    @unittest.skipIf(yaml is None, "PyYAML")
    def test_gitlab_merge_request_and_empty(self):
        base = git(self.proj, "rev-parse", "HEAD~1").strip()
        p, report = self.gitlab(TORCHLINT_BUILD_DIR="build", CI_MERGE_REQUEST_DIFF_BASE_SHA=base)
        self.assertEqual(0, p.returncode, p.stdout + p.stderr)
        check_codequality(self, report, [("train.cpp", 5, "torch-sync-item")])
        head = git(self.proj, "rev-parse", "HEAD").strip()
        p, report = self.gitlab(TORCHLINT_BUILD_DIR="build", CI_MERGE_REQUEST_DIFF_BASE_SHA=head)
        self.assertEqual(0, p.returncode, p.stdout + p.stderr)
        self.assertEqual([], report)
        p, report = self.gitlab(TORCHLINT_BUILD_DIR="build", CI_NODE_INDEX="2", CI_NODE_TOTAL="2")
        self.assertEqual(0, p.returncode, p.stdout + p.stderr)
        self.assertIsInstance(report, list)


def tearDownModule():
    for t in _shared.get("tmp", []):
        shutil.rmtree(t, ignore_errors=True)


if __name__ == "__main__":
    for var in ("TORCHLINT", "TORCHLINT_BUILD_DIR", "TORCHLINT_VERSION"):
        if not os.environ.get(var):
            sys.exit("test_packaging.py: set %s" % var)
    unittest.main()
