#!/usr/bin/env bash
# Memory safety checks, beyond the normal test run:
#   1. the C shim (asv_openssl.c, asv_sign.c) under AddressSanitizer + LeakSanitizer + UBSan: every
#      exported function, on good input and on the error paths a harness can reach, 200 times;
#   2. the same harness under valgrind (no leak, no invalid access);
#   3. the whole Swift test suite (library, shim and CLI) under AddressSanitizer;
#   4. the concurrency tests under ThreadSanitizer;
#   5. the OCSP shim (asv_ocsp.c) under AddressSanitizer + LeakSanitizer + UBSan, on a PKI and
#      responses minted with the openssl command line, and the OCSP tests (real openssl ocsp
#      responders) under AddressSanitizer;
#   6. the PKCS#7 shim (asv_pkcs7.c: app receipts, the general and the warm path) under
#      AddressSanitizer + LeakSanitizer + UBSan on the minted receipts of TestVectors/receipts;
#   7. the Testing product's OCSP responder functions (asv_mint_ocsp.c) under AddressSanitizer
#      + LeakSanitizer + UBSan, on the PKI and requests of step 5.
#
#   Scripts/memory-check.sh              (all seven; about 15 minutes on 2 cores)
#   Scripts/memory-check.sh --shim-only  (the C harnesses of steps 1, 5, 6 and 7 only; CI runs it)
#
# The C harnesses (Scripts/*-check.c) are compiled with -Wall -Wextra -Werror and
# -fno-sanitize-recover=all, so a compiler warning, an AddressSanitizer or UBSan report, or a leak
# at exit fails the run; so does any sanitizer line in a harness's output, whatever its exit status.
#
# LeakSanitizer is off for the Swift runs: Swift stores object pointers inside enums with tag bits
# set (Data's representation, Optional payloads), so pointer scanning reports still-reachable cache
# entries and static lets as "leaked" (valgrind does the same on Swift binaries). Leaks are instead
# checked where scanning is exact — the C shim (steps 1, 2, 5, 6 and 7) — and, for the Swift layers,
# by the resident-memory check over 1,000,000 verifications in Benchmarks (MemoryCheck).
set -euo pipefail
cd "$(dirname "$0")/.."
shim_only=0
case "${1:-}" in
    "") ;;
    --shim-only) shim_only=1 ;;
    *) echo "usage: Scripts/memory-check.sh [--shim-only]" >&2; exit 2 ;;
esac
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

python3 - "$work" <<'PY'
import base64, sys
jws = open("TestVectors/jws/transaction-valid.jws").read().strip()
header, payload, signature = jws.split(".")
open(f"{sys.argv[1]}/input", "wb").write(f"{header}.{payload}".encode())
open(f"{sys.argv[1]}/signature", "wb").write(base64.urlsafe_b64decode(signature + "=" * (-len(signature) % 4)))
PY
args=(TestVectors/pki/root.der TestVectors/pki/intermediate.der TestVectors/pki/leaf.der "$work/input" "$work/signature")
cflags=(-std=c11 -O1 -g -Wall -Wextra -Werror -ISources/CAppStoreOpenSSL/include $(pkg-config --cflags openssl))
libs=($(pkg-config --libs openssl))
# Every report stops the program with a nonzero status: UBSan included (no recovery).
sanitize=(-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer)
export ASAN_OPTIONS="detect_leaks=1:halt_on_error=1:strict_string_checks=1:check_initialization_order=1"
export UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1"

# Runs a sanitized harness; fails when it fails or when its output carries any sanitizer report.
run_sanitized() {
    local log="$work/$(basename "$1").log"
    local status=0
    "$@" >"$log" 2>&1 || status=$?
    cat "$log"
    if [ "$status" -ne 0 ] || grep -qE "(Address|Leak|UndefinedBehavior)Sanitizer|runtime error:" "$log"; then
        echo "memory-check: $(basename "$1") failed (status $status) or reported a sanitizer finding" >&2
        exit 1
    fi
}

echo "== 1. C shim under AddressSanitizer + LeakSanitizer + UBSan"
cc "${cflags[@]}" "${sanitize[@]}" Scripts/shim-check.c Sources/CAppStoreOpenSSL/asv_openssl.c \
    Sources/CAppStoreOpenSSL/asv_sign.c Sources/CAppStoreOpenSSL/asv_errors.c "${libs[@]}" -o "$work/shim-check-asan"
run_sanitized "$work/shim-check-asan" "${args[@]}" 200

if [ "$shim_only" -eq 0 ]; then

echo "== 2. C shim under valgrind"
if command -v valgrind >/dev/null; then
    cc "${cflags[@]}" Scripts/shim-check.c Sources/CAppStoreOpenSSL/asv_openssl.c Sources/CAppStoreOpenSSL/asv_sign.c \
        Sources/CAppStoreOpenSSL/asv_errors.c "${libs[@]}" -o "$work/shim-check"
    valgrind --quiet --leak-check=full --show-leak-kinds=definite,indirect,possible \
        --errors-for-leak-kinds=definite,indirect,possible --error-exitcode=99 "$work/shim-check" "${args[@]}" 20
    echo "valgrind: no leak, no invalid access"
else
    echo "valgrind not installed (apt-get install valgrind): skipped"
fi

echo "== 3. Swift test suite under AddressSanitizer"
ASAN_OPTIONS=detect_leaks=0 swift test --sanitize=address --scratch-path .build-asan 2>&1 | grep -E "Test run|✘|ERROR: AddressSanitizer" | tail -n 20

echo "== 4. Concurrency tests under ThreadSanitizer"
swift test --sanitize=thread --scratch-path .build-tsan --filter "concurrentUse|parallelJobsKeepOrder" 2>&1 \
    | grep -E "Test run|✘|WARNING: ThreadSanitizer" | tail -n 20
fi

echo "== 5. OCSP: the shim under AddressSanitizer + LeakSanitizer + UBSan, the tests under AddressSanitizer"
pki="$work/ocsp-pki"
bash Scripts/make-ocsp-test-pki.sh "$pki" 9 9 good:9:V revoked:9:R unknown:9:-
(
    cd "$pki"
    for leaf in good revoked unknown; do
        openssl ocsp -issuer intermediate.pem -cert "$leaf.pem" -no_nonce -reqout "$leaf.req" 2>/dev/null
        openssl ocsp -index intermediate-index.txt -CA intermediate-cas.pem -rsigner ocsp-signer.pem \
            -rkey ocsp-signer.key -ndays 1 -reqin "$leaf.req" -respout "$leaf.resp" >/dev/null 2>&1
    done
    openssl ocsp -index intermediate-index.txt -CA intermediate-cas.pem -rsigner unrelated.pem \
        -rkey unrelated.key -ndays 1 -reqin good.req -respout unrelated.resp >/dev/null 2>&1
    openssl ocsp -issuer intermediate.pem -cert good.pem -nonce -reqout good-nonce.req 2>/dev/null
    openssl ocsp -index intermediate-index.txt -CA intermediate-cas.pem -rsigner ocsp-signer.pem \
        -rkey ocsp-signer.key -ndays 1 -reqin good-nonce.req -respout good-nonce.resp >/dev/null 2>&1
)
# Step 7 reads the same PKI and requests; the Testing C target's headers come too.
cflags+=(-ISources/CAppStoreOpenSSLTesting/include)
cc "${cflags[@]}" "${sanitize[@]}" Scripts/ocsp-shim-check.c \
    Sources/CAppStoreOpenSSL/asv_ocsp.c Sources/CAppStoreOpenSSL/asv_openssl.c Sources/CAppStoreOpenSSL/asv_errors.c "${libs[@]}" -o "$work/ocsp-shim-check-asan"
run_sanitized "$work/ocsp-shim-check-asan" "$pki" 200
[ "$shim_only" -eq 1 ] || ASAN_OPTIONS=detect_leaks=0 swift test --sanitize=address --scratch-path .build-asan --filter "OCSP" 2>&1 \
    | grep -E "Test run|✘|ERROR: AddressSanitizer" | tail -n 20

echo "== 6. PKCS#7 shim (app receipts) under AddressSanitizer + LeakSanitizer + UBSan"
cc "${cflags[@]}" "${sanitize[@]}" Scripts/pkcs7-shim-check.c \
    Sources/CAppStoreOpenSSL/asv_pkcs7.c Sources/CAppStoreOpenSSL/asv_openssl.c Sources/CAppStoreOpenSSL/asv_errors.c "${libs[@]}" -o "$work/pkcs7-shim-check-asan"
run_sanitized "$work/pkcs7-shim-check-asan" TestVectors/receipts 100
echo "== 7. The Testing product's OCSP responder (asv_mint_ocsp.c) under AddressSanitizer + LeakSanitizer + UBSan"
cc "${cflags[@]}" "${sanitize[@]}" Scripts/ocsp-responder-check.c \
    Sources/CAppStoreOpenSSLTesting/asv_mint_ocsp.c Sources/CAppStoreOpenSSLTesting/asv_mint.c Sources/CAppStoreOpenSSL/asv_ocsp.c \
    Sources/CAppStoreOpenSSL/asv_openssl.c Sources/CAppStoreOpenSSL/asv_errors.c "${libs[@]}" -o "$work/ocsp-responder-check-asan"
run_sanitized "$work/ocsp-responder-check-asan" "$pki" 100
echo "memory-check: every sanitized C harness ran with zero reports"
