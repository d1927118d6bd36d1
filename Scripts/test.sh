#!/usr/bin/env bash
# The whole test suite: verify-jws (Tools/, a package of its own) with its `api` subcommand, then the
# library with its Testing product and the App Store Server API client (the `ServerAPIClient` trait
# on); the API client's tests also run the `verify-jws api` built first. Arguments go to both
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
VERIFY_JWS_EXECUTABLE="$(swift build "${tools[@]}" --show-bin-path)/verify-jws"
export VERIFY_JWS_EXECUTABLE

echo "test: the library, AppStoreVerificationTesting and AppStoreServerAPI (swift test --traits ServerAPIClient)"
swift test --traits ServerAPIClient "$@"
