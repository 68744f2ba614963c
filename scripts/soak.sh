#!/usr/bin/env bash
# The crash soak at size: workers SIGKILLed at random moments while many
# multi-step runs call a loopback sink; prints the figures docs/src/guarantees.md quotes.
# Usage: scripts/soak.sh [RUNS] [KILLS]   (default 1000 runs, 300 kills)
set -euo pipefail
cd "$(dirname "$0")/.."
export WAKEFUL_SOAK_RUNS=${1:-1000} WAKEFUL_SOAK_KILLS=${2:-300}
cargo test -p wakeful-e2e --test e2e -- crash::soak_workers_killed_at_random_apply_every_effect_exactly_once --exact --nocapture 2>&1 | grep -E '^soak:|test result|panicked'
