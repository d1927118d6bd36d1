#!/usr/bin/env bash
# Builds the libFuzzer receipt target with AddressSanitizer and fuzzes app receipt verification:
# the PKCS#7 shim, the chain and signature checks, and the strict DER payload decoder.
#
#   Fuzz/run-receipts.sh [SECONDS]   (default 60)
#
# The corpus in Fuzz/CorpusReceipts grows as the fuzzer finds new paths (seeded from
# TestVectors/receipts when empty); a crash, an AddressSanitizer report or a timeout is written to
# Fuzz/ArtifactsReceipts and makes the script fail. LeakSanitizer is off, as in Fuzz/run.sh.
set -uo pipefail
cd "$(dirname "$0")"
seconds="${1:-60}"

flags=(-c debug --scratch-path .build-fuzz -Xswiftc -sanitize=fuzzer,address
       -Xcc -fsanitize=fuzzer-no-link,address -Xswiftc -use-ld=lld)
swift build --package-path . --product FuzzReceipt "${flags[@]}" 2>&1 | tail -n 3
binary="$(swift build --package-path . "${flags[@]}" --show-bin-path)/FuzzReceipt"
[ -x "$binary" ] || { echo "fuzz: build failed"; exit 1; }

mkdir -p CorpusReceipts ArtifactsReceipts
if [ -z "$(ls -A CorpusReceipts)" ]; then
    for f in ../TestVectors/receipts/*.der ../TestVectors/receipts/*.b64; do
        [ "$(stat -c %s "$f")" -le 20000 ] && cp "$f" "CorpusReceipts/seed-$(basename "$f")"
    done
fi

ASAN_OPTIONS=detect_leaks=0 "$binary" CorpusReceipts -max_total_time="$seconds" -max_len=20000 -timeout=10 \
    -rss_limit_mb=4096 -artifact_prefix=ArtifactsReceipts/ -print_final_stats=1 > ArtifactsReceipts/last-run.log 2>&1
status=$?
grep -E "^#[0-9]+ +DONE|stat::number_of_executed_units|stat::average_exec_per_sec|stat::new_units_added|ERROR|SUMMARY" ArtifactsReceipts/last-run.log | tail -n 8
if [ $status -ne 0 ]; then
    echo "fuzz: the fuzzer failed (exit $status); see Fuzz/ArtifactsReceipts/last-run.log"
    exit $status
fi
echo "fuzz: ${seconds} s, no crash"
