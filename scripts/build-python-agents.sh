#!/usr/bin/env bash
# Builds every Python agent (agents/python/<name>/app.py) into a WebAssembly
# component, then prints the path of each .wasm file:
# agents/target/python/<name, with - as _>.wasm.
# Each agent is built as a new project is (`wakeful new --lang python`): by
# templates/python/build.sh, in a project made of copies of the agent's
# files, the SDK (guest-sdk/python), its lock file and the WIT contract, so
# that the repository's agents and a new project build the same way.
# componentize-py comes from guest-sdk/python/requirements.lock (pinned by
# hash) into one virtual environment for every agent,
# agents/target/python/venv, made on the first run and reused after.
# Usage: scripts/build-python-agents.sh   (from any directory)
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
root=$PWD
out=agents/target/python

fail() {
    echo "build-python-agents: $*" >&2
    exit 1
}

shopt -s nullglob
apps=(agents/python/*/app.py)
[[ ${#apps[@]} -gt 0 ]] || fail "no agents/python/*/app.py to build"
for app in "${apps[@]}"; do
    dir=$(dirname "$app")
    name=$(basename "$dir")
    snake=${name//-/_}
    project="$root/$out/projects/$name"
    rm -rf "$project"
    mkdir -p "$project"
    cp -R "$root/$dir"/. "$project/"
    cp -R "$root/guest-sdk/python/wakeful_sdk" "$project/wakeful_sdk"
    cp "$root/guest-sdk/python/requirements.lock" "$project/requirements.lock"
    mkdir "$project/wit"
    cp "$root/wit/agent.wit" "$project/wit/agent.wit"
    sed "s/{{name_snake}}/$snake/g" templates/python/build.sh > "$project/build.sh"
    chmod +x "$project/build.sh"
    WAKEFUL_PYTHON_VENV="$root/$out/venv" "$project/build.sh" >/dev/null ||
        fail "building $app failed"
    wasm="$root/$out/$snake.wasm"
    mv "$project/$snake.wasm" "$wasm"
    echo "$wasm"
done
