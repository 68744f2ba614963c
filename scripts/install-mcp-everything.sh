#!/usr/bin/env bash
# Installs @modelcontextprotocol/server-everything, the reference MCP server
# that tests/all/mcp.rs calls over stdio, into tests/mcp-everything/
# node_modules from its package-lock.json (every package pinned by version
# and integrity hash), unless that install is already there. The tests run
# it with node directly: no network at test time.
# Usage: scripts/install-mcp-everything.sh   (from any directory)
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/../tests/mcp-everything"

if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
    echo "error: node and npm are needed for the MCP reference server, e.g. 'apt-get install nodejs npm'" >&2
    exit 1
fi
stamp=node_modules/.wakeful-installed
wanted=$(sha256sum package.json package-lock.json | sha256sum | cut -d' ' -f1)
if [[ -f $stamp && $(cat "$stamp") == "$wanted" ]]; then
    exit 0
fi
# --ignore-scripts: nothing from the registry runs at install time.
npm ci --no-audit --no-fund --ignore-scripts >&2
echo "$wanted" > "$stamp"
