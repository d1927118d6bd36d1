#!/usr/bin/env bash
# CI for Examples/ReceiptServer: build (warnings in the example's own code fail the run) and test.
# .ci/run calls it from the repository root; it works from any directory.
#
# The package builds in Examples/ReceiptServer/.build: cache that folder between CI runs where the
# CI allows it (keyed on Examples/ReceiptServer/Package.swift and Package.swift), since the first
# build of Hummingbird, AsyncHTTPClient and SQLite takes several minutes on 2 cores.
set -euo pipefail
cd "$(dirname "$0")"
here="$(pwd)"

start=$(date +%s)
log="$(mktemp)"
trap 'rm -f "$log"' EXIT
if ! swift build --build-tests 2>&1 | tee "$log" | tail -n 3; then
    echo "ci(ReceiptServer): build failed"; cat "$log"; exit 1
fi
if grep -E "^${here}/(Sources|Tests)/.*: warning:" "$log"; then
    echo "ci(ReceiptServer): the example's code has warnings (above)"; exit 1
fi
built=$(date +%s)
swift test
done=$(date +%s)
echo "ci(ReceiptServer): build $((built - start)) s, test $((done - built)) s"
