#!/usr/bin/env bash
# Makes agents/ts/node_modules match package-lock.json: runs `npm ci` when it
# is missing or was installed from another lock file. Fails, saying what to
# install, when node or npm is missing or too old.
# Usage: agents/ts/ensure-deps.sh   (from any directory)
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")"

need_major=20
if ! command -v node >/dev/null 2>&1; then
    echo "error: node is not installed: the TypeScript agents need Node.js ${need_major} or later (with npm), e.g. 'apt-get install nodejs npm'" >&2
    exit 1
fi
if ! command -v npm >/dev/null 2>&1; then
    echo "error: npm is not installed: the TypeScript agents need it to install their toolchain (package-lock.json), e.g. 'apt-get install npm'" >&2
    exit 1
fi
major=$(node -p 'process.versions.node.split(".")[0]')
if (( major < need_major )); then
    echo "error: node $(node --version) is too old: the TypeScript agents need Node.js ${need_major} or later" >&2
    exit 1
fi

# The lock file and package.json installed, as a digest kept in node_modules.
stamp=node_modules/.wakeful-installed
wanted=$(node -e '
const { createHash } = require("node:crypto");
const { readFileSync } = require("node:fs");
const hash = createHash("sha256");
for (const file of ["package.json", "package-lock.json"]) hash.update(readFileSync(file));
console.log(hash.digest("hex"));
')
if [[ -f $stamp && $(cat "$stamp") == "$wanted" && -e node_modules/wakeful-sdk ]]; then
    exit 0
fi
if [[ -d node_modules ]]; then
    echo "agents/ts/node_modules does not match package-lock.json: npm ci" >&2
else
    echo "agents/ts/node_modules is missing: npm ci" >&2
fi
started=$SECONDS
npm ci --no-audit --no-fund >&2
echo "$wanted" > "$stamp"
echo "npm ci took $((SECONDS - started)) s" >&2
