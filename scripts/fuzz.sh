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
# The build's log is kept whole: on failure its end and the disk's free
# space say why (a build script that cannot write panics, for one).
build_log=$(mktemp "${TMPDIR:-/tmp}/wakeful-fuzz-build.XXXXXX.log")
trap 'rm -f "$build_log"' EXIT
if ! cargo fuzz build --fuzz-dir fuzz -s none >"$build_log" 2>&1; then
    grep -n -E '^(error|warning: build failed)|panicked at|No space left' "$build_log" | head -n 20 >&2 || true
    tail -n 60 "$build_log" >&2
    df -h . "${TMPDIR:-/tmp}" >&2
    echo "scripts/fuzz.sh: cargo fuzz build failed (above)" >&2
    exit 1
fi
tail -n 1 "$build_log"
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
