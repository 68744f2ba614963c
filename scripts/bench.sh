#!/usr/bin/env bash
# The benchmark of record: builds the host in release mode and the agents
# from source, then runs `wakeful bench --record` (every workload, the
# disk's floor, one table). Arguments go to the bench, e.g.
#   scripts/bench.sh --sleeping 1000000      # the full sleeping-runs figure
#   scripts/bench.sh --json > bench.json
set -euo pipefail
cd "$(dirname "$0")/.."
rustup target list --installed | grep -qx wasm32-wasip2 || rustup target add wasm32-wasip2
scripts/build-agents.sh >/dev/null
cargo build --release -p wakeful --quiet
exec target/release/wakeful bench --record "$@"
