#!/usr/bin/env bash
# Response times of the API's lists and of /metrics on a large store: seeds
# N runs and N audit rows (default 100000) into a throwaway data directory,
# starts `wakeful serve` on it, and reports p50/p99 of each request over
# REQUESTS calls (default 200). Needs `sqlite3` and `curl`.
#
#   scripts/bench-api.sh [N] [REQUESTS]
set -euo pipefail
cd "$(dirname "$0")/.."
n=${1:-100000}
requests=${2:-200}
for tool in sqlite3 curl; do
    command -v "$tool" >/dev/null || { echo "bench-api.sh needs $tool" >&2; exit 1; }
done

scripts/build-agents.sh >/dev/null
cargo build -p wakeful --quiet
wakeful=$PWD/target/debug/wakeful
data=$(mktemp -d "${TMPDIR:-/tmp}/wakeful-bench-api.XXXXXX")
trap 'kill $server 2>/dev/null || true; rm -rf "$data"' EXIT
export WAKEFUL_DATA=$data WAKEFUL_CONFIG=/dev/null WAKEFUL_API_TOKEN=bench-token

# One real run to copy: its agent, digest and columns are what `start` writes.
$wakeful deploy agents/target/wasm32-wasip2/release/invoice_mail.wasm --grant kv >/dev/null
$wakeful start invoice-mail --id seed >/dev/null
echo "seeding $n runs and $n audit rows..."
sqlite3 "$data/wakeful.db" <<SQL
PRAGMA synchronous = OFF;
BEGIN;
WITH RECURSIVE k(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM k WHERE i < $n)
INSERT INTO runs (run_id, agent, version, digest, status, status_text, state, outcome, wake_when,
    waits, steps, fuel_used, step_budget, fuel_budget, tokens_used, token_budget, usd_used,
    usd_budget, attempts, input, created_at, updated_at, epoch, incarnation, broadcast_floor)
SELECT printf('bench-%07d', i), agent, version, digest,
    CASE i % 4 WHEN 0 THEN 'waiting' WHEN 1 THEN 'done' WHEN 2 THEN 'parked' ELSE 'cancelled' END,
    'seeded', '{"filed":null}', NULL, NULL, '[]', 1, 1000, step_budget, fuel_budget, 0,
    token_budget, 0, usd_budget, 0, 'null', created_at + i, created_at + i, 1,
    lower(hex(randomblob(16))), 0
FROM runs, k WHERE run_id = 'seed';
WITH RECURSIVE k(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM k WHERE i < $n)
INSERT INTO audit (at, run_id, kind, data)
SELECT 1700000000000 + i, printf('bench-%07d', i), 'step', '{"seq":1,"next":"wait"}' FROM k;
COMMIT;
SQL

port=$((20000 + RANDOM % 20000))
$wakeful serve --listen "127.0.0.1:$port" --workers 1 >/dev/null 2>"$data/serve.log" &
server=$!
for _ in $(seq 100); do
    curl -sf "http://127.0.0.1:$port/v1/health" >/dev/null && break
    sleep 0.1
done

deep_run=$(printf 'bench-%07d' $((n / 2)))
deep_audit=$((n / 2))
measure() {
    local name=$1 path=$2
    for _ in $(seq "$requests"); do
        curl -s -o /dev/null -w '%{time_total}\n' -H "Authorization: Bearer bench-token" \
            "http://127.0.0.1:$port$path"
    done | sort -n | awk -v name="$name" '
        { t[NR] = $1 * 1000 }
        END { printf "%-34s p50 %7.2f ms   p99 %7.2f ms\n", name, t[int(NR * 0.5)], t[int(NR * 0.99)] }'
}
echo "$n runs, $n audit rows, $requests requests each (dev build):"
measure "GET /v1/runs?limit=100" "/v1/runs?limit=100"
measure "GET /v1/runs?limit=100&after=<mid>" "/v1/runs?limit=100&after=$deep_run"
measure "GET /v1/runs?status=parked&limit=100" "/v1/runs?status=parked&limit=100"
measure "GET /v1/audit?limit=100&after=<mid>" "/v1/audit?limit=100&after=$deep_audit"
measure "GET /metrics" "/metrics"
