#!/usr/bin/env bash
# Tests the TypeScript SDK and agents: type-checks them, runs the SDK's and
# both agents' unit tests (Node's test runner, against the SDK's fake host),
# builds the components and runs them under Node through their WIT exports.
# With WAKEFUL_BIN=<path to a wakeful binary>, also runs the incident
# experiments of tests/all/incident.rs against it with the TypeScript agent.
# Installs the pinned toolchain first when it is missing or stale.
# Usage: scripts/test-ts.sh   (from any directory)
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
trap 'echo "test-ts: FAILED (exit $?)" >&2' ERR

agents/ts/ensure-deps.sh
scripts/build-ts-agents.sh
cd agents/ts
node test.mjs --with-components
if [[ -n ${WAKEFUL_BIN:-} ]]; then
    node e2e.mjs --wakeful "$WAKEFUL_BIN"
fi
