#!/usr/bin/env bash
# Builds this agent (app.py) into the WebAssembly component
# {{name_snake}}.wasm, here, with componentize-py; `./build.sh test` runs its
# unit tests instead.
# componentize-py comes from requirements.lock (pinned by hash) into a
# virtual environment at .venv (or where WAKEFUL_PYTHON_VENV says, to share
# one between projects), made on the first run and reused after, made again
# when the lock file changes. The SDK is the wheel in sdk/ (`wakeful sdk`
# writes it), installed into the same environment whenever it changes; a
# project with the SDK's sources in wakeful_sdk/ uses those instead.
# Usage: ./build.sh [test [UNITTEST ARGS...]]   (from any directory)
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")"
root=$PWD
lock=requirements.lock
venv=${WAKEFUL_PYTHON_VENV:-.venv}
wasm={{name_snake}}.wasm

fail() {
    echo "build: $*" >&2
    exit 1
}

[[ -f app.py ]] || fail "no app.py in $root"
[[ -f $lock ]] || fail "no $lock in $root: it pins componentize-py"
[[ -f wit/agent.wit ]] || fail "no wit/agent.wit in $root: 'wakeful wit > wit/agent.wit' writes the contract"
shopt -s nullglob
wheels=(sdk/wakeful_sdk-*.whl)
shopt -u nullglob
(( ${#wheels[@]} <= 1 )) || fail "several SDK wheels in sdk/: keep the one app.py is written for"
[[ ${#wheels[@]} -eq 1 || -f wakeful_sdk/__init__.py ]] ||
    fail "no SDK in $root: 'wakeful sdk --out sdk' writes its wheel into sdk/"

command -v python3 >/dev/null ||
    fail "python3 is not on PATH: install Python 3.10 or newer (Debian: apt-get install python3 python3-venv)"
python3 -c 'import sys; sys.exit(sys.version_info < (3, 10))' ||
    fail "python3 is $(python3 --version 2>&1); componentize-py needs Python 3.10 or newer"

if [[ ! -f $venv/lock.installed ]] || ! cmp -s "$lock" "$venv/lock.installed" || [[ ! -x $venv/bin/componentize-py ]]; then
    python3 -c 'import venv, ensurepip' 2>/dev/null ||
        fail "python3 has no venv module with pip (ensurepip): install it (Debian: apt-get install python3-venv)"
    rm -rf "$venv"
    python3 -m venv "$venv" || fail "python3 -m venv $venv failed (Debian: apt-get install python3-venv)"
    "$venv/bin/python" -m pip --version >/dev/null 2>&1 ||
        fail "the virtual environment $venv has no pip (Debian: apt-get install python3-venv python3-pip)"
    echo "build: installing componentize-py from $lock into $venv" >&2
    "$venv/bin/python" -m pip install --quiet --disable-pip-version-check --require-hashes --only-binary=:all: -r "$lock" ||
        fail "pip could not install $lock (is PyPI reachable? is there a wheel for $(uname -sm)?)"
    cp "$lock" "$venv/lock.installed"
fi

if [[ ${#wheels[@]} -eq 1 ]] && ! cmp -s "${wheels[0]}" "$venv/sdk.installed"; then
    echo "build: installing the SDK ${wheels[0]} into $venv" >&2
    "$venv/bin/python" -m pip install --quiet --disable-pip-version-check --no-index --no-deps \
        --force-reinstall "${wheels[0]}" || fail "pip could not install ${wheels[0]}"
    cp "${wheels[0]}" "$venv/sdk.installed"
fi

if [[ ${1:-} == test ]]; then
    shift
    exec "$venv/bin/python" -m unittest "$@"
fi

# componentize-py also puts the site-packages of an active virtual
# environment (or else of whichever python it finds) on the module path:
# point it at this project's own, so that what goes into the component does
# not depend on the shell it was built from.
export VIRTUAL_ENV="$(cd "$venv" && pwd)"
unset PIPENV_ACTIVE

# -d wit -w agent: the contract and its world; app: the module holding
# WitWorld; -p .: the module path (app.py and wakeful_sdk/).
"$venv/bin/componentize-py" -d wit -w agent componentize app -p . -o "$wasm" >&2 ||
    fail "componentize-py failed on app.py"
[[ -f $wasm ]] || fail "componentize-py wrote no $wasm"
echo "$root/$wasm"
