#!/usr/bin/env python3
"""Builds the torchlint wheel from an installed tree (`cmake --install BUILD --prefix DIR`).

  make_wheel.py --prefix DIR [--out DIST] [--version V] [--plat TAG]

The wheel holds the pure-Python launcher (tools/package/python/torchlint) and DIR copied to
torchlint/data/ (bin/torchlint, share/torchlint/...: the layout core/InstallLayout.h expects),
with console scripts `torchlint` and `torchlint-pre-commit`. The version is the binary's own
(`torchlint --version`, i.e. CMake's PROJECT_VERSION). The platform tag follows from the binary:
manylinux_2_<N>_x86_64 where 2.N is the newest glibc symbol version it needs, when it needs
nothing but glibc (and libstdc++/libgcc, allowed by manylinux); otherwise (a build linked against
the shared LLVM) linux_x86_64, which PyPI refuses: build with TORCHLINT_STATIC=ON for a release.
Standard library only; no network.
"""
import argparse
import base64
import hashlib
import os
import re
import stat
import subprocess
import sys
import zipfile

HERE = os.path.dirname(os.path.abspath(__file__))
MANYLINUX_LIBS = {"libc.so.6", "libm.so.6", "libdl.so.2", "librt.so.1", "libpthread.so.0", "libgcc_s.so.1",
                  "libstdc++.so.6", "ld-linux-x86-64.so.2", "libresolv.so.2", "libutil.so.1", "libnsl.so.1"}
SUMMARY = "Finds performance anti-patterns in C++ training code written against libtorch (PyTorch C++)"


def binary_version(exe):
    out = subprocess.run([exe, "--version"], capture_output=True, text=True, check=True).stdout
    m = re.search(r"torchlint (\S+)", out)
    if not m:
        sys.exit("make_wheel: cannot read the version from `%s --version`: %r" % (exe, out))
    return m.group(1)


def needed_libraries(exe):
    try:
        out = subprocess.run(["objdump", "-p", exe], capture_output=True, text=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        return None
    return re.findall(r"^\s*NEEDED\s+(\S+)", out, re.M)


def glibc_minor(exe):
    with open(exe, "rb") as f:
        data = f.read()
    return max(int(m) for m in re.findall(rb"GLIBC_2\.(\d+)", data))


def platform_tag(exe, machine="x86_64"):
    needed = needed_libraries(exe)
    if needed is None:
        sys.exit("make_wheel: objdump (binutils) is needed to check what the binary links")
    extra = [n for n in needed if n not in MANYLINUX_LIBS]
    if extra:
        print("make_wheel: warning: the binary needs %s: not a manylinux wheel (tag linux_%s); "
              "configure with -DTORCHLINT_STATIC=ON for a release" % (", ".join(extra), machine), file=sys.stderr)
        return "linux_" + machine
    return "manylinux_2_%d_%s" % (glibc_minor(exe), machine)


def record_hash(data):
    return "sha256=" + base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()


class Wheel:
    def __init__(self, path):
        self.zip = zipfile.ZipFile(path, "w", compression=zipfile.ZIP_DEFLATED)
        self.records = []

    def add(self, arcname, data, mode=0o644):
        info = zipfile.ZipInfo(arcname, date_time=(2020, 1, 1, 0, 0, 0))  # reproducible
        info.external_attr = (stat.S_IFREG | mode) << 16
        info.compress_type = zipfile.ZIP_DEFLATED
        self.zip.writestr(info, data)
        self.records.append("%s,%s,%d" % (arcname, record_hash(data), len(data)))

    def close(self, record_name):
        self.records.append(record_name + ",,")
        info = zipfile.ZipInfo(record_name, date_time=(2020, 1, 1, 0, 0, 0))
        info.external_attr = (stat.S_IFREG | 0o644) << 16
        self.zip.writestr(info, "\n".join(self.records) + "\n", compress_type=zipfile.ZIP_DEFLATED)
        self.zip.close()


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--prefix", required=True, help="installed tree (cmake --install BUILD --prefix DIR)")
    ap.add_argument("--out", default="dist")
    ap.add_argument("--version")
    ap.add_argument("--plat", help="platform tag (default: from the binary)")
    a = ap.parse_args()
    exe = os.path.join(a.prefix, "bin", "torchlint")
    if not os.path.isfile(exe):
        sys.exit("make_wheel: no %s: run `cmake --install BUILD --prefix %s` first" % (exe, a.prefix))
    if not os.path.isfile(os.path.join(a.prefix, "share", "torchlint", "clang", "include", "stddef.h")):
        sys.exit("make_wheel: %s has no share/torchlint/clang/include: not an installed torchlint" % a.prefix)
    version = a.version or binary_version(exe)
    plat = a.plat or platform_tag(exe)
    tag = "py3-none-" + plat
    os.makedirs(a.out, exist_ok=True)
    name = "torchlint-%s-%s.whl" % (version, tag)
    path = os.path.join(a.out, name)
    dist_info = "torchlint-%s.dist-info" % version
    with open(os.path.join(HERE, "..", "..", "LICENSE"), "rb") as f:
        license_text = f.read()
    with open(os.path.join(HERE, "..", "..", "README.md"), encoding="utf-8") as f:
        readme = f.read()

    w = Wheel(path)
    pkg = os.path.join(HERE, "python", "torchlint")
    for fn in sorted(os.listdir(pkg)):
        if fn.endswith(".py"):
            with open(os.path.join(pkg, fn), encoding="utf-8") as f:
                w.add("torchlint/" + fn, f.read().replace("@VERSION@", version).encode())
    for root, dirs, files in os.walk(a.prefix):
        dirs.sort()
        for fn in sorted(files):
            full = os.path.join(root, fn)
            rel = os.path.relpath(full, a.prefix).replace(os.sep, "/")
            if os.path.islink(full):
                sys.exit("make_wheel: %s is a link; wheels cannot hold links" % full)
            mode = 0o755 if os.stat(full).st_mode & stat.S_IXUSR else 0o644
            with open(full, "rb") as f:
                w.add("torchlint/data/" + rel, f.read(), mode)
    metadata = "\n".join([
        "Metadata-Version: 2.4",
        "Name: torchlint",
        "Version: " + version,
        "Summary: " + SUMMARY,
        "License-Expression: Apache-2.0 WITH LLVM-exception",
        "License-File: LICENSE",
        "Requires-Python: >=3.7",
        "Classifier: Programming Language :: C++",
        "Classifier: Topic :: Software Development :: Quality Assurance",
        "Classifier: Operating System :: POSIX :: Linux",
        "Description-Content-Type: text/markdown",
        "", readme])
    w.add(dist_info + "/METADATA", metadata.encode())
    w.add(dist_info + "/WHEEL", ("Wheel-Version: 1.0\nGenerator: torchlint make_wheel.py\n"
                                 "Root-Is-Purelib: false\nTag: %s\n" % tag).encode())
    w.add(dist_info + "/entry_points.txt", b"[console_scripts]\ntorchlint = torchlint:main\n"
                                           b"torchlint-pre-commit = torchlint:pre_commit_main\n")
    w.add(dist_info + "/licenses/LICENSE", license_text)
    w.add(dist_info + "/top_level.txt", b"torchlint\n")
    w.close(dist_info + "/RECORD")
    print(path)


if __name__ == "__main__":
    main()
