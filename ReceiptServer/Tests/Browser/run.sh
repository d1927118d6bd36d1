#!/usr/bin/env bash
# The support console's browser test (README "Support console"): builds the server, mints a
# customer with the library's test PKI (ConsoleBrowserSeed), stores it through the server's own
# routes, changes the trusted roots under it, and drives headless Chromium through the console
# with Selenium (console_test.py) against the library's fake App Store Server API
# (BrowserFakeAppStore, in FakeAppStore/).
# Everything listens on 127.0.0.1 only, in a temporary directory; the server and the fake are
# stopped whatever happens.
#
#   ReceiptServer/Tests/Browser/run.sh                 # from any directory
#   CONSOLE_SCREENSHOT=ReceiptServer/Documentation/console-customer.png ReceiptServer/Tests/Browser/run.sh
#   CONSOLE_SKIP_BUILD=1 ...                           # ci.sh, which has just built everything
#
# Needs: chromium and chromium-driver (Debian), selenium (PyPI). ci.sh installs them.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
package="$(cd "$here/../.." && pwd)"
screenshot="${CONSOLE_SCREENSHOT:-}"
if [ -n "$screenshot" ]; then
    mkdir -p "$(dirname "$screenshot")"
    screenshot="$(cd "$(dirname "$screenshot")" && pwd)/$(basename "$screenshot")"
fi

work="$(mktemp -d)"
server_pid=""
fake_pid=""
stop() {  # stop PID: SIGTERM (graceful), SIGKILL if it is still there after 30 s
    local pid="$1"
    [ -n "$pid" ] || return 0
    kill -TERM "$pid" 2>/dev/null || return 0
    for _ in $(seq 300); do
        kill -0 "$pid" 2>/dev/null || break
        sleep 0.1
    done
    kill -KILL "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
}
cleanup() {
    local status=$?
    stop "$server_pid"
    stop "$fake_pid"
    if [ "$status" = 0 ] && grep -h " error " "$work"/server-*.log 2>/dev/null; then
        echo "console browser test: the server logged errors (above)"
        status=1
    fi
    if [ "$status" != 0 ]; then
        echo "console browser test: failed; the server's log:"
        cat "$work"/server-*.log 2>/dev/null | tail -n 40 || true
        cat "$work/fake.log" 2>/dev/null || true
    fi
    rm -rf "$work"
    exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

scratch=()
if [ -n "${SWIFT_SCRATCH_PATH:-}" ]; then scratch=(--scratch-path "$SWIFT_SCRATCH_PATH"); fi
if [ "${CONSOLE_SKIP_BUILD:-0}" != 1 ]; then
    swift build --package-path "$package" "${scratch[@]}" --product ReceiptServer
    swift build --package-path "$package" "${scratch[@]}" --product ConsoleBrowserSeed
    swift build --package-path "$package" "${scratch[@]}" --product BrowserFakeAppStore
fi
bin="$(swift build --package-path "$package" "${scratch[@]}" --show-bin-path)"

"$bin/ConsoleBrowserSeed" "$work/seed"
token="$(python3 -c 'import secrets; print(secrets.token_hex(32))')"
key_id="CONSOLEKEY1"
issuer_id="57246542-96fe-1a63-e053-0824d011072a"

# The fake App Store Server API: ready once it prints the line with its address (read from its
# output as it comes, no polling).
coproc fake { exec "$bin/BrowserFakeAppStore" "$work/seed/apple-history.json" "$work/seed/api-key.p8" "$key_id" "$issuer_id" 2> "$work/fake.log"; }
fake_pid=$fake_PID
fake_line=""
read -r fake_line <&"${fake[0]}" || true
case "$fake_line" in
    "fake App Store listening on http://127.0.0.1:"*) fake_url="${fake_line##* }" ;;
    *) echo "the fake App Store did not start: $fake_line"; exit 1 ;;
esac

# start_server NAME ARGS...: starts the server on a free port of 127.0.0.1, waits until it logs that
# it listens (or exits), and sets server_pid and port.
start_server() {
    local name="$1"
    shift
    local log="$work/server-$name.log"
    : > "$log"
    RECEIPT_SERVER_ACCESS_TOKEN="$token" "$bin/ReceiptServer" --host 127.0.0.1 --port 0 --bundle-id com.example.app \
        --database "$work/receipts.sqlite" "$@" > "$log" 2>&1 &
    server_pid=$!
    port=""
    for _ in $(seq 600); do
        port="$(sed -n 's/.*ReceiptServer listening on .*:\([0-9][0-9]*\)$/\1/p' "$log" | head -n 1 || true)"
        [ -n "$port" ] && return 0
        kill -0 "$server_pid" 2>/dev/null || { echo "the server exited:"; cat "$log"; return 1; }
        sleep 0.1
    done
    echo "the server did not listen within 60 s"
    return 1
}

# 1. The customer's data, stored through the routes while both roots are trusted.
start_server seed --root "$work/seed/root-current.der" --root "$work/seed/root-retired.der"
for body in "$work"/seed/posts/*.json; do
    route="$(basename "$body" .json)"
    route="${route#*-}"
    status="$(curl -sS -o "$work/answer.json" -w '%{http_code}' --max-time 30 -H 'Content-Type: application/json' \
        -H "Authorization: Bearer $token" --data-binary "@$body" "http://127.0.0.1:$port/$route")"
    if [ "$status" != 200 ]; then
        echo "seeding $(basename "$body"): HTTP $status"; cat "$work/answer.json"; exit 1
    fi
done
stop "$server_pid"
server_pid=""

# 2. The retired root is no longer trusted: verify the stored data again, as an operator would.
"$bin/ReceiptServer" --reverify --bundle-id com.example.app --root "$work/seed/root-current.der" --database "$work/receipts.sqlite"

# 3. The server as the support team uses it: the current root, the access token, the API (the fake).
RECEIPT_SERVER_API_KEY_FILE="$work/seed/api-key.p8" RECEIPT_SERVER_API_KEY_ID="$key_id" RECEIPT_SERVER_API_ISSUER_ID="$issuer_id" \
RECEIPT_SERVER_API_BASE_URL="$fake_url" \
    start_server console --root "$work/seed/root-current.der"

# 4. The browser.
CONSOLE_TEST_TOKEN="$token" python3 "$here/console_test.py" --url "http://127.0.0.1:$port" --ids "$work/seed/ids.json" \
    ${screenshot:+--screenshot "$screenshot"}
