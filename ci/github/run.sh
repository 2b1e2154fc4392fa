#!/usr/bin/env bash
# action.yml, step "Run torchlint" (also usable in any CI; tests/packaging/test_ci_templates.py runs
# it). Writes $TORCHLINT_SARIF and `exit-code=N` to $GITHUB_OUTPUT; exits 0 itself (the action's
# Verdict step applies fail-on), so that the report is uploaded whatever torchlint found.
#   TORCHLINT_FILES            files/globs to analyse; empty: changed files on a pull request
#                              (TORCHLINT_CHANGED_ONLY=true, TORCHLINT_BASE_REF), else every file
#                              of the compile database (TORCHLINT_COMPILE_DATABASE/compile_commands.json)
#   TORCHLINT_SHARD=K/N        one slice of that list
#   TORCHLINT_MERGE            SARIF files (globs) to merge instead of analysing
#   TORCHLINT_ARGS             more options
set -uo pipefail
sarif=${TORCHLINT_SARIF:-torchlint.sarif}
root=${GITHUB_WORKSPACE:-$PWD}
db=${TORCHLINT_COMPILE_DATABASE:-}
out() { if [ -n "${GITHUB_OUTPUT:-}" ]; then echo "$1" >> "$GITHUB_OUTPUT"; fi; }
read -r -a extra <<< "${TORCHLINT_ARGS:-}"

if [ -n "${TORCHLINT_MERGE:-}" ]; then
  # shellcheck disable=SC2206
  inputs=(${TORCHLINT_MERGE})
  torchlint merge --sarif-root="$root" "$sarif" "${inputs[@]}"
  rc=$?
  echo "torchlint merge: exit code $rc"
  out "exit-code=$rc"
  exit 0
fi

files=()
if [ -n "${TORCHLINT_FILES:-}" ]; then
  # shellcheck disable=SC2206
  files=(${TORCHLINT_FILES})
elif [ "${TORCHLINT_CHANGED_ONLY:-true}" = true ] && [ -n "${TORCHLINT_BASE_REF:-}" ]; then
  git fetch -q --depth=1 origin "$TORCHLINT_BASE_REF" 2>/dev/null || true
  mapfile -t files < <(git diff --name-only --diff-filter=ACMR "origin/$TORCHLINT_BASE_REF...HEAD" -- \
                         '*.cpp' '*.cc' '*.cxx' '*.c++' '*.cu' 2>/dev/null \
                       || git diff --name-only --diff-filter=ACMR "origin/$TORCHLINT_BASE_REF" -- '*.cpp' '*.cc' '*.cxx' '*.c++' '*.cu')
  echo "torchlint: ${#files[@]} C++ file(s) changed against origin/$TORCHLINT_BASE_REF"
elif [ -n "$db" ] && [ -f "$db/compile_commands.json" ]; then
  mapfile -t files < <(python3 - "$db/compile_commands.json" "$root" <<'PY'
import json, os, sys
root = os.path.realpath(sys.argv[2])
seen = set()
for e in json.load(open(sys.argv[1])):
    f = os.path.realpath(os.path.join(e.get("directory", "."), e["file"]))
    if (f == root or f.startswith(root + os.sep)) and f not in seen and os.path.exists(f):
        seen.add(f)
        print(os.path.relpath(f, os.getcwd()))
PY
)
  echo "torchlint: ${#files[@]} file(s) from $db/compile_commands.json"
else
  mapfile -t files < <(git ls-files '*.cpp' '*.cc' '*.cxx' '*.c++')
  echo "torchlint: ${#files[@]} C++ file(s) tracked by git (no compile database)"
fi

opts=(--format=sarif --sarif-root "$root" -o "$sarif")
if [ -n "$db" ] && [ -f "$db/compile_commands.json" ]; then opts+=(-p "$db"); fi
if [ -n "${TORCHLINT_SHARD:-}" ]; then opts+=(--shard "$TORCHLINT_SHARD"); fi
if [ ${#files[@]} -eq 0 ]; then
  # Nothing to analyse: an empty report, so that upload and merge still have their file.
  : > "$root/.torchlint-empty.json"
  printf '{"findings": [], "errors": [], "filesAnalyzed": 0}\n' > "$root/.torchlint-empty.json"
  torchlint merge --format=sarif --sarif-root="$root" "$sarif" "$root/.torchlint-empty.json"
  rc=$?
  rm -f "$root/.torchlint-empty.json"
else
  torchlint "${opts[@]}" "${extra[@]}" "${files[@]}"
  rc=$?
fi
echo "torchlint: exit code $rc (0 clean, 1 findings, 2 tool or input error, 3 both)"
out "exit-code=$rc"
exit 0
