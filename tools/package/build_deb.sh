#!/usr/bin/env bash
# One command for the Debian package: builds the static torchlint (build_static.sh) and runs CPack's
# DEB generator: dist/torchlint_<version>_amd64.deb (Depends computed by dpkg-shlibdeps).
#   bash tools/package/build_deb.sh [OUT_DIR]       (default dist/)
set -euo pipefail
cd "$(dirname "$0")/../.."
OUT=$(mkdir -p "${1:-dist}" && cd "${1:-dist}" && pwd)
B=$(bash tools/package/build_static.sh)
(cd "$B" && cpack -G DEB -B "$OUT" >&2)
rm -rf "$OUT/_CPack_Packages"
ls "$OUT"/torchlint_*_amd64.deb
