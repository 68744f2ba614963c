#!/usr/bin/env bash
# Installs the pinned toolchain (npm install: package.json and
# package-lock.json) and builds this agent into {{name_snake}}.wasm, here.
# Needs Node.js 20 or later with npm.
# Usage: ./build.sh   (from any directory)
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")"

fail() {
    echo "build: $*" >&2
    exit 1
}

command -v node >/dev/null 2>&1 ||
    fail "node is not on PATH: install Node.js 20 or later with npm (Debian: apt-get install nodejs npm)"
command -v npm >/dev/null 2>&1 ||
    fail "npm is not on PATH: install it with Node.js 20 or later (Debian: apt-get install npm)"
major=$(node -p 'process.versions.node.split(".")[0]')
(( major >= 20 )) || fail "node $(node --version) is too old: this project needs Node.js 20 or later"

npm install --no-audit --no-fund >&2 || fail "npm install failed (is the npm registry reachable?)"
npm run --silent build
