#!/usr/bin/env bash
# Checks that the shell commands the pages show still do what the pages say: every fenced code
# block of README.md, ReceiptServer/README.md, ReceiptServer/Docs/*.md, Examples/README.md and the
# DocC articles (Sources/*/Documentation.docc/*.md).
#
#     bash Scripts/check-docs.sh [FILE.md...]
#
# Rules, per fenced block:
# - Every block names its language (```swift, ```json, ```text, ```sh, ```console, ...): a block
#   without one could hide a command from this check.
# - A ```console block is run: each line starting with "$ " is a command (a line ending in "\"
#   continues it), the lines after it up to the next command are its output (standard output and
#   error together). Each shown line must match a line of the real output, in order; "..." (or "…")
#   in a shown line matches any text, and real lines the page leaves out are allowed. Every
#   command must exit with status 0: to show a failure, show its status (`...; echo "exit $?"`).
# - A ```sh or ```bash block is run as one script (bash -euo pipefail) and must exit with status 0.
# - A shell block is not run when the line before it (blank lines aside) is
#     <!-- illustrative: REASON -->        (a placeholder URL, a key you do not have, a server ...)
#     <!-- ci: FILE -->                     (every command line of the block is run by FILE, e.g.
#                                             .ci/run, which this check verifies word for word)
# - A Swift block preceded by <!-- from: PATH --> must appear, line for line (indentation aside),
#   in PATH, a source file CI compiles (Examples/Tests/..., Tests/...).
#
# Blocks run in a scratch directory whose entries link to the repository's top-level entries (so
# TestVectors/... and --package-path Tools resolve, and files a block writes land in the scratch
# directory), with a time limit each, on 127.0.0.1 only, and with these commands on PATH:
# - verify-jws: the tool CI built (Tools/.build/debug/verify-jws; VERIFY_JWS overrides);
# - swift: `swift run` runs the product without building (`--skip-build`; `-c release` reads as the
#   debug build CI made, and `--traits ServerAPIClient` in Tools/ as Tools/.build-api, where
#   Scripts/test.sh builds it), so a wrong product or package path fails as it would for a reader;
#   `swift build` checks the same of its `--product` and builds nothing. Other swift commands fail:
#   mark their blocks.
# Nothing is compiled: CI runs this after it has built Tools/ (the README's first command).
set -euo pipefail
cd "$(dirname "$0")/.."
repo="$(pwd)"

files=("$@")
if [ ${#files[@]} -eq 0 ]; then
    files=(README.md ReceiptServer/README.md Examples/README.md)
    for f in ReceiptServer/Docs/*.md Sources/*/Documentation.docc/*.md; do [ -f "$f" ] && files+=("$f"); done
fi

verify_jws="${VERIFY_JWS:-$repo/Tools/.build/debug/verify-jws}"
if [ ! -x "$verify_jws" ]; then
    echo "check-docs: $verify_jws is missing: build it first (swift build --package-path Tools)" >&2
    exit 1
fi
real_swift="$(command -v swift || true)"
block_timeout="${CHECK_DOCS_TIMEOUT:-30}"

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/bin"
ln -s "$verify_jws" "$work/bin/verify-jws"

# The `swift` the blocks see.
cat >"$work/bin/swift" <<SHIM
#!/usr/bin/env bash
set -euo pipefail
real_swift="$real_swift"
repo="$repo"
SHIM
cat >>"$work/bin/swift" <<'SHIM'
command="${1:-}"; shift || true
case "$command" in
run|build) ;;
*) echo "check-docs: 'swift $command' is not run by the docs check: mark the block <!-- ci: FILE --> or <!-- illustrative: REASON -->" >&2; exit 1 ;;
esac
options=(); package_path="."; traits=""; product=""; rest=()
while [ $# -gt 0 ]; do
    case "$1" in
    -c|--configuration) shift 2 ;;                  # the debug build CI made stands for any configuration
    --package-path) package_path="$2"; options+=("$1" "$2"); shift 2 ;;
    --traits) traits="$2"; shift 2 ;;
    --product) product="$2"; shift 2 ;;
    --scratch-path) options+=("$1" "$2"); shift 2 ;;
    -*) echo "check-docs: swift $command: option $1 is not known to the docs check" >&2; exit 1 ;;
    *) if [ "$command" = run ] && [ -z "$product" ]; then product="$1"; shift; rest=("$@"); break; fi
       echo "check-docs: swift $command: unexpected argument $1" >&2; exit 1 ;;
    esac
done
if [ "$traits" = ServerAPIClient ] && [ "$(cd "$package_path" && pwd -P)" = "$(cd "$repo/Tools" && pwd -P)" ]; then
    options+=(--scratch-path "$package_path/.build-api")
elif [ -n "$traits" ]; then
    echo "check-docs: swift $command --traits $traits: no build of $package_path with these traits to reuse" >&2; exit 1
fi
if [ -z "$product" ]; then echo "check-docs: swift $command without a product" >&2; exit 1; fi
if [ "$command" = build ]; then
    # Whether the package has this executable, as `swift run` finds it, without running it.
    exec "$real_swift" run --skip-build "${options[@]}" "$product" --version >/dev/null
fi
exec "$real_swift" run --skip-build "${options[@]}" "$product" "${rest[@]}"
SHIM
chmod +x "$work/bin/swift"

# The scratch directory a block runs in.
new_scratch() {
    local dir="$work/run.$1"
    mkdir -p "$dir"
    local entry
    for entry in "$repo"/* "$repo"/.ci; do
        [ -e "$entry" ] && ln -s "$entry" "$dir/$(basename "$entry")"
    done
    echo "$dir"
}

failures=0
ran=0
marked=0
copied=0
fail() {
    echo "check-docs: $1" >&2
    failures=$((failures + 1))
}

# Whether each line of the page's block (in $1) appears in order in the real output (in $2).
matches_in_order() {
    local expected="$1" actual="$2" want got pattern
    local -a actual_lines
    mapfile -t actual_lines <"$actual"
    local index=0
    while IFS= read -r want; do
        [ -z "$want" ] && continue
        # The shown line as a glob: everything literal but "..." and "…".
        pattern=""
        local rest="$want"
        while [ -n "$rest" ]; do
            case "$rest" in
            ...*) pattern+="*"; rest="${rest:3}" ;;
            …*) pattern+="*"; rest="${rest#…}" ;;
            *) local char="${rest:0:1}"; rest="${rest:1}"
               case "$char" in
               '*'|'?'|'['|']'|'\') pattern+="\\$char" ;;
               *) pattern+="$char" ;;
               esac ;;
            esac
        done
        local found=0
        while [ $index -lt ${#actual_lines[@]} ]; do
            got="${actual_lines[$index]}"
            index=$((index + 1))
            # shellcheck disable=SC2053 # the pattern is a glob on purpose
            if [[ "$got" == $pattern ]]; then found=1; break; fi
        done
        if [ $found -eq 0 ]; then
            echo "    shown but not printed (in this order): $want"
            return 1
        fi
    done <"$expected"
}

# Runs one ```console block (its text in $3) from $1:$2.
run_console() {
    local where="$1:$2" text="$3" number="$4"
    local dir script
    dir="$(new_scratch "$number")"
    script="$work/console.$number"
    : >"$script"
    local count=0 line continuing=0 c
    local -a commands=()
    while IFS= read -r line; do
        if [ $continuing -eq 1 ]; then
            printf '%s\n' "$line" >>"$work/command.$number.$count"
            [[ "$line" == *\\ ]] || continuing=0
        elif [[ "$line" == '$ '* ]]; then
            count=$((count + 1))
            commands+=("$count")
            printf '%s\n' "${line:2}" >"$work/command.$number.$count"
            : >"$work/expected.$number.$count"
            [[ "$line" == *\\ ]] && continuing=1
        elif [ $count -gt 0 ]; then
            printf '%s\n' "$line" >>"$work/expected.$number.$count"
        else
            fail "$where: a console block starts with output, not a command ('\$ ...')"
            return
        fi
    done <<<"$text"
    if [ $count -eq 0 ]; then fail "$where: a console block without a command ('\$ ...')"; return; fi
    {
        echo 'set +e'
        for c in "${commands[@]}"; do
            echo "{"
            cat "$work/command.$number.$c"
            echo "} >'$work/output.$number.$c' 2>&1 </dev/null"
            echo "echo \$? >'$work/status.$number.$c'"
        done
    } >"$script"
    (cd "$dir" && PATH="$work/bin:$PATH" timeout "$block_timeout" bash "$script") || true
    ran=$((ran + 1))
    for c in "${commands[@]}"; do
        local shown
        shown="$(head -n 1 "$work/command.$number.$c")"
        if [ ! -f "$work/status.$number.$c" ]; then
            fail "$where: \`$shown\` did not finish within ${block_timeout} s"; return
        fi
        if [ "$(cat "$work/status.$number.$c")" != 0 ]; then
            fail "$where: \`$shown\` exited with status $(cat "$work/status.$number.$c"):"
            sed 's/^/    /' "$work/output.$number.$c" | head -n 20 >&2
            continue
        fi
        if ! matches_in_order "$work/expected.$number.$c" "$work/output.$number.$c" >"$work/why" 2>&1; then
            fail "$where: \`$shown\` printed something else than the page shows:"
            cat "$work/why" >&2
            echo "    it printed:" >&2
            sed 's/^/    /' "$work/output.$number.$c" | head -n 40 >&2
        fi
    done
}

# Runs one ```sh block as a script.
run_script() {
    local where="$1:$2" text="$3" number="$4"
    local dir
    dir="$(new_scratch "$number")"
    printf '%s\n' "$text" >"$work/script.$number"
    ran=$((ran + 1))
    if ! (cd "$dir" && PATH="$work/bin:$PATH" timeout "$block_timeout" bash -euo pipefail "$work/script.$number" </dev/null >"$work/output.$number" 2>&1); then
        fail "$where: the block failed (or took over ${block_timeout} s):"
        sed 's/^/    /' "$work/output.$number" | tail -n 20 >&2
    fi
}

# Checks that each command line of a block marked <!-- ci: FILE --> is in FILE, word for word.
check_ci() {
    local where="$1:$2" text="$3" file="$4" line
    if [ ! -f "$file" ]; then fail "$where: <!-- ci: $file -->: no such file"; return; fi
    while IFS= read -r line; do
        line="${line#\$ }"
        [[ -z "$line" || "$line" == \#* ]] && continue
        line="${line%%  #*}"; line="${line%"${line##*[![:space:]]}"}"
        if ! grep -qF -- "$line" "$file"; then
            fail "$where: \`$line\` is not run by $file (marked <!-- ci: $file -->)"
        fi
    done <<<"$text"
    marked=$((marked + 1))
}

# Checks that a Swift block marked <!-- from: PATH --> is in PATH, line for line.
check_from() {
    local where="$1:$2" text="$3" file="$4"
    if [ ! -f "$file" ]; then fail "$where: <!-- from: $file -->: no such file"; return; fi
    local block source
    block="$(sed -e 's/^[[:space:]]*//' -e 's/[[:space:]]*$//' <<<"$text" | grep -v '^$' || true)"
    source="$(sed -e 's/^[[:space:]]*//' -e 's/[[:space:]]*$//' "$file" | grep -v '^$' || true)"
    if [[ $'\n'"$source"$'\n' != *$'\n'"$block"$'\n'* ]]; then
        fail "$where: the block is not a run of lines of $file (marked <!-- from: $file -->)"
        diff <(printf '%s\n' "$block") <(printf '%s\n' "$source") | grep '^<' | head -n 5 | sed 's/^/    /' >&2 || true
    fi
    copied=$((copied + 1))
}

number=0
for file in "${files[@]}"; do
    in_block=0; fence=""; language=""; start=0; text=""; marker=""; line_number=0; last=""
    while IFS= read -r line || [ -n "$line" ]; do
        line_number=$((line_number + 1))
        if [ $in_block -eq 0 ]; then
            if [[ "$line" =~ ^[[:space:]]*(\`\`\`+)(.*)$ ]]; then
                fence="${BASH_REMATCH[1]}"; language="${BASH_REMATCH[2]}"; language="${language// /}"
                in_block=1; start=$line_number; text=""
                marker=""
                [[ "$last" =~ ^[[:space:]]*\<!--[[:space:]]*(.*[^[:space:]])[[:space:]]*--\>[[:space:]]*$ ]] && marker="${BASH_REMATCH[1]}"
                continue
            fi
            [[ "$line" =~ [^[:space:]] ]] && last="$line"
            continue
        fi
        if [[ "$line" =~ ^[[:space:]]*\`\`\`+[[:space:]]*$ ]]; then
            in_block=0; last=""
            number=$((number + 1))
            text="${text%$'\n'}"
            where="$file"
            if [ -z "$language" ]; then
                fail "$where:$start: a code block without a language (\`\`\`text for a synopsis, \`\`\`console or \`\`\`sh for commands)"
                continue
            fi
            case "$marker" in
            illustrative:*)
                reason="${marker#illustrative:}"; reason="${reason# }"
                if [ -z "$reason" ]; then fail "$where:$start: <!-- illustrative: --> without a reason"; fi
                marked=$((marked + 1)); continue ;;
            ci:*) check_ci "$where" "$start" "$text" "$(sed 's/^ *//' <<<"${marker#ci:}")"; continue ;;
            from:*) check_from "$where" "$start" "$text" "$(sed 's/^ *//' <<<"${marker#from:}")"; continue ;;
            esac
            case "$language" in
            console|shell-session) run_console "$where" "$start" "$text" "$number" ;;
            sh|bash|shell|zsh) run_script "$where" "$start" "$text" "$number" ;;
            esac
            continue
        fi
        text+="$line"$'\n'
    done <"$file"
    if [ $in_block -eq 1 ]; then fail "$file:$start: a code block that is never closed"; fi
done

echo "check-docs: ${#files[@]} pages, $ran shell blocks run, $marked marked (illustrative or run by CI), $copied Swift blocks matched to compiled files, $failures failures"
[ $failures -eq 0 ]
