#!/usr/bin/env bash
# ES256 signing beside OpenSSL's own figure, in the same run:
#
#     bash Benchmarks/Scripts/sign-compare.sh [SECONDS] [ROUNDS]
#
# Each round runs `openssl speed -seconds SECONDS ecdsap256` (sign/s), then ProfileLoop's
# sign-floor (SHA-256 + ECDSA through the shim) and sign (a promotional offer V2 JWS), each for
# about SECONDS (default 5). After ROUNDS rounds (default 3) it prints each one's best rate (of a shared
# machine, the least disturbed) and its ratio to OpenSSL's best, both per second of CPU user time
# (see below).
set -euo pipefail
cd "$(dirname "$0")/../.."
seconds="${1:-5}"
rounds="${2:-3}"
swift build --package-path Benchmarks -c release --product ProfileLoop 2>&1 | tail -n 1
loop="$(swift build --package-path Benchmarks -c release --show-bin-path)/ProfileLoop"
scenarios=(sign-floor sign)
declare -A best
openssl_best=0
# `openssl speed` divides by CPU user time (not wall-clock time) unless given -elapsed; so does
# this: each scenario runs COUNT/5 and COUNT operations, and the difference of the two runs' user
# time over the difference of their counts is one operation's cost, without the start-up (loading
# the corpus and generating the key) and unaffected by other processes sharing the machine.
TIMEFORMAT=%U
for round in $(seq "$rounds"); do
    rate="$(openssl speed -seconds "$seconds" ecdsap256 2>/dev/null | awk '/256 bits ecdsa \(nistp256\)/ { print $(NF-1) }')"
    openssl_best="$(awk -v a="$openssl_best" -v b="$rate" 'BEGIN { print (b > a ? b : a) }')"
    line="round $round: openssl $rate/s"
    for scenario in "${scenarios[@]}"; do
        # About SECONDS at the OpenSSL rate.
        count="$(awk -v r="$rate" -v s="$seconds" 'BEGIN { printf "%d", r * s }')"
        short=$((count / 5))
        short_user="$( { time "$loop" "$scenario" "$short" >/dev/null; } 2>&1 )"
        long_user="$( { time "$loop" "$scenario" "$count" >/dev/null; } 2>&1 )"
        micros="$(awk -v a="$short_user" -v b="$long_user" -v n="$((count - short))" 'BEGIN { printf "%.2f", (b - a) / n * 1e6 }')"
        best[$scenario]="$(awk -v a="${best[$scenario]:-1e9}" -v b="$micros" 'BEGIN { print (b < a ? b : a) }')"
        line="$line, $scenario $micros µs"
    done
    echo "$line"
done
echo "openssl speed ecdsap256: $openssl_best sign/s, best of $rounds ($(openssl version))"
for scenario in "${scenarios[@]}"; do
    awk -v name="$scenario" -v us="${best[$scenario]}" -v r="$openssl_best" \
        'BEGIN { rate = 1e6 / us; printf "%-18s %8.1f µs  %9.0f /s  %.2fx openssl sign/s (%.2f signatures of time)\n", name, us, rate, rate / r, us / (1e6 / r) }'
done
