#!/usr/bin/env bash
# Builds a libFuzzer target with AddressSanitizer and fuzzes it.
#
#   Fuzz/run.sh [SECONDS] [verify|receipts|ocsp-http|signed|all]   (default: 60 seconds, verify)
#
#   all       builds the four targets once, then fuzzes them two at a time (libFuzzer runs on one
#             core; this machine kind has two), each for SECONDS; fails if any of them fails.
#
#   verify    FuzzVerify: the whole JWS verification path, every entry point; corpus Fuzz/Corpus,
#             seeded from TestVectors/jws when empty.
#   receipts  FuzzReceipt: app receipts, the PKCS#7 shim, the chain and signature checks (cold and
#             warm) and the strict DER payload decoder; corpus Fuzz/CorpusReceipts, seeded from
#             TestVectors/receipts when empty.
#   ocsp-http FuzzOCSPHTTP: SocketOCSPTransport's HTTP response parser (status line, headers,
#             Content-Length, chunked, limits), fed at once and in pieces, which must agree; corpus
#             Fuzz/CorpusOCSPHTTP, seeded with a few responses when empty.
#   signed    FuzzSignedPayload: past the signature. Each input (a kind byte, a flag byte, a payload)
#             is signed by the Testing product's PKI shaped like Apple's, minted in process for the
#             run (JWS kinds, and app receipts as PKCS#7), then verified, decoded, encoded back, fed
#             to the entitlement engine and printed by verify-jws's own renderers in both formats;
#             no text line or error may carry a raw control character. Corpus
#             Fuzz/CorpusSignedPayload, seeded from the payloads of TestVectors/jws and receipts.
#
# The corpus grows as the fuzzer finds new paths; a crash, an AddressSanitizer report or a timeout is
# written to the target's artifacts folder (Fuzz/Artifacts, Fuzz/ArtifactsReceipts) and makes the
# script fail. LeakSanitizer is off: Swift keeps object pointers in enums with tag bits set, so
# pointer scanning reports reachable cache entries as leaks (see Scripts/memory-check.sh for the leak
# checks that are exact).
set -uo pipefail
self="$(cd "$(dirname "$0")" && pwd)/$(basename "$0")"
cd "$(dirname "$0")"
seconds="${1:-60}"
target="${2:-verify}"

if [ "$target" = all ]; then
    flags=(-c debug --scratch-path .build-fuzz -Xswiftc -sanitize=fuzzer,address
           -Xcc -fsanitize=fuzzer-no-link,address -Xswiftc -use-ld=lld)
    swift build --package-path . "${flags[@]}" 2>&1 | tail -n 3
    [ "${PIPESTATUS[0]}" -eq 0 ] || { echo "fuzz: build failed"; exit 1; }
    status=0
    logs="$(mktemp -d)"
    for pair in "verify receipts" "ocsp-http signed"; do
        pids=()
        for one in $pair; do
            FUZZ_SKIP_BUILD=1 bash "$self" "$seconds" "$one" > "$logs/$one.log" 2>&1 &
            pids+=($!)
        done
        for pid in "${pids[@]}"; do wait "$pid" || status=1; done
        for one in $pair; do echo "fuzz: [$one]"; cat "$logs/$one.log"; done
    done
    rm -rf "$logs"
    exit $status
fi

case "$target" in
    verify) product=FuzzVerify; corpus=Corpus; artifacts=Artifacts ;;
    receipts) product=FuzzReceipt; corpus=CorpusReceipts; artifacts=ArtifactsReceipts ;;
    ocsp-http) product=FuzzOCSPHTTP; corpus=CorpusOCSPHTTP; artifacts=ArtifactsOCSPHTTP ;;
    signed) product=FuzzSignedPayload; corpus=CorpusSignedPayload; artifacts=ArtifactsSignedPayload ;;
    *) echo "fuzz: unknown target '$target' (verify, receipts, ocsp-http or signed)"; exit 2 ;;
esac

flags=(-c debug --scratch-path .build-fuzz -Xswiftc -sanitize=fuzzer,address
       -Xcc -fsanitize=fuzzer-no-link,address -Xswiftc -use-ld=lld)
if [ "${FUZZ_SKIP_BUILD:-0}" != 1 ]; then
    swift build --package-path . --product "$product" "${flags[@]}" 2>&1 | tail -n 3
    [ "${PIPESTATUS[0]}" -eq 0 ] || { echo "fuzz: build failed"; exit 1; }
fi
binary="$(swift build --package-path . "${flags[@]}" --show-bin-path)/$product"
[ -x "$binary" ] || { echo "fuzz: build failed"; exit 1; }

mkdir -p "$corpus" "$artifacts"
if [ -z "$(ls -A "$corpus")" ]; then
    case "$target" in
        verify)
            for f in ../TestVectors/jws/*.jws; do cp "$f" "$corpus/seed-$(basename "$f" .jws)"; done ;;
        receipts)
            for f in ../TestVectors/receipts/*.der ../TestVectors/receipts/*.b64; do
                [ "$(stat -c %s "$f")" -le 20000 ] && cp "$f" "$corpus/seed-$(basename "$f")"
            done ;;
        ocsp-http)
            # A control byte (the body limit, the read sizes), then what a server sends.
            printf '\x03HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello' > "$corpus/seed-content-length"
            printf '\x09HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5;a=b\r\nhello\r\n0\r\nT: 1\r\n\r\n' > "$corpus/seed-chunked"
            printf '\x04HTTP/1.1 100 Continue\r\n\r\nHTTP/1.0 200 OK\r\n\r\nuntil close' > "$corpus/seed-interim-until-close"
            printf '\x05HTTP/1.1 302 Found\r\nLocation: http://x/\r\nContent-Length: 0\r\n\r\n' > "$corpus/seed-redirect" ;;
        signed)
            # The kind byte (0 transaction, 1 renewal info, 2 app transaction, 3 notification,
            # 4 realtime request, 5 app receipt), a flag byte, then the payload of a shipped vector.
            for f in ../TestVectors/jws/{transaction,renewal,app-transaction,notification,realtime}*.jws; do
                name="$(basename "$f" .jws)"
                case "$name" in
                    transaction*) kind='\x00' ;; renewal*) kind='\x01' ;; app-transaction*) kind='\x02' ;;
                    notification*) kind='\x03' ;; *) kind='\x04' ;;
                esac
                payload="$(cut -d. -f2 "$f" | tr -- '-_' '+/')"
                while [ $(( ${#payload} % 4 )) -ne 0 ]; do payload="$payload="; done
                { printf "$kind\x00"; printf '%s' "$payload" | base64 -d 2>/dev/null; } > "$corpus/seed-$name"
            done
            for f in ../TestVectors/receipts/valid-*.der; do
                { printf '\x05\x00'; openssl cms -verify -noverify -binary -inform DER -in "$f" 2>/dev/null; } > "$corpus/seed-receipt-$(basename "$f" .der)"
            done ;;
    esac
fi


ASAN_OPTIONS=detect_leaks=0 "$binary" "$corpus" -max_total_time="$seconds" -max_len=20000 -timeout=10 \
    -rss_limit_mb=4096 -artifact_prefix="$artifacts/" -print_final_stats=1 > "$artifacts/last-run.log" 2>&1
status=$?
grep -E "^#[0-9]+ +DONE|stat::number_of_executed_units|stat::average_exec_per_sec|stat::new_units_added|ERROR|SUMMARY" "$artifacts/last-run.log" | tail -n 8
if [ $status -ne 0 ]; then
    echo "fuzz: the fuzzer failed (exit $status); see Fuzz/$artifacts/last-run.log"
    exit $status
fi
echo "fuzz: $product, ${seconds} s, no crash"
