#!/usr/bin/env bash
# ReceiptServer under load, beside the library's raw verify rate, in one run, on loopback:
#
#     bash ReceiptServer/Benchmarks/load.sh [SECONDS] [DATABASE]
#
# SECONDS (default 10) is the length of each wrk run; DATABASE is a postgres:// URL to load that
# store instead of a SQLite file in a temporary directory. It builds verify-jws, ReceiptServer and
# Benchmarks' ProfileLoop in release mode, mints the data with a throwaway test PKI (verify-jws
# test-pki create / mint), starts the server on 127.0.0.1, preloads a 2,000-item customer and 200
# one-item customers, then measures with wrk (installed with apt-get when missing):
#   1. POST distinct: purchases never sent before (each a new transaction), CONNECTIONS connections,
#      to 1,000 small customers, then as new renewals of the 2,000-item customer;
#   2. POST re-sent: one stored purchase again and again (idempotent: verified, found, answered);
#   3. GET, a 1-item customer alone, then the 2,000-item customer alone;
#   4. GET, both at once (half the connections each): the 1-item customer beside the large one;
# and the library's raw rate: two ProfileLoop warm processes at once (verifyTransaction on one JWS,
# chain cached), summed. It prints requests/s and p50/p99 latency of each, and the ratios the
# README states. Everything it starts is stopped on exit.
set -euo pipefail
cd "$(dirname "$0")/../.."
seconds="${1:-10}"
database="${2:-}"
connections="${CONNECTIONS:-16}"
threads=2
distinct="${DISTINCT:-40000}"
token="$(openssl rand -hex 32)"

if ! command -v wrk >/dev/null 2>&1; then
    SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
    $SUDO apt-get install -y -qq wrk >/dev/null || { $SUDO apt-get update -qq && $SUDO apt-get install -y -qq wrk >/dev/null; }
fi

echo "load: building (release)"
swift build -c release --package-path Tools --product verify-jws 2>&1 | tail -n 1
swift build -c release --package-path ReceiptServer --product ReceiptServer 2>&1 | tail -n 1
swift build -c release --package-path Benchmarks --product ProfileLoop 2>&1 | tail -n 1
tool="$(swift build -c release --package-path Tools --show-bin-path)/verify-jws"
server="$(swift build -c release --package-path ReceiptServer --show-bin-path)/ReceiptServer"
loop="$(swift build -c release --package-path Benchmarks --show-bin-path)/ProfileLoop"

work="$(mktemp -d)"
server_pid=""
cleanup() {
    if [ -n "$server_pid" ]; then kill "$server_pid" 2>/dev/null || true; wait "$server_pid" 2>/dev/null || true; fi
    rm -rf "$work"
}
trap cleanup EXIT

echo "load: minting 2,000 + 200 + 2 x $distinct transactions"
"$tool" test-pki create "$work/pki" >/dev/null
python3 ReceiptServer/Benchmarks/load_data.py payloads 2000 200 "$distinct" 1000 "$work/tokens" > "$work/payloads.jsonl"
"$tool" mint transaction --pki "$work/pki" "$work/payloads.jsonl" > "$work/minted.jws"
python3 ReceiptServer/Benchmarks/load_data.py bodies "$work/tokens" "$work/minted.jws" "$work/bodies.jsonl"
head -n 2200 "$work/bodies.jsonl" > "$work/preload.jsonl"
sed -n "2201,$((2200 + distinct))p" "$work/bodies.jsonl" > "$work/distinct.jsonl"
tail -n +"$((2201 + distinct))" "$work/bodies.jsonl" > "$work/big-renewals.jsonl"
head -n 1 "$work/preload.jsonl" > "$work/resend.jsonl"

port="$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
store="${database:-$work/receipts.sqlite}"
RECEIPT_SERVER_ACCESS_TOKEN="$token" "$server" --host 127.0.0.1 --port "$port" --database "$store" \
    --bundle-id com.example.app --environment Sandbox --root "$work/pki/root.der" > "$work/server.log" 2>&1 &
server_pid=$!
for _ in $(seq 1 100); do
    curl -sf "http://127.0.0.1:$port/health" >/dev/null 2>&1 && break
    sleep 0.2
done
curl -sf "http://127.0.0.1:$port/health" >/dev/null || { echo "load: the server did not start:"; cat "$work/server.log"; exit 1; }
base="http://127.0.0.1:$port"

echo "load: preloading the 2,000-item customer and 200 one-item customers"
python3 ReceiptServer/Benchmarks/load_data.py preload "$base" "$work/preload.jsonl" 2200 "$token"
big="$(sed -n 1p "$work/tokens")"
small="$(sed -n 2001p "$work/tokens")"

# One wrk run: NAME, then wrk's arguments. Prints requests/s, p50 and p99.
measure() {
    local name="$1"; shift
    local out
    out="$(wrk --latency -t "$threads" -d "${seconds}s" "$@")"
    local rate p50 p99 errors
    rate="$(awk '/^Requests\/sec:/ { print $2 }' <<<"$out")"
    p50="$(awk '$1 == "50%" { print $2 }' <<<"$out")"
    p99="$(awk '$1 == "99%" { print $2 }' <<<"$out")"
    errors="$(grep -E "Non-2xx|Socket errors" <<<"$out" || true)"
    printf "%-34s %10s req/s   p50 %9s   p99 %9s %s\n" "$name" "$rate" "$p50" "$p99" "${errors:+  ($errors)}"
    eval "rate_$(tr -c 'a-z0-9\n' '_' <<<"$name" | tr -d '\n')=$rate"
}

echo "load: $seconds s per run, $connections connections, $threads wrk threads, store: ${database:-SQLite file}"
BODIES="$work/distinct.jsonl" THREADS="$threads" measure "post distinct" -c "$connections" -s ReceiptServer/Benchmarks/post_bodies.lua "$base/transactions"
BODIES="$work/resend.jsonl" THREADS=1 REPEAT=1 measure "post re-sent" -c "$connections" -s ReceiptServer/Benchmarks/post_bodies.lua "$base/transactions"
measure "get 1-item customer" -c "$connections" -H "Authorization: Bearer $token" "$base/customers/$small/entitlements"
measure "get 2,000-item customer" -c "$connections" -H "Authorization: Bearer $token" "$base/customers/$big/entitlements"
half=$((connections / 2))
wrk --latency -t 1 -d "${seconds}s" -c "$half" -H "Authorization: Bearer $token" "$base/customers/$big/entitlements" > "$work/beside-big.txt" &
beside=$!
threads=1 measure "get 1-item beside 2,000-item" -c "$half" -H "Authorization: Bearer $token" "$base/customers/$small/entitlements"
wait "$beside"
printf "%-34s %10s req/s   p50 %9s   p99 %9s\n" "  (the 2,000-item customer, meanwhile)" "$(awk '/^Requests\/sec:/ { print $2 }' "$work/beside-big.txt")" \
    "$(awk '$1 == "50%" { print $2 }' "$work/beside-big.txt")" "$(awk '$1 == "99%" { print $2 }' "$work/beside-big.txt")"

# Last, since it grows the large customer: new renewals of the 2,000-item customer.
BODIES="$work/big-renewals.jsonl" THREADS="$threads" measure "post distinct, 2,000-item customer" -c "$connections" -s ReceiptServer/Benchmarks/post_bodies.lua "$base/transactions"
kill "$server_pid"; wait "$server_pid" 2>/dev/null || true; server_pid=""

# The library's raw rate on two threads: two single-threaded loops at once, for about as long.
iterations=$((seconds * 12000))
"$loop" warm "$iterations" > "$work/loop1.txt" &
first=$!
"$loop" warm "$iterations" > "$work/loop2.txt"
wait "$first"
raw="$(cat "$work/loop1.txt" "$work/loop2.txt" | sed -E 's/.* ([0-9.]+) µs each.*/\1/' | awk '{ total += 1e6 / $1 } END { printf "%.0f", total }')"
printf "%-34s %10s verifications/s (two ProfileLoop warm processes)\n" "library, raw, two threads" "$raw"

awk -v post="$rate_post_distinct" -v raw="$raw" -v small="$rate_get_1_item_customer" -v big="$rate_get_2_000_item_customer" \
    -v postbig="$rate_post_distinct__2_000_item_customer" 'BEGIN {
    printf "POST distinct / raw two-thread verify rate: %.2f (target >= 0.25)\n", post / raw
    printf "POST to the 2,000-item customer / POST distinct, requests/s: %.2f\n", postbig / post
    printf "GET 2,000-item / GET 1-item, requests/s:    %.2f (target >= 0.5: within 2x)\n", big / small
}'
