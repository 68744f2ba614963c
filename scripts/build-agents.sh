#!/usr/bin/env bash
# Builds every agent under agents/ (and the SDK) as a WebAssembly component
# for wasm32-wasip2, then prints the path of each .wasm file.
# Usage: scripts/build-agents.sh   (from any directory)
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."

target=wasm32-wasip2
rustup target list --installed | grep -q "^${target}\$" || rustup target add "$target"

# Not `cargo --quiet`: a first build takes a while, so show its progress.
cargo build --release --target "$target" --manifest-path agents/Cargo.toml

# rustc links a component directly for this target; the crate name, with
# hyphens as underscores, names the file.
out="$PWD/agents/target/$target/release"
for manifest in $(find agents -name node_modules -prune -o -name Cargo.toml -not -path 'agents/target/*' -not -path agents/Cargo.toml -print | sort); do
    crate=$(sed -n 's/^name *= *"\(.*\)"/\1/p' "$manifest" | head -n 1)
    wasm="$out/${crate//-/_}.wasm"
    if [[ ! -f $wasm ]]; then
        echo "missing $wasm (from $manifest)" >&2
        exit 1
    fi
    echo "$wasm"
done
