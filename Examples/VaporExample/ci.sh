#!/usr/bin/env bash
# CI for Examples/VaporExample: build it (warnings in the example's code, or in the library's as this
# package builds it, fail the run) and run its tests, real HTTP requests on 127.0.0.1 (an 18 KB+
# notification and the largest realistic one among them). .ci/run calls it from the repository
# root; it works from any directory.
#
# The package builds in Examples/VaporExample/.build. The first build compiles Vapor 4 and its graph
# (SwiftNIO, two BoringSSLs: swift-nio-ssl's and swift-crypto's, AsyncHTTPClient, ...): 21 minutes
# measured here on 2 cores shared with other builds; cache that folder between CI runs where the CI
# allows it (keyed on Examples/VaporExample/Package.swift and the library's Package.swift).
set -euo pipefail
cd "$(dirname "$0")"
here="$(pwd)"
root="$(cd ../.. && pwd)"

start=$(date +%s)
log="$(mktemp)"
trap 'rm -f "$log"' EXIT
if ! swift build --build-tests 2>&1 | tee "$log" | tail -n 3; then
    echo "ci(VaporExample): build failed"; cat "$log"; exit 1
fi
if grep -E "^(${here}|${root})/(Sources|Tests)/.*: warning:" "$log"; then
    echo "ci(VaporExample): warnings in the example's or the library's code (above)"; exit 1
fi
built=$(date +%s)
swift test --skip-build
done=$(date +%s)
echo "ci(VaporExample): build $((built - start)) s, test $((done - built)) s"
