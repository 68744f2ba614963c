#!/usr/bin/env bash
# Every check and test, from a fresh clone: installs what is missing (the
# wasm32-wasip2 target, rustfmt, clippy, cargo-fuzz, mdBook, Chromium and
# chromedriver for the browser tests, PostgreSQL, componentize-py from
# PyPI by hash, the TypeScript toolchain and the MCP reference server from
# npm by lock file), checks formatting and
# lints, builds the agents from source, builds the book, runs the whole test
# suite (with the book's checks against the code and its links), runs the
# end-to-end suite again on PostgreSQL, then each fuzz target for a few
# seconds.
set -euo pipefail
cd "$(dirname "$0")/.."
# CI builds once from a fresh clone: incremental caches would only take
# disk there (gigabytes), which the fuzz build at the end needs.
if [[ ${CI:-} == true ]]; then
    export CARGO_INCREMENTAL=0
fi

rustup target list --installed | grep -qx wasm32-wasip2 || rustup target add wasm32-wasip2
cargo fmt --version >/dev/null 2>&1 || rustup component add rustfmt
cargo clippy --version >/dev/null 2>&1 || rustup component add clippy
# The book (docs/): the version is pinned, and only the HTML renderer with
# search is built (no `serve`/`watch`, which pull in a web server).
if [[ "$(mdbook --version 2>/dev/null)" != "mdbook v0.5.4" ]]; then
    cargo install mdbook --version 0.5.4 --locked --no-default-features --features search
fi
scripts/system-deps.sh
# A PostgreSQL server for the tests (WAKEFUL_TEST_POSTGRES, the one on
# 127.0.0.1:5432, or a throwaway cluster; see the script). The store's
# unit tests and the end-to-end suite run once on SQLite and once on it;
# tests that are about PostgreSQL itself use it in both passes.
WAKEFUL_TEST_POSTGRES=$(scripts/postgres.sh)
export WAKEFUL_TEST_POSTGRES
echo "== PostgreSQL for the tests: $WAKEFUL_TEST_POSTGRES"

echo "== vendor/: the published crates plus vendor/patches, nothing else"
scripts/vendor.sh --check

echo "== format"
cargo fmt --all --check
cargo fmt --manifest-path agents/Cargo.toml --all --check
cargo fmt --manifest-path guest-sdk/Cargo.toml --all --check
cargo fmt --manifest-path fuzz/Cargo.toml --all --check

echo "== agents (wasm32-wasip2, from source)"
scripts/build-agents.sh
cargo clippy --manifest-path agents/Cargo.toml --target wasm32-wasip2 --all-targets -- -D warnings

echo "== the book (docs/ into target/book; its links and its pages against the code: e2e docs::)"
# mdBook only warns about a missing {{#include}} file: a warning fails here.
book_log=$(mdbook build docs 2>&1) || { echo "$book_log"; exit 1; }
if grep -E '(WARN|ERROR)' <<<"$book_log"; then
    echo "mdbook build docs: fix the warnings above" >&2
    exit 1
fi

echo "== host lints"
cargo clippy --workspace --all-targets --features wakeful/failpoints -- -D warnings

echo "== SDK and agent unit tests (native, against the SDK's fake host)"
cargo test --manifest-path agents/Cargo.toml --workspace
echo "== Python SDK and agents: unit tests (native CPython, the SDK's fake host)"
scripts/test-python.sh
echo "== TypeScript SDK and agents: type check, build, unit tests (Node, the SDK's fake host)"
scripts/test-ts.sh

echo "== the MCP reference server (npm, from its lock file) that e2e mcp:: calls"
scripts/install-mcp-everything.sh

echo "== host tests (unit and end to end)"
# The tests about PostgreSQL itself (several hosts, lost notifications, a
# server restart, moving a store to it) run once, in the PostgreSQL pass.
cargo test --workspace --features wakeful/failpoints -- \
    --skip hosts:: --skip hosts_wakes:: --skip hosts_restart:: --skip migrate_store::

echo "== the store's tests and the end-to-end tests on PostgreSQL ($WAKEFUL_TEST_POSTGRES, a schema per test)"
WAKEFUL_TEST_STORE=postgres cargo test -p wakeful --features failpoints --lib store::sql::tests -- --include-ignored
# The power-cut tests model SQLite's files only, so they ran in the pass above.
WAKEFUL_TEST_STORE=postgres cargo test -p wakeful-e2e --test e2e -- --skip power_cut::

echo "== fuzzing (each target briefly; scripts/fuzz.sh runs them longer)"
df -h . | tail -n 1
# Ten seconds a target only checks that each still builds and runs clean
# on its corpus and some thousands of new inputs, so it is built at
# opt-level 1 without debug info: the instrumented build (wasmtime and
# all) then takes about four fifths of the time. scripts/fuzz.sh alone
# builds at opt-level 3, for long runs.
CARGO_PROFILE_RELEASE_OPT_LEVEL=1 CARGO_PROFILE_RELEASE_DEBUG=0 scripts/fuzz.sh 10
