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
copier_pid=""
fake_pid=""
stop() {  # stop PID (a child of this shell): SIGTERM (graceful), SIGKILL if it has not exited 30 s later
    local pid="$1"
    [ -n "$pid" ] || return 0
    kill -TERM "$pid" 2>/dev/null || return 0
    # The bound only: a watchdog that kills it at 30 s unless stopped first (then it stops its timer).
    ( exec >/dev/null 2>&1; sleep 30 & timer=$!; trap 'kill "$timer"' TERM; wait "$timer" && kill -KILL "$pid" ) &
    local watchdog=$!
    wait "$pid" 2>/dev/null || true
    kill -TERM "$watchdog" 2>/dev/null || true
    wait "$watchdog" 2>/dev/null || true
}
stop_server() {  # stops the server, then waits until the rest of its output is in its log
    stop "$server_pid"
    [ -z "$copier_pid" ] || wait "$copier_pid" 2>/dev/null || true
    server_pid=""
    copier_pid=""
}
cleanup() {
    local status=$?
    stop_server
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

# start_server NAME ARGS...: starts the server on a free port of 127.0.0.1, reads its output from a
# pipe as it comes (copied to its log) until it logs that it listens, and sets server_pid and port.
# Fails when its output ends first (it exited) or after 60 s (a bound for a server that never starts).
start_server() {
    local name="$1"
    shift
    local log="$work/server-$name.log" pipe="$work/server-$name.pipe" out line deadline=$((SECONDS + 60))
    : > "$log"
    mkfifo "$pipe"
    RECEIPT_SERVER_ACCESS_TOKEN="$token" "$bin/ReceiptServer" --host 127.0.0.1 --port 0 --bundle-id com.example.app \
        --database "$work/receipts.sqlite" "$@" > "$pipe" 2>&1 &
    server_pid=$!
    exec {out}<"$pipe"
    port=""
    while [ -z "$port" ] && [ "$SECONDS" -lt "$deadline" ] && IFS= read -r -t "$((deadline - SECONDS))" line <&"$out"; do
        printf '%s\n' "$line" >> "$log"
        case "$line" in
            *"ReceiptServer listening on "*:[0-9]*) port="${line##*:}" ;;
        esac
    done
    # The rest of its output, copied as it comes until it exits (stop_server waits for the copy).
    cat <&"$out" >> "$log" &
    copier_pid=$!
    exec {out}<&-
    case "$port" in
        ""|*[!0-9]*) echo "the server did not log that it listens (it exited, or 60 s passed):"; cat "$log"; return 1 ;;
    esac
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
stop_server

# 2. The retired root is no longer trusted: verify the stored data again, as an operator would.
"$bin/ReceiptServer" --reverify --bundle-id com.example.app --root "$work/seed/root-current.der" --database "$work/receipts.sqlite"

# 3. The server as the support team uses it: the current root, the access token, the API (the fake).
RECEIPT_SERVER_API_KEY_FILE="$work/seed/api-key.p8" RECEIPT_SERVER_API_KEY_ID="$key_id" RECEIPT_SERVER_API_ISSUER_ID="$issuer_id" \
RECEIPT_SERVER_API_BASE_URL="$fake_url" \
    start_server console --root "$work/seed/root-current.der"

# 4. The browser.
CONSOLE_TEST_TOKEN="$token" python3 "$here/console_test.py" --url "http://127.0.0.1:$port" --ids "$work/seed/ids.json" \
    ${screenshot:+--screenshot "$screenshot"}
