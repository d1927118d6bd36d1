#!/usr/bin/env bash
# The whole test suite: verify-jws (Tools/, a package of its own) with its `api` subcommand (its
# tests run it against AppStoreServerAPITesting's fake App Store), then the library with its Testing
# products and the App Store Server API client (the `ServerAPIClient` trait on). Arguments go to both
# `swift test` runs (for example `--filter Receipt`).
#
#     bash Scripts/test.sh [SWIFT_TEST_ARGUMENTS...]
set -euo pipefail
cd "$(dirname "$0")/.."

# A scratch path of its own: the README's first command builds Tools/ without the trait in
# Tools/.build, and switching traits there would rebuild everything each time.
tools=(--package-path Tools --traits ServerAPIClient --scratch-path Tools/.build-api)
echo "test: verify-jws (swift test ${tools[*]})"
swift test "${tools[@]}" "$@"
# Without the trait (Tools/.build, where the README's first command builds it): `verify-jws api`
# says how to build the tool with the client (APICommandUnavailableTests, compiled only then).
echo "test: verify-jws without the API client (swift test --package-path Tools --filter APICommandUnavailableTests)"
swift test --package-path Tools --filter APICommandUnavailableTests

echo "test: the library, AppStoreVerificationTesting, AppStoreServerAPI and AppStoreServerAPITesting (swift test --traits ServerAPIClient)"
swift test --traits ServerAPIClient "$@"
