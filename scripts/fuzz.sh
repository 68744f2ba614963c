#!/usr/bin/env bash
# Coverage-guided fuzzing of what wakeful takes from outside (fuzz/):
# components, guest step results, cron expressions, http tool paths and API
# bodies. Installs cargo-fuzz when missing; libFuzzer needs the nightly-only
# sanitizer-coverage flags, which RUSTC_BOOTSTRAP unlocks on this stable
# toolchain. A crash leaves its input in fuzz/artifacts/<target>/: turn it
# into a regression test before fixing it.
# Usage: scripts/fuzz.sh [SECONDS_PER_TARGET] [TARGET...]   (default 60, all)
set -euo pipefail
cd "$(dirname "$0")/.."

seconds=${1:-60}
shift || true
command -v cargo-fuzz >/dev/null 2>&1 || cargo install cargo-fuzz --locked
export RUSTC_BOOTSTRAP=1
targets=("$@")
if [[ ${#targets[@]} -eq 0 ]]; then
    mapfile -t targets < <(cargo fuzz list --fuzz-dir fuzz)
fi
# No sanitizer: Rust code is memory-safe, and the targets check the host's
# own invariants with assertions; an instrumented wasmtime would take far
# longer to build.
cargo fuzz build --fuzz-dir fuzz -s none 2>&1 | tail -n 3
for target in "${targets[@]}"; do
    echo "== fuzz $target for ${seconds}s"
    mkdir -p "fuzz/corpus/$target"
    cargo fuzz run --fuzz-dir fuzz -s none "$target" "fuzz/corpus/$target" -- \
        -max_total_time="$seconds" -print_final_stats=1 2>&1 | grep -E 'stat::number_of_executed_units|stat::peak_rss|SUMMARY|panicked|Done' || true
    # A crash makes `cargo fuzz run` fail; check for its artifacts explicitly.
    if compgen -G "fuzz/artifacts/$target/crash-*" >/dev/null; then
        echo "fuzz target $target found a crash: see fuzz/artifacts/$target/" >&2
        exit 1
    fi
done
