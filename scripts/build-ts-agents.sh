#!/usr/bin/env bash
# Builds every TypeScript agent (each agents/ts/*/app.ts) into a WebAssembly
# component, agents/target/ts/<directory, - as _>.wasm, and prints each path.
# Installs the pinned toolchain (npm ci in agents/ts) first when it is
# missing or stale; needs Node.js 20+ and npm.
# Usage: scripts/build-ts-agents.sh   (from any directory)
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."

agents/ts/ensure-deps.sh
cd agents/ts
node build.mjs
