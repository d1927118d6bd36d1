#!/usr/bin/env bash
# Builds the libFuzzer target with AddressSanitizer and fuzzes the whole verification path.
#
#   Fuzz/run.sh [SECONDS]   (default 60)
#
# The corpus in Fuzz/Corpus grows as the fuzzer finds new paths (seeded from TestVectors/jws when
# empty); a crash, an AddressSanitizer report or a timeout is written to Fuzz/Artifacts and makes
# the script fail. LeakSanitizer is off: Swift keeps object pointers in enums with tag bits set, so
# pointer scanning reports reachable cache entries as leaks (see Scripts/memory-check.sh for the leak
# checks that are exact).
set -uo pipefail
cd "$(dirname "$0")"
seconds="${1:-60}"

flags=(-c debug --scratch-path .build-fuzz -Xswiftc -sanitize=fuzzer,address
       -Xcc -fsanitize=fuzzer-no-link,address -Xswiftc -use-ld=lld)
swift build --package-path . "${flags[@]}" 2>&1 | tail -n 3
binary="$(swift build --package-path . "${flags[@]}" --show-bin-path)/FuzzVerify"
[ -x "$binary" ] || { echo "fuzz: build failed"; exit 1; }

mkdir -p Corpus Artifacts
if [ -z "$(ls -A Corpus)" ]; then
    for f in ../TestVectors/jws/*.jws; do cp "$f" "Corpus/seed-$(basename "$f" .jws)"; done
fi

ASAN_OPTIONS=detect_leaks=0 "$binary" Corpus -max_total_time="$seconds" -max_len=20000 -timeout=10 \
    -rss_limit_mb=4096 -artifact_prefix=Artifacts/ -print_final_stats=1 > Artifacts/last-run.log 2>&1
status=$?
grep -E "^#[0-9]+ +DONE|stat::number_of_executed_units|stat::average_exec_per_sec|stat::new_units_added|ERROR|SUMMARY" Artifacts/last-run.log | tail -n 8
if [ $status -ne 0 ]; then
    echo "fuzz: the fuzzer failed (exit $status); see Fuzz/Artifacts/last-run.log"
    exit $status
fi
echo "fuzz: ${seconds} s, no crash"
