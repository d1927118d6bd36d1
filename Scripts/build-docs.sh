#!/usr/bin/env bash
# Builds the DocC documentation of the AppStoreVerification library with the toolchain's own
# `docc`, over the symbol graph the compiler emits, and fails on any warning (a broken symbol link,
# an unknown parameter, ...). Nothing is added to Package.swift, so library users resolve no
# documentation plug-in.
#
#     Scripts/build-docs.sh [OUTPUT_DIR]      # default: .build-docs/AppStoreVerification.doccarchive
#
# The build uses its own scratch path (.build-docs), so it never invalidates the normal build.
set -euo pipefail
cd "$(dirname "$0")/.."

SCRATCH=.build-docs
OUTPUT="${1:-$SCRATCH/AppStoreVerification.doccarchive}"
SYMBOLS="$SCRATCH/symbol-graphs"
# Builds take the machine-wide build lock when there is one (SWIFT_BUILD_LOCK= turns it off).
LOCK_FILE="${SWIFT_BUILD_LOCK-/tmp/swift-build.lock}"
LOCK=()
if [ -n "$LOCK_FILE" ] && command -v flock >/dev/null 2>&1; then LOCK=(flock "$LOCK_FILE"); fi

DOCC="$(command -v docc || true)"
if [ -z "$DOCC" ]; then
    DOCC="$(dirname "$(readlink -f "$(command -v swift)")")/docc"
fi
if [ ! -x "$DOCC" ]; then
    echo "build-docs: docc not found beside swift ($DOCC); install a Swift toolchain that ships it" >&2
    exit 1
fi

# Build the library, then extract its whole public interface from the built module with the
# toolchain's swift-symbolgraph-extract (what `swift package dump-symbol-graph` runs, for this one
# module; symbol graphs emitted by the compiler during a batch-mode build can miss files).
"${LOCK[@]}" swift build --scratch-path "$SCRATCH" --target AppStoreVerification >&2
BIN="$(swift build --scratch-path "$SCRATCH" --show-bin-path)"
TRIPLE="$(basename "$(dirname "$BIN")")"
EXTRACT="$(dirname "$DOCC")/swift-symbolgraph-extract"
rm -rf "$SYMBOLS"
mkdir -p "$SYMBOLS"
"$EXTRACT" -module-name AppStoreVerification -target "$TRIPLE" \
    -I "$BIN/Modules" \
    -Xcc "-fmodule-map-file=$BIN/CAppStoreOpenSSL.build/module.modulemap" \
    -Xcc -I -Xcc "$PWD/Sources/CAppStoreOpenSSL/include" \
    -Xcc "-fmodule-map-file=$PWD/Sources/COpenSSL/module.modulemap" \
    -module-cache-path "$BIN/ModuleCache" \
    -minimum-access-level public -output-dir "$SYMBOLS"

rm -rf "$OUTPUT"
"$DOCC" convert Sources/AppStoreVerification/Documentation.docc \
    --additional-symbol-graph-dir "$SYMBOLS" \
    --fallback-display-name AppStoreVerification \
    --fallback-bundle-identifier swift-app-store-verification.AppStoreVerification \
    --output-path "$OUTPUT" \
    --warnings-as-errors
echo "build-docs: $OUTPUT"
