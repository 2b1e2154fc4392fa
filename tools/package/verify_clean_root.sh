#!/usr/bin/env bash
# Release check (issue 19): the packages work on a clean Debian 12 with nothing of LLVM installed.
#
#   bash tools/package/verify_clean_root.sh [--wheel WHEEL] [--deb DEB]
#
# Builds a minimal Debian 12 (bookworm) root with debootstrap from the archive this machine's apt
# already uses for bookworm (tools/package/apt_mirror.sh reads /etc/apt/sources.list and
# sources.list.d/, one-line and deb822; $DEBIAN_MIRROR overrides it), adds libtorch-dev (the
# headers the analysed code includes) and python3-venv (pip, for the wheel), checks that no Clang or LLVM 19 came with them, then in two
# copies of that root installs ONLY the wheel (pip, offline) and ONLY the .deb (apt-get install
# ./torchlint_*.deb, which pulls libstdc++-12-dev: the C++ standard headers every libtorch source
# includes) and runs `torchlint train.cpp` on examples/train.cpp from another folder. The wheel
# cannot depend on a Debian package: the script checks that torchlint names the missing standard
# headers, then installs libstdc++-12-dev and runs it. Expected
# (tests/packaging/expected_train_findings.txt):
#   - with Debian's libtorch-dev 1.13: the README's 12 findings plus torch-zero-grad-set-to-none,
#     which is version-aware (zero_grad() writes zeros before libtorch 2.0), 13 in all;
#   - with libtorch 2.x headers (LIBTORCH=, this checkout's .deps/libtorch-2 copied in when present):
#     exactly the README's 12.
# Needs root, debootstrap, network to the mirror; about 5-10 minutes the first time (the base root is
# cached in $TORCHLINT_CLEAN_ROOT, default /var/tmp/torchlint-clean-root). Without --wheel/--deb it
# builds both (tools/package/build_wheel.sh, build_deb.sh) into dist/.
set -euo pipefail
cd "$(dirname "$0")/../.."
SRC=$PWD
WORK=${TORCHLINT_CLEAN_ROOT:-/var/tmp/torchlint-clean-root}
MIRROR=${DEBIAN_MIRROR:-}
WHEEL="" DEB=""
while [ $# -gt 0 ]; do
  case "$1" in
    --wheel) WHEEL=$(realpath "$2"); shift 2 ;;
    --deb) DEB=$(realpath "$2"); shift 2 ;;
    *) echo "usage: $0 [--wheel WHEEL] [--deb DEB]" >&2; exit 2 ;;
  esac
done
[ "$(id -u)" = 0 ] || { echo "verify_clean_root: needs root (debootstrap, chroot)" >&2; exit 2; }
command -v debootstrap >/dev/null || { echo "verify_clean_root: apt-get install debootstrap" >&2; exit 2; }
if [ -z "$MIRROR" ]; then
  MIRROR=$(bash tools/package/apt_mirror.sh bookworm) \
    || { echo "verify_clean_root: set DEBIAN_MIRROR to a Debian archive that serves bookworm" >&2; exit 2; }
fi
[ -n "$WHEEL" ] || WHEEL=$(realpath "$(bash tools/package/build_wheel.sh dist | tail -1)")
[ -n "$DEB" ] || DEB=$(realpath "$(bash tools/package/build_deb.sh dist | tail -1)")
EXPECTED=$SRC/tests/packaging/expected_train_findings.txt

MOUNTS=()
cleanup() {
  for ((i = ${#MOUNTS[@]} - 1; i >= 0; i--)); do
    if mountpoint -q "${MOUNTS[$i]}"; then umount "${MOUNTS[$i]}" || umount -l "${MOUNTS[$i]}" || true; fi
  done
}
trap cleanup EXIT
in_root() { # in_root ROOT COMMAND...: chroot with /proc and /dev mounted
  local r=$1; shift
  if ! mountpoint -q "$r/proc"; then mount -t proc proc "$r/proc"; MOUNTS+=("$r/proc"); fi
  if ! mountpoint -q "$r/dev"; then mount --bind /dev "$r/dev"; MOUNTS+=("$r/dev"); fi
  chroot "$r" /usr/bin/env -i PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
    HOME=/root LANG=C.UTF-8 DEBIAN_FRONTEND=noninteractive "$@"
}
leave_root() { local r=$1; for m in "$r/dev" "$r/proc"; do if mountpoint -q "$m"; then umount "$m"; fi; done; }

mkdir -p "$WORK"
BASE=$WORK/base
if [ ! -f "$BASE/.debootstrapped" ]; then
  rm -rf "$BASE"
  echo "== debootstrap --variant=minbase bookworm from $MIRROR"
  debootstrap --variant=minbase bookworm "$BASE" "$MIRROR" > "$WORK/debootstrap.log" 2>&1 \
    || { echo "verify_clean_root: debootstrap failed (mirror $MIRROR); see $WORK/debootstrap.log:" >&2;
         tail -5 "$WORK/debootstrap.log" >&2; exit 2; }
  touch "$BASE/.debootstrapped"
fi
if [ ! -f "$BASE/.complete" ]; then
  echo "deb $MIRROR bookworm main" > "$BASE/etc/apt/sources.list"
  cp /etc/resolv.conf "$BASE/etc/resolv.conf" 2>/dev/null || true
  echo "== apt-get install libtorch-dev python3-venv (in the root)"
  in_root "$BASE" apt-get update -q > "$WORK/apt.log" 2>&1
  in_root "$BASE" apt-get install -y -q --no-install-recommends libtorch-dev python3-venv >> "$WORK/apt.log" 2>&1 \
    || { tail -20 "$WORK/apt.log" >&2; exit 2; }
  in_root "$BASE" apt-get clean
  leave_root "$BASE"
  touch "$BASE/.complete"
fi
echo "== the base root: $(in_root "$BASE" sh -c '. /etc/os-release; echo "$PRETTY_NAME, glibc $(ldd --version | head -1 | grep -o "[0-9.]*$")"'), $(in_root "$BASE" dpkg-query -W -f='${Package} ${Version}\n' libtorch-dev)"
# No Clang and no LLVM 19 (what torchlint links and bundles). libtorch-dev's dependencies bring
# mesa (libgl1-mesa-dri), which needs libllvm15, its shader compiler's LLVM 15 library: listed, not
# an error (torchlint never loads it: ldd below).
llvm=$(in_root "$BASE" sh -c "dpkg-query -W -f='\${Package}\n' | grep -Ei '^(clang|libclang|llvm|libllvm19|lld|libc\+\+)' || true; ls -d /usr/lib/llvm-* /usr/lib/clang 2>/dev/null || true")
other=$(in_root "$BASE" sh -c "dpkg-query -W -f='\${Package}\n' | grep -Ei '^libllvm' | tr '\n' ' '" || true)
leave_root "$BASE"
if [ -n "$llvm" ]; then echo "verify_clean_root: the base root has Clang or LLVM 19: $llvm" >&2; exit 1; fi
echo "   no Clang, no LLVM 19, no /usr/lib/llvm-*, no /usr/lib/clang in it${other:+ (other LLVM libraries, pulled by libtorch-dev: $other)}"

TORCH2=""
if [ -f "$SRC/.deps/libtorch-2/include/torch/csrc/api/include/torch/torch.h" ]; then TORCH2=$SRC/.deps/libtorch-2; fi

# findings ROOT TORCHLINT [ENV...]: runs torchlint on train.cpp in /work (not the install folder) and
# prints the sorted "line:column check" list; the exit code must be 1 (findings, no errors).
findings() {
  local r=$1 tl=$2; shift 2
  set +e
  in_root "$r" "$@" sh -c "cd /work && $tl --no-cache train.cpp" > "$r/work/out.txt" 2> "$r/work/err.txt"
  local rc=$?
  set -e
  tail -1 "$r/work/out.txt" >&2
  if [ $rc -ne 1 ]; then echo "verify_clean_root: exit code $rc (expected 1); stderr:" >&2; cat "$r/work/err.txt" >&2; return 1; fi
  grep -E '^(/work/)?train.cpp:[0-9]+:[0-9]+: warning: .*\[torch-[a-z0-9-]+\]$' "$r/work/out.txt" \
    | sed -E 's/^(\/work\/)?train.cpp:([0-9]+):([0-9]+): warning: .*\[(torch-[a-z0-9-]+)\]$/\2:\3 \4/' | sort -t: -k1,1n -k2,2n
}
check() { # check ROOT TORCHLINT LABEL BINARY (the ELF file TORCHLINT runs)
  local r=$1 tl=$2 label=$3 bin=$4 got want
  echo "== $label: torchlint train.cpp with Debian's libtorch-dev (1.13)"
  got=$(findings "$r" "$tl")
  want=$(grep -v '^#' "$EXPECTED" | grep -v '^$' | sort -t: -k1,1n -k2,2n)
  if [ "$got" != "$want" ]; then echo "FAIL ($label, libtorch 1.13):"; diff <(echo "$want") <(echo "$got") || true; return 1; fi
  echo "   $(echo "$got" | wc -l) findings, as expected: $(echo "$got" | awk '{print $2}' | sort | uniq -c | awk '{printf "%s %s, ", $1, $2}')"
  if [ -n "$TORCH2" ]; then
    echo "== $label: torchlint train.cpp with libtorch $(cat "$TORCH2/VERSION" 2>/dev/null) headers (LIBTORCH=/opt/libtorch-2)"
    got=$(findings "$r" "$tl" LIBTORCH=/opt/libtorch-2)
    want=$(grep -v '^#' "$EXPECTED" | grep -v '^$' | grep -v 'torch-zero-grad-set-to-none' | sort -t: -k1,1n -k2,2n)
    if [ "$got" != "$want" ]; then echo "FAIL ($label, libtorch 2.x):"; diff <(echo "$want") <(echo "$got") || true; return 1; fi
    echo "   $(echo "$got" | wc -l) findings, the README's 12"
  fi
  echo "   ldd $bin:"
  in_root "$r" sh -c "ldd $bin" | sed 's/^/     /' || true
  in_root "$r" sh -c "cd /work && $tl --version && $tl --explain torch-sync-item | head -1 && echo SARIF results: \$($tl --format=sarif train.cpp | grep -c '\"ruleId\"')" | sed 's/^/   /' || true
}
prepare() { # prepare NAME: a fresh copy of the base root with the example in /work
  local r=$WORK/$1
  rm -rf "$r"
  cp -a "$BASE" "$r"
  mkdir -p "$r/work"
  cp "$SRC/examples/train.cpp" "$r/work/"
  if [ -n "$TORCH2" ]; then mkdir -p "$r/opt/libtorch-2" && cp -a "$TORCH2/include" "$r/opt/libtorch-2/"; fi
  echo "$r"
}

status=0
R=$(prepare wheel)
cp "$WHEEL" "$R/tmp/"
echo "== wheel: pip install $(basename "$WHEEL") (offline, into a venv)"
in_root "$R" sh -c "python3 -m venv /opt/venv && /opt/venv/bin/pip install -q --no-index /tmp/$(basename "$WHEEL")"
echo "== wheel: with nothing but the wheel and libtorch-dev, torchlint must name the missing C++ standard headers"
set +e
in_root "$R" sh -c "cd /work && /opt/venv/bin/torchlint --no-cache train.cpp" > "$R/work/out.txt" 2> "$R/work/err.txt"
rc=$?
set -e
if [ $rc -ge 2 ] && cat "$R/work/out.txt" "$R/work/err.txt" | grep -q "analysed partially: headers not found: 'cstdint'"; then
  echo "   exit code $rc: $(cat "$R/work/out.txt" "$R/work/err.txt" | grep -o "analysed partially: headers not found: 'cstdint'.\{0,60\}" | head -1)..."
else
  echo "FAIL: exit code $rc without libstdc++ headers"; status=1
fi
echo "== wheel: apt-get install libstdc++-12-dev (the C++ standard library's headers; the .deb depends on it)"
in_root "$R" sh -c "apt-get install -y -q --no-install-recommends libstdc++-12-dev >/dev/null 2>&1 && dpkg-query -W -f='   \${Package} \${Version}\n' libstdc++-12-dev"
check "$R" /opt/venv/bin/torchlint wheel "/opt/venv/lib/python3*/site-packages/torchlint/data/bin/torchlint" || status=1
leave_root "$R"

R=$(prepare deb)
cp "$DEB" "$R/tmp/"
echo "== deb: apt-get install ./$(basename "$DEB")"
in_root "$R" sh -c "cd /tmp && apt-get install -y -q ./$(basename "$DEB") 2>&1 | grep -E '^(Setting up|Unpacking) (torchlint|libstdc)|^E: [^C]' ; dpkg -s torchlint | grep -E '^(Version|Depends|Installed-Size):'" | sed 's/^/   /'
check "$R" torchlint deb /usr/bin/torchlint || status=1
leave_root "$R"

if [ $status -eq 0 ]; then echo "verify_clean_root: OK"; else echo "verify_clean_root: FAILED"; fi
exit $status
