#!/usr/bin/env bash
# Instructions per step, counted by valgrind (callgrind) in the worker
# threads of `wakeful-bench` (the benchmark of record): a figure that does
# not move with the machine's load, for comparing two builds of the hot
# path where timings are too noisy to. Kernel time (fsync, page writes) is
# not in it.
#   scripts/bench-instructions.sh                       # this tree's release build
#   scripts/bench-instructions.sh path/to/wakeful-bench # another build (kept below target/)
# Prints, for (a) 200 incidents one at a time and (b) 300 in flight with
# one worker, the steps, instructions and instructions per step. Each
# count also holds the record's other stepping: (a) the 100 incidents
# among sleeping runs and one step of (b); (b) one incident of (a) and of
# the sleeping runs; and both the sleeping workload's one invoice step.
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v valgrind >/dev/null; then
    echo "bench-instructions.sh: valgrind is not installed (Debian: apt-get install valgrind)" >&2
    exit 1
fi
if [ $# -ge 1 ]; then
    bin=$1
else
    rustup target list --installed | grep -qx wasm32-wasip2 || rustup target add wasm32-wasip2
    scripts/build-agents.sh >/dev/null
    cargo build --release -p wakeful --bin wakeful -p wakeful-bench --quiet
    bin=target/release/wakeful-bench
fi
out=$(mktemp -d "${TMPDIR:-/tmp}/wakeful-instructions.XXXXXX")
trap 'rm -rf "$out"' EXIT
count() {
    local name=$1 runs=$2 in_flight=$3
    # Only the worker threads' stepping (claims, guests, tool calls,
    # commits) is counted: setup, starts and approvals are outside it.
    valgrind --tool=callgrind --callgrind-out-file="$out/$name.%p" \
        --toggle-collect='*steppers::work_until_idle*' \
        "$bin" --compile-in-process --json --workers 1 --repeat 1 \
        --runs "$runs" --in-flight "$in_flight" --sleeping 100 \
        --guest-samples 2 --latency-samples 2 2>"$out/$name.err" >"$out/$name.json" ||
        { cat "$out/$name.err" >&2; exit 1; }
    local steps instructions
    steps=$(python3 -c "
import json, sys
r = json.load(open(sys.argv[1]))
print(r['sequential']['steps'] + r['in_flight']['steps'] + r['sleeping']['steps'])
" "$out/$name.json")
    # One `totals:` line per output file (its `summary:` line repeats it).
    instructions=$(cat "$out/$name".* | awk '/^totals:/ { s += $2 } END { print s }')
    printf '(%s) %6d steps %14d instructions %10d per step\n' \
        "$name" "$steps" "$instructions" $((instructions / steps))
}
count a 200 1
count b 1 300
