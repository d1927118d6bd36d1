#!/usr/bin/env bash
# CI for Examples/ (the Vapor and Hummingbird examples, one package): build it (warnings in the
# examples' code, or in the library's as this package builds it, fail the run) and run both
# examples' tests, real HTTP requests on 127.0.0.1 (an 18 KB+ notification and the largest
# realistic one among them). .ci/run calls it from the repository root; it works from any directory.
#
# The package builds in Examples/.build, or in SWIFT_SCRATCH_PATH when set: .ci/run points it at the
# scratch folder the library's tests and ReceiptServer were built in, so only Vapor's own part of
# the graph is compiled here (SwiftNIO, both BoringSSLs, AsyncHTTPClient and Hummingbird's
# dependencies are reused). One package for both examples; the measured times are printed below.
set -euo pipefail
cd "$(dirname "$0")"
here="$(pwd)"
root="$(cd .. && pwd)"

scratch=()
if [ -n "${SWIFT_SCRATCH_PATH:-}" ]; then scratch=(--scratch-path "$SWIFT_SCRATCH_PATH"); fi
start=$(date +%s)
log="$(mktemp)"
trap 'rm -f "$log"' EXIT
if ! swift build "${scratch[@]}" --build-tests 2>&1 | tee "$log" | tail -n 3; then
    echo "ci(Examples): build failed"; cat "$log"; exit 1
fi
if grep -E "^(${here}|${root})/(Sources|Tests)/.*: warning:" "$log"; then
    echo "ci(Examples): warnings in the examples' or the library's code (above)"; exit 1
fi
built=$(date +%s)
swift test "${scratch[@]}" --skip-build
done=$(date +%s)
echo "ci(Examples): build $((built - start)) s, test $((done - built)) s"
