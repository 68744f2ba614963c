#!/usr/bin/env bash
# Runs the native unit tests of the Python SDK (guest-sdk/python/tests) and
# of every Python agent (agents/python/<name>/test_*.py) with python3 -m
# unittest, against the SDK's fake host: no component, no componentize-py,
# no network. Fails on the first failing suite, and on a suite that finds no
# tests.
# Usage: scripts/test-python.sh   (from any directory)
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
root=$PWD

command -v python3 >/dev/null || {
    echo "test-python: python3 is not on PATH: install Python 3.10 or newer" >&2
    exit 1
}

# Runs `python3 -m unittest discover` in $1 with the SDK importable.
suite() {
    local dir=$1 log
    log=$(mktemp)
    echo "== $dir" >&2
    if ! (cd "$dir" && PYTHONPATH="$root/guest-sdk/python" PYTHONDONTWRITEBYTECODE=1 python3 -m unittest discover -t . -s . -p 'test*.py') >"$log" 2>&1; then
        cat "$log" >&2
        rm -f "$log"
        echo "test-python: FAILED in $dir" >&2
        exit 1
    fi
    tail -n 3 "$log" >&2
    if ! grep -Eq '^Ran [1-9][0-9]* tests?' "$log"; then
        cat "$log" >&2
        rm -f "$log"
        echo "test-python: no tests found in $dir" >&2
        exit 1
    fi
    rm -f "$log"
}

suite guest-sdk/python
for dir in agents/python/*/; do
    suite "${dir%/}"
done
echo "python tests passed" >&2
