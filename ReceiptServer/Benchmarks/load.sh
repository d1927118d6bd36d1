#!/usr/bin/env bash
# ReceiptServer under load, beside the library's raw verify rate, in one run, on loopback:
#
#     bash ReceiptServer/Benchmarks/load.sh [SECONDS] [STORES]
#
# SECONDS (default 10) is the length of each wrk run. STORES (default "sqlite postgres") names the
# stores to load, one after the other, each fresh: `sqlite` (a file in a temporary directory),
# `postgres` (a throwaway PostgreSQL cluster, initdb'd in a temporary directory with its default,
# durable settings: fsync and synchronous_commit on; skipped with a note when Debian's postgresql
# binaries are missing), or a postgres:// URL. It builds verify-jws, ReceiptServer and Benchmarks'
# ProfileLoop in release mode (under `flock $BUILD_LOCK` when BUILD_LOCK names a lock file), mints
# the data with a throwaway test PKI (verify-jws test-pki create / mint), starts the server on
# 127.0.0.1, preloads a 2,000-item customer and 200 one-item customers, then measures with wrk
# (installed with apt-get when missing):
#   1. POST distinct: purchases never sent before (each a new transaction), CONNECTIONS connections,
#      to 1,000 small customers, then as new renewals of the 2,000-item customer;
#   2. POST re-sent: one stored purchase again and again (idempotent: verified, found, answered);
#   3. GET, a 1-item customer alone, then the 2,000-item customer alone;
#   4. GET, both at once (half the connections each): the 1-item customer beside the large one;
# and the library's raw rate: two ProfileLoop warm processes at once (verifyTransaction on one JWS,
# chain cached), summed. It prints requests/s and p50/p99 latency of each, and beside them the
# server's CPU time per request: the utime + stime of the ReceiptServer process (/proc/PID/stat)
# over the wrk run, divided by the requests wrk completed (on PostgreSQL also the cluster's
# processes' CPU per request, apart), and the server's minor page faults and context switches (of all
# its threads) per request. For each POST-distinct run it prints the write-ahead log
# written per stored transaction (SQLite: the frames the server's writer connection appended to
# the -wal file, from `receipt_server_sqlite_wal_bytes_total` at /metrics, and the bytes the
# server process made the kernel write to disk, write_bytes of /proc/PID/io, checkpoints
# included; PostgreSQL: the advance of pg_current_wal_lsn()), and at the end the database's size
# per stored JWS beside the mean JWS length. Then the ratios the README states. Everything it
# starts is stopped on exit. RECEIPT_SERVER=PATH loads that server binary instead of the one built
# (an earlier build, to compare); VERIFY_JWS=PATH mints with that verify-jws; NO_BUILD=1 builds
# nothing (without a ProfileLoop built there is no raw rate). With PROFILE=FILE, the first POST-distinct run of each store (or the
# run PROFILE_RUN names, such as "get 1-item customer") is also recorded with `perf record -g` into FILE.sqlite / FILE.postgres (its CPU figure then includes
# perf's own cost: take figures from a run without PROFILE).
set -euo pipefail
cd "$(dirname "$0")/../.."
seconds="${1:-10}"
stores="${2:-sqlite postgres}"
connections="${CONNECTIONS:-16}"
threads=2
distinct="${DISTINCT:-80000}"
token="$(openssl rand -hex 32)"
ticks_per_second="$(getconf CLK_TCK)"

if ! command -v wrk >/dev/null 2>&1; then
    SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
    $SUDO apt-get install -y -qq wrk >/dev/null || { $SUDO apt-get update -qq && $SUDO apt-get install -y -qq wrk >/dev/null; }
fi

build() {
    if [ -n "${BUILD_LOCK:-}" ]; then flock "$BUILD_LOCK" swift build -c release "$@"; else swift build -c release "$@"; fi
}
if [ -z "${NO_BUILD:-}" ]; then
    echo "load: building (release)"
    build --package-path Tools --product verify-jws 2>&1 | tail -n 1
    build --package-path ReceiptServer --product ReceiptServer 2>&1 | tail -n 1
    build --package-path Benchmarks --product ProfileLoop 2>&1 | tail -n 1
fi
tool="${VERIFY_JWS:-$(swift build -c release --package-path Tools --show-bin-path)/verify-jws}"
server="${RECEIPT_SERVER:-$(swift build -c release --package-path ReceiptServer --show-bin-path)/ReceiptServer}"
loop="$(swift build -c release --package-path Benchmarks --show-bin-path)/ProfileLoop"

work="$(mktemp -d)"
server_pid=""
pg_dir=""
pg_as=()
pg_bin=""
cleanup() {
    if [ -n "$server_pid" ]; then kill "$server_pid" 2>/dev/null || true; wait "$server_pid" 2>/dev/null || true; fi
    if [ -n "$pg_dir" ]; then "${pg_as[@]}" "$pg_bin/pg_ctl" -D "$pg_dir/data" -m fast stop >/dev/null 2>&1 || true; rm -rf "$pg_dir"; fi
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
big="$(sed -n 1p "$work/tokens")"
small="$(sed -n 2001p "$work/tokens")"

# CPU time (clock ticks, user + system) of process $1, and of the PostgreSQL cluster's processes.
cpu_ticks() { sed -E 's/^.*\) //' "/proc/$1/stat" | awk '{ print $12 + $13 }'; }
# Minor page faults of process $1 (memory the kernel handed it again: a sign of memory given back and reused).
page_faults() { sed -E 's/^.*\) //' "/proc/$1/stat" | awk '{ print $8 }'; }
# Context switches (voluntary and not) of each thread of process $1, one "TID COUNT" line each: each
# a thread handing over a core. switches_since FILE PID sums the growth of the threads alive at both
# ends (a thread that exited in between takes its count with it).
context_switches() {
    local task
    for task in /proc/"$1"/task/*; do
        awk -v tid="${task##*/}" '/ctxt_switches:/ { n += $2; seen = 1 } END { if (seen) print tid, n }' "$task/status" 2>/dev/null || true
    done
}
switches_since() { context_switches "$2" | awk 'NR == FNR { before[$1] = $2; next } ($1 in before) { n += $2 - before[$1] } END { print n + 0 }' "$1" -; }
pg_ticks() {
    [ -n "$pg_dir" ] || { echo 0; return; }
    local postmaster total=0 pid
    postmaster="$(head -n 1 "$pg_dir/data/postmaster.pid")"
    for pid in "$postmaster" $(ps -o pid= --ppid "$postmaster"); do
        total=$((total + $(cpu_ticks "$pid" 2>/dev/null || echo 0)))
    done
    echo "$total"
}
# Bytes the server process made the kernel write to storage (page-granular; checkpoints included).
disk_bytes() { awk '$1 == "write_bytes:" { print $2 }' "/proc/$1/io"; }
# The SQLite writer's WAL bytes (receipt_server_sqlite_wal_bytes_total), or PostgreSQL's WAL position.
wal_position() {
    if [ "$kind" = sqlite ]; then
        curl -sf -H "Authorization: Bearer $token" "$base/metrics" | awk '$1 == "receipt_server_sqlite_wal_bytes_total" { printf "%d\n", $2; found = 1 } END { if (!found) print 0 }'
    else
        psql -X -qAt "$store" -c "SELECT pg_wal_lsn_diff(pg_current_wal_lsn(), '0/0')::bigint"
    fi
}
stored_rows() {
    if [ "$kind" = sqlite ]; then sqlite3 "file:$store?mode=ro" "SELECT COUNT(*) FROM signed_data"
    else psql -X -qAt "$store" -c "SELECT COUNT(*) FROM signed_data"; fi
}

# One wrk run: NAME, then wrk's arguments. Prints requests/s, p50, p99 and the server's CPU per
# request (and the PostgreSQL cluster's); with WRITES=1, also what each stored transaction wrote.
measure() {
    local name="$1"; shift
    local out before_cpu before_pg before_faults before_rows=0 before_wal=0 before_disk=0
    before_cpu="$(cpu_ticks "$server_pid")"; before_pg="$(pg_ticks)"; before_faults="$(page_faults "$server_pid")"; context_switches "$server_pid" > "$work/switches.before"
    if [ -n "${WRITES:-}" ]; then before_rows="$(stored_rows)"; before_wal="$(wal_position)"; before_disk="$(disk_bytes "$server_pid")"; fi
    local perf_pid=""
    if [ -n "${PROFILE:-}" ] && [ "$name" = "${PROFILE_RUN:-post distinct}" ]; then
        perf record -F 997 -g -p "$server_pid" -o "$PROFILE.$kind" -- sleep "$seconds" 2>/dev/null &
        perf_pid=$!
    fi
    out="$(wrk --latency -t "$threads" -d "${seconds}s" "$@")"
    [ -n "$perf_pid" ] && wait "$perf_pid"
    local after_cpu after_pg
    after_cpu="$(cpu_ticks "$server_pid")"; after_pg="$(pg_ticks)"
    local faults switches completed
    completed="$(awk '/requests in/ { print $1 }' <<<"$out")"
    faults="$(awk -v f="$(( $(page_faults "$server_pid") - before_faults ))" -v n="$completed" 'BEGIN { printf "%.1f", f / n }')"
    switches="$(awk -v f="$(switches_since "$work/switches.before" "$server_pid")" -v n="$completed" 'BEGIN { printf "%.1f", f / n }')"
    local rate p50 p99 errors requests cpu pgcpu=""
    rate="$(awk '/^Requests\/sec:/ { print $2 }' <<<"$out")"
    p50="$(awk '$1 == "50%" { print $2 }' <<<"$out")"
    p99="$(awk '$1 == "99%" { print $2 }' <<<"$out")"
    requests="$(awk '/requests in/ { print $1 }' <<<"$out")"
    errors="$(grep -E "Non-2xx|Socket errors" <<<"$out" || true)"
    cpu="$(awk -v t="$((after_cpu - before_cpu))" -v hz="$ticks_per_second" -v n="$requests" 'BEGIN { printf "%.0f", t / hz * 1e6 / n }')"
    [ -n "$pg_dir" ] && pgcpu="$(awk -v t="$((after_pg - before_pg))" -v hz="$ticks_per_second" -v n="$requests" 'BEGIN { printf " + PostgreSQL %.0f", t / hz * 1e6 / n }')"
    printf "%-34s %8s req/s  p50 %8s  p99 %8s  CPU %4s µs/req%s  faults %s  switches %s/req%s\n" "$name" "$rate" "$p50" "$p99" "$cpu" "$pgcpu" "$faults" "$switches" "${errors:+  ($errors)}"
    local key
    key="$(tr -c 'a-z0-9\n' '_' <<<"$name" | tr -d '\n')"
    eval "rate_${kind}_$key=$rate"
    eval "cpu_${kind}_$key=$cpu"
    if [ -n "${WRITES:-}" ]; then
        local rows wal disk
        rows=$(( $(stored_rows) - before_rows ))
        wal=$(( $(wal_position) - before_wal ))
        disk=$(( $(disk_bytes "$server_pid") - before_disk ))
        if [ "$kind" = sqlite ]; then
            printf "%-34s %d new JWS stored: WAL %.0f bytes each (frames appended); disk writes %.0f bytes each (write_bytes, checkpoints included)\n" \
                "" "$rows" "$(awk -v w="$wal" -v r="$rows" 'BEGIN { print w / r }')" "$(awk -v w="$disk" -v r="$rows" 'BEGIN { print w / r }')"
        else
            printf "%-34s %d new JWS stored: WAL %.0f bytes each (pg_current_wal_lsn advance, full-page images included)\n" \
                "" "$rows" "$(awk -v w="$wal" -v r="$rows" 'BEGIN { print w / r }')"
        fi
    fi
}

# A throwaway PostgreSQL cluster with its default (durable) settings; sets store to its URL.
start_postgres() {
    pg_bin="$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)"
    [ -n "$pg_bin" ] && [ -x "$pg_bin/initdb" ] || return 1
    pg_dir="$(mktemp -d)"
    pg_as=(env)
    if [ "$(id -u)" -eq 0 ]; then
        chown postgres: "$pg_dir" 2>/dev/null || chown nobody: "$pg_dir"
        pg_as=(setpriv --reuid="$(stat -c %U "$pg_dir")" --regid="$(stat -c %G "$pg_dir")" --init-groups --)
    fi
    local pg_port
    pg_port="$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
    "${pg_as[@]}" "$pg_bin/initdb" -D "$pg_dir/data" -U receipts --auth=trust -E UTF8 >/dev/null
    "${pg_as[@]}" "$pg_bin/pg_ctl" -D "$pg_dir/data" -w -l "$pg_dir/server.log" \
        -o "-h 127.0.0.1 -p $pg_port -k $pg_dir -c max_connections=100" start >/dev/null
    store="postgres://receipts@127.0.0.1:$pg_port/postgres?sslmode=disable"
}

# Loads one store (sqlite, postgres or a postgres:// URL): starts the server on it, preloads,
# measures, stops it and reports the database's size per stored JWS.
load_store() {
    local what="$1"
    case "$what" in
        sqlite) kind=sqlite; store="$work/receipts.sqlite"; rm -f "$store" "$store-wal" "$store-shm" ;;
        postgres)
            kind=postgres
            if ! start_postgres; then
                echo "load: PostgreSQL skipped: no server binaries in /usr/lib/postgresql/*/bin (apt-get install postgresql)"
                return 0
            fi ;;
        postgres://*) kind=postgres; store="$what" ;;
        *) echo "load: unknown store $what (sqlite, postgres or a postgres:// URL)"; exit 2 ;;
    esac
    local port
    port="$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
    RECEIPT_SERVER_ACCESS_TOKEN="$token" "$server" --host 127.0.0.1 --port "$port" --database "$store" \
        --bundle-id com.example.app --environment Sandbox --root "$work/pki/root.der" > "$work/server.log" 2>&1 &
    server_pid=$!
    for _ in $(seq 1 100); do
        curl -sf "http://127.0.0.1:$port/health" >/dev/null 2>&1 && break
        sleep 0.2
    done
    curl -sf "http://127.0.0.1:$port/health" >/dev/null || { echo "load: the server did not start:"; cat "$work/server.log"; exit 1; }
    base="http://127.0.0.1:$port"
    local empty_size
    empty_size="$(database_size)"

    echo "load: preloading the 2,000-item customer and 200 one-item customers"
    python3 ReceiptServer/Benchmarks/load_data.py preload "$base" "$work/preload.jsonl" 2200 "$token"

    echo "load: $seconds s per run, $connections connections, $threads wrk threads, store: $kind$( [ "$what" = "$kind" ] || echo " ($what)")"
    threads=2
    BODIES="$work/distinct.jsonl" THREADS="$threads" WRITES=1 measure "post distinct" -c "$connections" -s ReceiptServer/Benchmarks/post_bodies.lua "$base/transactions"
    BODIES="$work/resend.jsonl" THREADS=1 REPEAT=1 measure "post re-sent" -c "$connections" -s ReceiptServer/Benchmarks/post_bodies.lua "$base/transactions"
    measure "get 1-item customer" -c "$connections" -H "Authorization: Bearer $token" "$base/customers/$small/entitlements"
    measure "get 2,000-item customer" -c "$connections" -H "Authorization: Bearer $token" "$base/customers/$big/entitlements"
    local half=$((connections / 2)) beside
    wrk --latency -t 1 -d "${seconds}s" -c "$half" -H "Authorization: Bearer $token" "$base/customers/$big/entitlements" > "$work/beside-big.txt" &
    beside=$!
    threads=1 measure "get 1-item beside 2,000-item" -c "$half" -H "Authorization: Bearer $token" "$base/customers/$small/entitlements"
    wait "$beside"
    printf "%-34s %8s req/s  p50 %8s  p99 %8s  (CPU: counted in the line above)\n" "  (the 2,000-item customer, meanwhile)" "$(awk '/^Requests\/sec:/ { print $2 }' "$work/beside-big.txt")" \
        "$(awk '$1 == "50%" { print $2 }' "$work/beside-big.txt")" "$(awk '$1 == "99%" { print $2 }' "$work/beside-big.txt")"

    # Last, since it grows the large customer: new renewals of the 2,000-item customer.
    BODIES="$work/big-renewals.jsonl" THREADS="$threads" WRITES=1 measure "post distinct, 2,000-item customer" -c "$connections" -s ReceiptServer/Benchmarks/post_bodies.lua "$base/transactions"
    local rows mean
    rows="$(stored_rows)"
    if [ "$kind" = sqlite ]; then
        # Schema 7 keeps each JWS header once (jws_headers): the whole JWS is the header, a dot and the rest.
        mean="$(sqlite3 "file:$store?mode=ro" "SELECT AVG(LENGTH(d.jws) + COALESCE((SELECT LENGTH(h.header) + 1 FROM jws_headers h WHERE h.id = d.jws_header), 0)) FROM signed_data d")"
    else
        mean="$(psql -X -qAt "$store" -c "SELECT AVG(OCTET_LENGTH(jws)) FROM signed_data")"
    fi
    # SQLite: the server checkpoints the WAL into the file and truncates it as it stops.
    kill "$server_pid"; wait "$server_pid" 2>/dev/null || true; server_pid=""
    local size
    size="$(database_size)"
    awk -v size="$size" -v empty="$empty_size" -v rows="$rows" -v mean="$mean" -v kind="$kind" 'BEGIN {
        per = (size - empty) / rows
        printf "database (%s): %d JWS stored, %.0f bytes each (%.0f bytes, less %.0f empty), mean JWS %.0f bytes: %.2fx the JWS (target < 2)\n",
            kind, rows, per, size, empty, mean, per / mean
    }'
    if [ -n "$pg_dir" ]; then "${pg_as[@]}" "$pg_bin/pg_ctl" -D "$pg_dir/data" -m fast stop >/dev/null; rm -rf "$pg_dir"; pg_dir=""; fi
}
# The database's size in bytes: the SQLite file with its WAL, or the PostgreSQL database.
database_size() {
    if [ "$kind" = sqlite ]; then
        cat "$store" "$store-wal" 2>/dev/null | wc -c
    else
        psql -X -qAt "$store" -c "SELECT pg_database_size(current_database())"
    fi
}

for what in $stores; do load_store "$what"; done

# The library's raw rate on two threads: two single-threaded loops at once, for about as long.
[ -x "$loop" ] || { echo "load: no ProfileLoop built, so no raw rate"; exit 0; }
iterations=$((seconds * 12000))
"$loop" warm "$iterations" > "$work/loop1.txt" &
first=$!
"$loop" warm "$iterations" > "$work/loop2.txt"
wait "$first"
raw="$(cat "$work/loop1.txt" "$work/loop2.txt" | sed -E 's/.* ([0-9.]+) µs each.*/\1/' | awk '{ total += 1e6 / $1 } END { printf "%.0f", total }')"
printf "%-34s %8s verifications/s (two ProfileLoop warm processes)\n" "library, raw, two threads" "$raw"

# The ratios and the CPU per POST, of each store loaded.
for kind in sqlite postgres; do
    post="rate_${kind}_post_distinct"
    [ -n "${!post:-}" ] || continue
    small="rate_${kind}_get_1_item_customer"; big="rate_${kind}_get_2_000_item_customer"
    postbig="rate_${kind}_post_distinct__2_000_item_customer"; cpu="cpu_${kind}_post_distinct"
    awk -v kind="$kind" -v post="${!post}" -v raw="$raw" -v small="${!small}" -v big="${!big}" -v postbig="${!postbig}" -v cpu="${!cpu}" 'BEGIN {
        printf "%s: POST distinct / raw two-thread verify rate: %.2f (target >= 0.25)\n", kind, post / raw
        printf "%s: POST to the 2,000-item customer / POST distinct, requests/s: %.2f\n", kind, postbig / post
        printf "%s: GET 2,000-item / GET 1-item, requests/s: %.2f (target >= 0.5: within 2x)\n", kind, big / small
        printf "%s: server CPU per POST distinct: %s µs (target <= 200)\n", kind, cpu
    }'
done
