#!/usr/bin/env bash
# The incident scenario of seed 001, end to end, each command a new process:
# start, pause at the approval, approve from another process, resolve, and
# print the audit trail. Installs the wasm32-wasip2 target if missing and
# builds the agents and the host from source.
set -euo pipefail
cd "$(dirname "$0")/.."

echo "building the agents and the host (the first build compiles wasmtime: a few minutes)..."
scripts/build-agents.sh >/dev/null
cargo build -p wakeful --quiet
wakeful=target/debug/wakeful

export WAKEFUL_DATA=target/demo
export WAKEFUL_CONFIG=agents/incident/wakeful.toml
rm -rf "$WAKEFUL_DATA"
run=INC-7001

say() { printf '\n\033[1m== %s\033[0m\n' "$*"; }

say "the world: payments-api is degraded (a key of the incident agent's own kv namespace)"
$wakeful kv put agent/incident/service/payments-api '{"status":"degraded","memory_pct":97,"actions_applied":0}'

say "deploy the incident agent with the tools it asks for"
$wakeful deploy agents/target/wasm32-wasip2/release/incident.wasm --grant kv --grant lease --grant llm --owner "sre on-call"

say "start a run and work until it waits"
$wakeful start incident --id "$run" --input '{"incident":"INC-7001","service":"payments-api"}'
$wakeful work --until-idle

say "every process has ended: the run is rows in $WAKEFUL_DATA/wakeful.db, waiting for a human"
$wakeful show "$run"

say "an on-call engineer approves what show printed (its digest), from another process"
# awk reads to the end, so `show` is never cut off by a closed pipe.
digest=$($wakeful show "$run" | awk '$1 == "digest" && !d { d = $2 } END { print d }')
$wakeful approve "$run" approve-scale_out --digest "$digest" --by "on-call engineer" --comment "go ahead"

say "a new worker finishes the run"
$wakeful work --until-idle
$wakeful show "$run"

say "the service was changed exactly once"
$wakeful kv get agent/incident/service/payments-api

say "history: one checkpoint per step"
$wakeful history "$run"

say "audit trail"
$wakeful audit "$run"
