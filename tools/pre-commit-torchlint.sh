#!/bin/sh
# pre-commit entry of the torchlint-system hook (.pre-commit-hooks.yaml; the `torchlint` hook runs the wheel's torchlint-pre-commit): analyses the staged C/C++ files
# that pre-commit passes, and passes on an empty file list. torchlint options go in the hook's
# `args`; compiler flags (used when there is no compile database) in $TORCHLINT_COMPILE_FLAGS.
#   TORCHLINT                the torchlint binary (default: torchlint on PATH)
#   TORCHLINT_COMPILE_FLAGS  e.g. "-std=c++17 -Iinclude" (passed after `--`)
set -eu
files=0
skip=0
for a in "$@"; do
  if [ "$skip" -eq 1 ]; then skip=0; continue; fi
  case "$a" in
    -p|-o|--output|--baseline|--since|--shard|--checks|--format|--sarif-root|--level|-j) skip=1 ;;
    -*) ;;
    *) files=$((files + 1)) ;;
  esac
done
if [ "$files" -eq 0 ]; then
  exit 0
fi
tl=${TORCHLINT:-torchlint}
if [ -n "${TORCHLINT_COMPILE_FLAGS:-}" ]; then
  # shellcheck disable=SC2086
  exec "$tl" "$@" -- $TORCHLINT_COMPILE_FLAGS
fi
exec "$tl" "$@"
