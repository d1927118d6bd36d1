#!/usr/bin/env bash
# verify-jws end to end: lines per second over a corpus file, as ratios to `openssl speed`'s P-256
# verifies per second measured in the same run, and the peak resident memory of a large input.
#
#     Benchmarks/Scripts/cli-throughput.sh [LINES] [MEMORY_LINES]
#
# LINES (default 20000) warm lines (Benchmarks/Corpus/warm.jws repeated: one chain, so every line
# after the first takes the verifier's warm path) go through the release build of verify-jws with
# --format json and text at --jobs 1 and 2, output to a file, and json at --jobs 2 into a pipe
# (flushed after every run of verdicts), alternating with `openssl speed -seconds 3 ecdsap256`,
# ROUNDS (default 3) times; each keeps its best. `openssl speed` divides by CPU time, so --jobs 1 is
# also given per CPU second (user + system), which a loaded machine disturbs less than wall clock. MEMORY_LINES
# (default 200000) lines made of TestVectors/jws/*.jws repeated go through --jobs 2 under
# /usr/bin/time -v for the peak resident set size. Generated inputs live in a temporary directory
# that is removed at exit; nothing is written into the repository but the build.
#
# Targets (issue 12): json --jobs 1 >= 0.7x openssl, json --jobs 2 >= 1.3x openssl,
# text >= 0.5x json (same jobs), peak RSS < 100 MB at --jobs 2 for any input size.
set -euo pipefail
cd "$(dirname "$0")/../.."

LINES="${1:-20000}"
MEMORY_LINES="${2:-200000}"
# Builds take the machine-wide build lock when there is one (SWIFT_BUILD_LOCK= turns it off).
LOCK_FILE="${SWIFT_BUILD_LOCK-/tmp/swift-build.lock}"
LOCK=()
if [ -n "$LOCK_FILE" ] && command -v flock >/dev/null 2>&1; then LOCK=(flock "$LOCK_FILE"); fi

"${LOCK[@]}" swift build --package-path Tools -c release --product verify-jws >&2
BIN="$("${LOCK[@]}" swift build --package-path Tools -c release --show-bin-path)/verify-jws"

WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT

warm="$(tr -d '\n' < Benchmarks/Corpus/warm.jws)"
for _ in $(seq 1 "$LINES"); do printf '%s\n' "$warm"; done > "$WORK/warm.jws"

# Seconds for one run of verify-jws (FORMAT JOBS [pipe]): wall clock on standard output, CPU
# (user + system) into $WORK/cpu. Output goes to a file, or with "pipe" through `cat`.
seconds() {
    local args=(--root Benchmarks/Corpus/root.der --format "$1" --jobs "$2" "$WORK/warm.jws")
    if [ "${3:-}" = pipe ]; then
        /usr/bin/time -f "%e %U %S" -o "$WORK/time-run" bash -c '"$0" "$@" | cat > /dev/null' "$BIN" "${args[@]}" || true
    else
        /usr/bin/time -f "%e %U %S" -o "$WORK/time-run" "$BIN" "${args[@]}" > "$WORK/out" || true
    fi
    awk '{ printf "%.3f\n", $2 + $3 }' "$WORK/time-run" > "$WORK/cpu"
    awk '{ print $1 }' "$WORK/time-run"
}
min() { if [ -z "$1" ] || [ "$(echo "$2 < $1" | bc -l)" = 1 ]; then echo "$2"; else echo "$1"; fi; }
max() { if [ -z "$1" ] || [ "$(echo "$2 > $1" | bc -l)" = 1 ]; then echo "$2"; else echo "$1"; fi; }


# One warm-up run (page cache, dynamic loader), and a check that every line verified.
seconds json 1 > /dev/null
verified=$(grep -c '"status":"verified"' "$WORK/out" || true)
if [ "$verified" != "$LINES" ]; then
    echo "cli-throughput: only $verified of $LINES lines verified; check the corpus" >&2
    exit 1
fi

# Shared virtual machines drift by tens of percent over minutes, so openssl and every CLI
# configuration are measured in turn, ROUNDS times, and each keeps its best: the ratios compare
# best with best, measured within the same minute.
ROUNDS="${ROUNDS:-3}"
openssl_rate=""; json1=""; json2=""; text1=""; text2=""; pipe2=""
for round in $(seq 1 "$ROUNDS"); do
    echo "round $round of $ROUNDS: openssl speed -seconds 3 ecdsap256, then verify-jws" >&2
    rate_now=$(openssl speed -seconds 3 ecdsap256 2>/dev/null | awk '/nistp256/ { print $NF }' | tail -n 1)
    openssl_rate=$(max "$openssl_rate" "$rate_now")
    json1=$(min "$json1" "$(seconds json 1)")
    json1_cpu=$(min "${json1_cpu:-}" "$(cat "$WORK/cpu")")
    json2=$(min "$json2" "$(seconds json 2)")
    text1=$(min "$text1" "$(seconds text 1)")
    text2=$(min "$text2" "$(seconds text 2)")
    pipe2=$(min "$pipe2" "$(seconds json 2 pipe)")
done

rate() { echo "scale=0; $LINES / $1" | bc -l; }
ratio() { echo "scale=2; $1 / $2" | bc -l; }
r_json1=$(rate "$json1"); r_json2=$(rate "$json2"); r_text1=$(rate "$text1"); r_text2=$(rate "$text2"); r_pipe2=$(rate "$pipe2")

echo
echo "verify-jws, $LINES warm lines, release build, $(nproc) cores, $(openssl version | cut -d' ' -f1-2)"
printf '%-40s %12s %10s\n' "run" "lines/s" "ratio"
printf '%-40s %12s %10s\n' "openssl speed ecdsap256 (verify/s)" "$openssl_rate" "1.00"
printf '%-40s %12s %10s\n' "--format json --jobs 1 (target >= 0.7)" "$r_json1" "$(ratio "$r_json1" "$openssl_rate")"
printf '%-40s %12s %10s\n' "  the same per CPU second (user + sys)" "$(rate "$json1_cpu")" "$(ratio "$(rate "$json1_cpu")" "$openssl_rate")"
printf '%-40s %12s %10s\n' "--format json --jobs 2 (target >= 1.3)" "$r_json2" "$(ratio "$r_json2" "$openssl_rate")"
printf '%-40s %12s %10s\n' "--format json --jobs 2, into a pipe" "$r_pipe2" "$(ratio "$r_pipe2" "$openssl_rate")"
printf '%-40s %12s %10s\n' "--format text --jobs 1 (÷ json >= 0.5)" "$r_text1" "$(ratio "$r_text1" "$r_json1") of json"
printf '%-40s %12s %10s\n' "--format text --jobs 2" "$r_text2" "$(ratio "$r_text2" "$r_json2") of json"

if [ "$MEMORY_LINES" -gt 0 ]; then
    # Every shipped vector (all verdicts, all kinds), repeated to MEMORY_LINES lines.
    cat TestVectors/jws/*.jws | grep -v '^[[:space:]]*$' > "$WORK/vectors.jws"
    awk -v n="$MEMORY_LINES" '{ line[NR] = $0 } END { for (i = 0; i < n; i++) print line[i % NR + 1] }' \
        "$WORK/vectors.jws" > "$WORK/large.jws"
    size=$(du -m "$WORK/large.jws" | cut -f1)
    /usr/bin/time -v "$BIN" --root TestVectors/pki/root.der --format json --jobs 2 "$WORK/large.jws" \
        > /dev/null 2> "$WORK/time" || true
    rss=$(awk -F: '/Maximum resident set size/ { gsub(/ /, "", $2); print $2 }' "$WORK/time")
    /usr/bin/time -v "$BIN" --root TestVectors/pki/root.der --format json --jobs 2 - < "$WORK/large.jws" \
        > /dev/null 2> "$WORK/time-stdin" || true
    rss_stdin=$(awk -F: '/Maximum resident set size/ { gsub(/ /, "", $2); print $2 }' "$WORK/time-stdin")
    echo
    echo "peak RSS, $MEMORY_LINES lines ($size MB), --jobs 2: $((rss / 1024)) MB from a file, $((rss_stdin / 1024)) MB from standard input (target < 100 MB)"
fi
