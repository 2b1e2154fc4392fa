#!/usr/bin/env bash
# Prints the Debian archive this machine's apt already uses for SUITE (its URI, e.g. the one
# debootstrap should fetch SUITE from), read from the machine's own apt sources:
#
#   bash tools/package/apt_mirror.sh SUITE [ROOT]
#
# Reads ROOT/etc/apt/sources.list, ROOT/etc/apt/sources.list.d/*.list (one-line format:
# `deb [options] URI SUITE COMPONENT...`) and ROOT/etc/apt/sources.list.d/*.sources (deb822:
# Types/URIs/Suites/Components stanzas; `Enabled: no` skipped), in apt's order (sources.list first,
# then the folder's files sorted by name; files with other extensions are ignored, as apt does).
# Prints the first `deb` URI that serves SUITE with the `main` component, or exits 2 naming the
# files read. ROOT defaults to / (tests pass a fake root). No mirror is named in this repository:
# the machine's apt configuration is the one that works from it.
set -euo pipefail
[ $# -ge 1 ] && [ $# -le 2 ] || { echo "usage: $0 SUITE [ROOT]" >&2; exit 2; }
SUITE=$1
ROOT=${2:-/}
ROOT=${ROOT%/}
files=()
[ -f "$ROOT/etc/apt/sources.list" ] && files+=("$ROOT/etc/apt/sources.list")
if [ -d "$ROOT/etc/apt/sources.list.d" ]; then
  while IFS= read -r f; do files+=("$f"); done < <(find "$ROOT/etc/apt/sources.list.d" -maxdepth 1 -type f \
    \( -name '*.list' -o -name '*.sources' \) | LC_ALL=C sort)
fi

# one_line FILE: "URI<TAB>SUITE<TAB>COMPONENTS" per deb line
one_line() {
  sed -e 's/#.*//' "$1" | awk '
    $1 == "deb" {
      i = 2
      if ($i ~ /^\[/) {                      # [ options ], possibly several words
        while (i <= NF && $i !~ /\]$/) i++
        i++
      }
      if (i + 1 > NF) next
      uri = $i; suite = $(i + 1); comps = ""
      for (j = i + 2; j <= NF; j++) comps = comps " " $j
      printf "%s\t%s\t%s \n", uri, suite, comps
    }'
}
# deb822 FILE: the same, one line per (URI, suite) of each enabled stanza of type deb
deb822() {
  awk '
    function flush(   n, m, u, s, us, ss) {
      if (types ~ /(^| )deb( |$)/ && enabled != "no") {
        n = split(uris, us, " "); m = split(suites, ss, " ")
        for (u = 1; u <= n; u++) for (s = 1; s <= m; s++) printf "%s\t%s\t %s \n", us[u], ss[s], comps
      }
      types = uris = suites = comps = ""; enabled = "yes"; key = ""
    }
    BEGIN { enabled = "yes" }
    /^[ \t]*#/ { next }
    /^[ \t]*$/ { flush(); next }
    /^[ \t]/ { if (key == "uris") uris = uris " " $0; else if (key == "suites") suites = suites " " $0;
               else if (key == "components") comps = comps " " $0; next }
    {
      k = tolower($0); sub(/:.*/, "", k); v = $0; sub(/^[^:]*:[ \t]*/, "", v); key = k
      if (k == "types") types = v; else if (k == "uris") uris = v; else if (k == "suites") suites = v
      else if (k == "components") comps = v; else if (k == "enabled") enabled = tolower(v)
    }
    END { flush() }' "$1"
}

entries=$(for f in "${files[@]+"${files[@]}"}"; do
  case "$f" in
    *.sources) deb822 "$f" ;;
    *) one_line "$f" ;;
  esac
done)
uri=$(printf '%s\n' "$entries" | awk -F'\t' -v suite="$SUITE" '!found && $2 == suite && $3 ~ / main / { print $1; found = 1 }')
if [ -n "$uri" ]; then echo "${uri%/}"; exit 0; fi
echo "apt_mirror: no 'deb' source for suite '$SUITE' with component main in: ${files[*]:-(no apt source files under $ROOT/etc/apt)}" >&2
exit 2
