#!/usr/bin/env bash
# LangGraph on the incident workload, for the benchmark of record to compare
# with: installs bench/langgraph/requirements.txt (exact versions, checked
# against their hashes) into a virtualenv under target/ (reused if present)
# and runs bench/langgraph/incident.py, which prints one JSON object.
# Arguments go to incident.py, e.g.
#   scripts/bench-langgraph.sh --sequential 200 --in-flight 1000
set -euo pipefail
cd "$(dirname "$0")/.."
python=${PYTHON:-python3}
if ! command -v "$python" >/dev/null; then
    echo "bench-langgraph: $python is missing: install Python 3 (3.11 was measured), or set PYTHON" >&2
    exit 1
fi
if ! "$python" -c 'import venv, ensurepip' 2>/dev/null; then
    echo "bench-langgraph: $python has no venv/ensurepip module: install it (e.g. apt-get install python3-venv)" >&2
    exit 1
fi
venv=target/bench-langgraph-venv
requirements=bench/langgraph/requirements.txt
# Installed once per version of the requirements: a changed pin reinstalls.
stamp="$venv/requirements.sha256"
want=$(sha256sum "$requirements" | cut -d' ' -f1)
if [ ! -x "$venv/bin/python" ] || [ "$(cat "$stamp" 2>/dev/null)" != "$want" ]; then
    echo "bench-langgraph: installing $requirements into $venv" >&2
    "$python" -m venv "$venv"
    "$venv/bin/python" -m pip install --quiet --disable-pip-version-check \
        --require-hashes -r "$requirements" >&2
    echo "$want" > "$stamp"
fi
exec "$venv/bin/python" bench/langgraph/incident.py "$@"
