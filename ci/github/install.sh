#!/usr/bin/env bash
# action.yml, step "Install torchlint": the wheel from PyPI (TORCHLINT_VERSION), or the wheel/.deb
# in TORCHLINT_PACKAGE (path or URL), or nothing when TORCHLINT_PACKAGE=none. The wheel goes into
# its own virtualenv under $RUNNER_TEMP, whose bin/ is added to $GITHUB_PATH.
set -euo pipefail
pkg=${TORCHLINT_PACKAGE:-}
tmp=${RUNNER_TEMP:-$(mktemp -d)}
if [ "$pkg" = none ]; then
  command -v torchlint >/dev/null || { echo "::error::package: none, but no torchlint on PATH"; exit 2; }
  torchlint --version
  exit 0
fi
case "$pkg" in
  http://*|https://*)
    dest="$tmp/$(basename "${pkg%%\?*}")"
    curl -fsSL -o "$dest" "$pkg"
    pkg=$dest ;;
esac
sudo=""
if [ "$(id -u)" != 0 ] && command -v sudo >/dev/null; then sudo=sudo; fi
case "$pkg" in
  *.deb)
    $sudo apt-get install -y -q "$(realpath "$pkg")"
    torchlint --version ;;
  *)
    spec=${pkg:-torchlint==${TORCHLINT_VERSION:?}}
    venv="$tmp/torchlint-venv"
    python3 -m venv "$venv"
    "$venv/bin/python" -m pip install -q --disable-pip-version-check "$spec"
    if [ -n "${GITHUB_PATH:-}" ]; then echo "$venv/bin" >> "$GITHUB_PATH"; fi
    "$venv/bin/torchlint" --version ;;
esac
