#!/bin/sh
# Stands in for `torchlint --fix` in runtime_probe/RunFixit.cmake on the GPU machine (no LLVM there):
# writes the after that torchlint produced where it is built ($FIXITS/<check>.cpp from gen_fixits.sh,
# its first line being RunFixit's header). The re-check of the fixed copy (no --fix) reports nothing.
fix=0; f=
for a in "$@"; do
  case "$a" in --fix) fix=1 ;; *.tmp.cpp) f=$a ;; --) break ;; esac
done
[ -n "$f" ] || { echo "fake-torchlint: no .tmp.cpp file in: $*" >&2; exit 2; }
[ "$fix" = 1 ] || exit 0
n=$(basename "$f" .cpp.tmp.cpp)
src=${FIXITS:?set FIXITS to the generated afters}/$n.cpp
[ -f "$src" ] || { echo "fake-torchlint: no pre-generated fix for $n ($src)" >&2; exit 2; }
tail -n +2 "$src" > "$f"
