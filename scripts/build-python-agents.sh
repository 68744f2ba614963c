#!/usr/bin/env bash
# Builds every Python agent (agents/python/<name>/app.py) into a WebAssembly
# component with componentize-py, then prints the path of each .wasm file:
# agents/target/python/<name, with - as _>.wasm.
# componentize-py comes from guest-sdk/python/requirements.lock (pinned by
# hash) into a virtual environment at agents/target/python/venv, made on the
# first run and reused after, reinstalled when the lock file changes.
# Usage: scripts/build-python-agents.sh   (from any directory)
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
root=$PWD
lock=guest-sdk/python/requirements.lock
out=agents/target/python
venv=$out/venv

fail() {
    echo "build-python-agents: $*" >&2
    exit 1
}

command -v python3 >/dev/null ||
    fail "python3 is not on PATH: install Python 3.10 or newer (Debian: apt-get install python3 python3-venv)"
python3 -c 'import sys; sys.exit(sys.version_info < (3, 10))' ||
    fail "python3 is $(python3 --version 2>&1); componentize-py needs Python 3.10 or newer"

if [[ ! -f $venv/lock.installed ]] || ! cmp -s "$lock" "$venv/lock.installed" || [[ ! -x $venv/bin/componentize-py ]]; then
    python3 -c 'import venv, ensurepip' 2>/dev/null ||
        fail "python3 has no venv module with pip (ensurepip): install it (Debian: apt-get install python3-venv)"
    rm -rf "$venv"
    mkdir -p "$out"
    python3 -m venv "$venv" || fail "python3 -m venv $venv failed (Debian: apt-get install python3-venv)"
    "$venv/bin/python" -m pip --version >/dev/null 2>&1 ||
        fail "the virtual environment $venv has no pip (Debian: apt-get install python3-venv python3-pip)"
    echo "installing componentize-py from $lock into $venv" >&2
    "$venv/bin/python" -m pip install --quiet --disable-pip-version-check --require-hashes --only-binary=:all: -r "$lock" ||
        fail "pip could not install $lock (is PyPI reachable? is there a wheel for $(uname -sm)?)"
    cp "$lock" "$venv/lock.installed"
fi

# componentize-py also puts the site-packages of an active virtual
# environment (or else of whichever python it finds) on the module path:
# point it at the build's own environment, so that what goes into a
# component does not depend on the shell it was built from.
export VIRTUAL_ENV="$root/$venv"
unset PIPENV_ACTIVE

shopt -s nullglob
apps=(agents/python/*/app.py)
[[ ${#apps[@]} -gt 0 ]] || fail "no agents/python/*/app.py to build"
for app in "${apps[@]}"; do
    dir=$(dirname "$app")
    name=$(basename "$dir")
    wasm="$root/$out/${name//-/_}.wasm"
    "$venv/bin/componentize-py" -d "$root/wit" -w agent componentize app \
        -p "$root/$dir" -p "$root/guest-sdk/python" -o "$wasm" >&2 ||
        fail "componentize-py failed on $app"
    [[ -f $wasm ]] || fail "missing $wasm (from $app)"
    echo "$wasm"
done
