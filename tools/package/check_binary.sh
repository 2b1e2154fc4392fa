#!/usr/bin/env bash
# What a torchlint binary needs at run time: its shared libraries (NEEDED) and the newest glibc
# symbol version. Fails when a static build (TORCHLINT_STATIC=ON) needs anything but glibc, i.e.
# when it would not run on a Debian 12 (or any glibc >= that version) system without LLVM.
set -euo pipefail
exe=${1:?usage: check_binary.sh BINARY}
needed=$(objdump -p "$exe" | awk '$1 == "NEEDED" {print $2}' | sort | tr '\n' ' ')
glibc=$(objdump -T "$exe" | grep -o 'GLIBC_2\.[0-9]*' | sort -t. -k2 -n -u | tail -1)
echo "check_binary: $exe: $(du -h "$exe" | cut -f1), needs: $needed(newest symbol version $glibc)"
for lib in $needed; do
  case "$lib" in
    libc.so.6|libm.so.6|libdl.so.2|librt.so.1|libpthread.so.0|ld-linux-x86-64.so.2) ;;
    *) echo "check_binary: error: $exe needs $lib, which a clean Debian 12 without LLVM may lack" >&2; exit 1 ;;
  esac
done
