#!/usr/bin/env bash
# Optional extras for the report tests (tests/reports), idempotent, on Debian 12 (as root):
#   chromium    headless browser for reports.browser (apt: ~116 MB download, ~372 MB on disk, ~45 s)
#   pre-commit  the framework reports.pre_commit runs the hook through (PyPI, a few MB)
# Without them CMake does not register those two tests (it says so when configuring).
set -euo pipefail
if ! command -v chromium >/dev/null 2>&1; then
  echo "setup-reports: installing chromium"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -q >/dev/null
  apt-get install -y -q --no-install-recommends chromium >/dev/null
fi
if ! python3 -c "import pre_commit" >/dev/null 2>&1; then
  echo "setup-reports: installing pre-commit from PyPI"
  python3 -m pip install -q pre-commit || python3 -m pip install -q --break-system-packages pre-commit
fi
