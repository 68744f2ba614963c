#!/usr/bin/env bash
# The benchmark of record: builds wakeful and wakeful-bench (bench/) in
# release mode and the agents from source, measures LangGraph on the same
# incident workload (scripts/bench-langgraph.sh, with the same incident
# counts), then runs `wakeful-bench` (every workload, the disk's floor,
# LangGraph's figures beside wakeful's, one table). Arguments go to the
# bench, e.g.
#   scripts/bench.sh --sleeping 1000000      # the full sleeping-runs figure
#   scripts/bench.sh --json > bench.json
#   scripts/bench.sh --no-langgraph          # without LangGraph (no Python needed)
set -euo pipefail
cd "$(dirname "$0")/.."
langgraph=1
args=()
# The record's defaults (bench/src/main.rs), unless given.
runs=200
in_flight=1000
while [ $# -gt 0 ]; do
    case "$1" in
        --no-langgraph) langgraph=0 ;;
        --runs | --in-flight)
            [ $# -ge 2 ] || { echo "bench.sh: $1 needs a value" >&2; exit 2; }
            if [ "$1" = --runs ]; then runs=$2; else in_flight=$2; fi
            args+=("$1" "$2")
            shift
            ;;
        --runs=*) runs=${1#*=}; args+=("$1") ;;
        --in-flight=*) in_flight=${1#*=}; args+=("$1") ;;
        *) args+=("$1") ;;
    esac
    shift
done
rustup target list --installed | grep -qx wasm32-wasip2 || rustup target add wasm32-wasip2
scripts/build-agents.sh >/dev/null
# wakeful too: the record starts its `serve` on a store of sleeping runs.
# Two builds: `--bin` would filter wakeful-bench's binary out of one, and
# the product binary is built without the bench crate's `bench` feature.
cargo build --release -p wakeful --bin wakeful --quiet
cargo build --release -p wakeful-bench --quiet
if [ "$langgraph" = 1 ]; then
    compare=$(mktemp "${TMPDIR:-/tmp}/wakeful-bench-langgraph.XXXXXX.json")
    trap 'rm -f "$compare"' EXIT
    echo "bench.sh: measuring LangGraph (--no-langgraph skips it)" >&2
    scripts/bench-langgraph.sh --runs "$runs" --in-flight "$in_flight" > "$compare"
    args+=(--compare-json "$compare")
fi
target/release/wakeful-bench ${args[@]+"${args[@]}"}
