#!/usr/bin/env bash
# Chromium and chromedriver for the browser tests (tests/all/browser/):
# Debian's `chromium` and `chromium-driver`, installed when missing. As root
# (CI, a fresh machine) they are installed with apt-get; otherwise a missing
# one is an error saying what to install — the tests are never skipped.
set -euo pipefail

missing=()
command -v chromium >/dev/null 2>&1 || missing+=(chromium)
command -v chromedriver >/dev/null 2>&1 || missing+=(chromium-driver)
if [ ${#missing[@]} -eq 0 ]; then
    exit 0
fi

if [ "$(id -u)" -ne 0 ]; then
    echo "the browser tests need ${missing[*]}: install them with" >&2
    echo "  sudo apt-get install -y --no-install-recommends chromium chromium-driver" >&2
    exit 1
fi

echo "== installing chromium and chromium-driver (apt-get)"
export DEBIAN_FRONTEND=noninteractive
apt-get update -q
apt-get install -y -q --no-install-recommends chromium chromium-driver
command -v chromium >/dev/null && command -v chromedriver >/dev/null || {
    echo "apt-get installed chromium and chromium-driver, yet chromium or chromedriver is not on PATH" >&2
    exit 1
}
