#!/usr/bin/env bash
# CI for Examples/ (the Vapor and Hummingbird examples, one package): build it (warnings in the
# examples' code, or in the library's as this package builds it, fail the run) and run both
# examples' tests, real HTTP requests on 127.0.0.1 (an 18 KB+ notification and the largest
# realistic one among them). .ci/run calls it from the repository root; it works from any directory.
#
# The package builds in Examples/.build. The first build compiles Vapor 4's graph (SwiftNIO, two
# BoringSSLs: swift-nio-ssl's and swift-crypto's, AsyncHTTPClient, ...), which holds all of
# Hummingbird 2's but Hummingbird itself: one package for both examples compiles that graph once
# (the measured times are in the CI log, printed below). Cache that folder between CI runs where the
# CI allows it (keyed on Examples/Package.swift and the library's Package.swift).
set -euo pipefail
cd "$(dirname "$0")"
here="$(pwd)"
root="$(cd .. && pwd)"

start=$(date +%s)
log="$(mktemp)"
trap 'rm -f "$log"' EXIT
if ! swift build --build-tests 2>&1 | tee "$log" | tail -n 3; then
    echo "ci(Examples): build failed"; cat "$log"; exit 1
fi
if grep -E "^(${here}|${root})/(Sources|Tests)/.*: warning:" "$log"; then
    echo "ci(Examples): warnings in the examples' or the library's code (above)"; exit 1
fi
built=$(date +%s)
swift test --skip-build
done=$(date +%s)
echo "ci(Examples): build $((built - start)) s, test $((done - built)) s"
