#!/usr/bin/env bash
# CI for ReceiptServer: build (warnings in the service's own code fail the run) and test,
# against SQLite (GRDB over the system's libsqlite3) and a throwaway PostgreSQL cluster the tests
# start themselves, then the support console in headless Chromium.
# .ci/run calls it from the repository root; it works from any directory.
#
# The package builds in ReceiptServer/.build, or in SWIFT_SCRATCH_PATH when set: .ci/run points it
# at the scratch folder the library's tests were built in, so SwiftNIO, AsyncHTTPClient and
# BoringSSL, compiled once there, are not compiled again (SwiftPM reuses a dependency's objects
# when its sources and flags are unchanged, whichever package is the root).
set -euo pipefail
cd "$(dirname "$0")"
here="$(pwd)"

# PostgreSQL's server binaries (initdb, postgres) for the PostgreSQL half of the suite: Debian's
# postgresql package, installed when missing (with sudo only when not root).
if ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 && [ -z "${RECEIPT_SERVER_PG_BIN:-}" ]; then
    echo "ci(ReceiptServer): installing PostgreSQL (apt-get install postgresql)"
    sudo=""
    if [ "$(id -u)" != "0" ]; then sudo="sudo"; fi
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends postgresql >/dev/null
fi
# SQLite through GRDB links the system's SQLite (libsqlite3-dev), and the lock tests run the sqlite3
# shell as the other process holding a database's lock.
need_apt=()
[ -f /usr/include/sqlite3.h ] || need_apt+=(libsqlite3-dev)
command -v sqlite3 >/dev/null 2>&1 || need_apt+=(sqlite3)
if [ ${#need_apt[@]} -gt 0 ]; then
    echo "ci(ReceiptServer): installing ${need_apt[*]}"
    sudo=""
    if [ "$(id -u)" != "0" ]; then sudo="sudo"; fi
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${need_apt[@]}" >/dev/null
fi
# With the binaries present, a PostgreSQL test that cannot start its server fails instead of skipping.
export RECEIPT_SERVER_REQUIRE_POSTGRES=1
scratch=()
if [ -n "${SWIFT_SCRATCH_PATH:-}" ]; then scratch=(--scratch-path "$SWIFT_SCRATCH_PATH"); fi

start=$(date +%s)
log="$(mktemp)"
trap 'rm -f "$log"' EXIT
if ! swift build "${scratch[@]}" --build-tests 2>&1 | tee "$log" | tail -n 3; then
    echo "ci(ReceiptServer): build failed"; cat "$log"; exit 1
fi
if grep -E "^${here}/(Sources|Tests)/.*: warning:" "$log"; then
    echo "ci(ReceiptServer): the service's code has warnings (above)"; exit 1
fi
built=$(date +%s)
# The two-process tests run the ReceiptServer executable this build made, beside the test bundle.
RECEIPT_SERVER_EXECUTABLE="$(swift build "${scratch[@]}" --show-bin-path)/ReceiptServer" swift test "${scratch[@]}" --skip-build
done=$(date +%s)

# The support console in a real browser (Tests/Browser/run.sh): headless Chromium and its driver
# from Debian's packages, Selenium from PyPI, each installed when missing.
packages=""
command -v chromium >/dev/null 2>&1 || packages="$packages chromium"
command -v chromedriver >/dev/null 2>&1 || packages="$packages chromium-driver"
command -v curl >/dev/null 2>&1 || packages="$packages curl"
if [ -n "$packages" ]; then
    echo "ci(ReceiptServer): installing$packages (apt-get install)"
    sudo=""
    if [ "$(id -u)" != "0" ]; then sudo="sudo"; fi
    $sudo apt-get update -qq
    # shellcheck disable=SC2086 # the package names are words
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends $packages >/dev/null
fi
if ! python3 -c "import selenium" 2>/dev/null; then
    echo "ci(ReceiptServer): installing selenium (pip install)"
    user=""
    if [ "$(id -u)" != "0" ]; then user="--user"; fi
    python3 -m pip install --quiet $user selenium
fi
CONSOLE_SKIP_BUILD=1 ./Tests/Browser/run.sh
browser=$(date +%s)
echo "ci(ReceiptServer): build $((built - start)) s, test $((done - built)) s, browser $((browser - done)) s"
