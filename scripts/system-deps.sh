#!/usr/bin/env bash
# The system programs the tests drive, from Debian's packages, installed
# when missing: `chromium` and `chromium-driver` for the browser tests
# (tests/all/browser/), `strace` for the tests that count the host's flushes
# to disk (tests/all/fsyncs.rs), `patch` for `scripts/vendor.sh`, and `mkswap` and
# `swapon` (util-linux) for the sandbox test that swaps a guest's pages out. As root (CI, a fresh machine) they are
# installed with apt-get; otherwise a missing one is an error saying what to
# install — the tests are never skipped.
set -euo pipefail

missing=()
command -v chromium >/dev/null 2>&1 || missing+=(chromium)
command -v chromedriver >/dev/null 2>&1 || missing+=(chromium-driver)
command -v strace >/dev/null 2>&1 || missing+=(strace)
command -v patch >/dev/null 2>&1 || missing+=(patch)
command -v swapon >/dev/null 2>&1 || missing+=(util-linux)
if [ ${#missing[@]} -eq 0 ]; then
    exit 0
fi

if [ "$(id -u)" -ne 0 ]; then
    echo "the tests need ${missing[*]}: install them with" >&2
    echo "  sudo apt-get install -y --no-install-recommends ${missing[*]}" >&2
    exit 1
fi

echo "== installing ${missing[*]} (apt-get)"
export DEBIAN_FRONTEND=noninteractive
apt-get update -q
apt-get install -y -q --no-install-recommends "${missing[@]}"
for program in chromium chromedriver strace patch swapon; do
    command -v "$program" >/dev/null || {
        echo "apt-get installed ${missing[*]}, yet $program is not on PATH" >&2
        exit 1
    }
done
