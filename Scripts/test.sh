#!/usr/bin/env bash
# The whole test suite: verify-jws (Tools/, a package of its own) with its `api` subcommand (its
# tests run it against AppStoreServerAPITesting's fake App Store), then the library with its Testing
# products and the App Store Server API client (the `ServerAPIClient` trait on, for its
# AsyncHTTPClient transport). Arguments go to both `swift test` runs (for example `--filter Receipt`).
#
#     bash Scripts/test.sh [SWIFT_TEST_ARGUMENTS...]
set -euo pipefail
cd "$(dirname "$0")/.."

# In Tools/.build, where the README's first command builds the tool: one build serves both.
echo "test: verify-jws (swift test --package-path Tools)"
swift test --package-path Tools "$@"

echo "test: the library, AppStoreVerificationTesting, AppStoreServerAPI and AppStoreServerAPITesting (swift test --traits ServerAPIClient)"
swift test --traits ServerAPIClient "$@"
