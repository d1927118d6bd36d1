#!/usr/bin/env bash
# Builds the libFuzzer target with AddressSanitizer and fuzzes the whole verification path.
#
#   Fuzz/run.sh [SECONDS]   (default 60)
#
# The corpus in Fuzz/Corpus grows as the fuzzer finds new paths (seeded from TestVectors/jws);
# crashes are written to Fuzz/Artifacts and make the script fail.
set -euo pipefail
cd "$(dirname "$0")"
seconds="${1:-60}"

swift build --package-path . -c debug --scratch-path .build-fuzz \
    -Xswiftc -sanitize=fuzzer,address -Xcc -fsanitize=fuzzer-no-link,address -Xswiftc -use-ld=lld 2>&1 | tail -n 3
binary="$(swift build --package-path . -c debug --scratch-path .build-fuzz --show-bin-path)/FuzzVerify"

mkdir -p Corpus Artifacts
if [ -z "$(ls -A Corpus)" ]; then
    for f in ../TestVectors/jws/*.jws; do cp "$f" "Corpus/seed-$(basename "$f" .jws)"; done
fi

"$binary" Corpus -max_total_time="$seconds" -max_len=20000 -timeout=10 -rss_limit_mb=4096 \
    -artifact_prefix=Artifacts/ -print_final_stats=1 2>&1 | tee Artifacts/last-run.log | grep -E "^#|stat::|ERROR|SUMMARY" | tail -n 25
