"""torchlint: finds performance anti-patterns in C++ training code written against libtorch.

This package only carries the self-contained torchlint binary (linked statically against
LLVM/Clang) and its data, under torchlint/data/ in the installed layout the binary expects
(bin/torchlint, share/torchlint/...). The console scripts run it:

  torchlint             the CLI (`torchlint --help`)
  torchlint-pre-commit  the pre-commit hook's entry (passes on an empty file list; compiler flags
                        from $TORCHLINT_COMPILE_FLAGS when there is no compile database)
"""
import os
import shlex
import sys

__version__ = "@VERSION@"

_OPTIONS_WITH_VALUE = {"-p", "-o", "--output", "--baseline", "--since", "--shard", "--checks", "--format",
                       "--sarif-root", "--level", "-j", "--config", "--cache-dir", "--header-filter"}


def binary():
    """Path of the bundled torchlint executable."""
    return os.path.join(os.path.dirname(os.path.abspath(__file__)), "data", "bin", "torchlint")


def _exec(args):
    exe = binary()
    if not os.access(exe, os.X_OK):
        sys.stderr.write("torchlint: error: the bundled binary %s is missing or not executable\n" % exe)
        return 2
    os.execv(exe, [exe] + args)
    return 2  # not reached


def main():
    return _exec(sys.argv[1:])


def pre_commit_main():
    """Same contract as tools/pre-commit-torchlint.sh (the language: script hook)."""
    args = sys.argv[1:]
    files, skip = 0, False
    for a in args:
        if skip:
            skip = False
        elif a in _OPTIONS_WITH_VALUE:
            skip = True
        elif not a.startswith("-"):
            files += 1
    if files == 0:
        return 0
    flags = os.environ.get("TORCHLINT_COMPILE_FLAGS", "")
    if flags:
        args = args + ["--"] + shlex.split(flags)
    return _exec(args)
