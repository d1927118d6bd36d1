#!/usr/bin/env bash
# Builds the DocC documentation of every public product, each from its own catalog, with the
# toolchain's own `docc` over the symbol graph of the built module, and fails on any warning (a
# broken symbol link, an unknown parameter, ...): AppStoreVerification, AppStoreVerificationTesting,
# AppStoreServerAPI and AppStoreServerAPITesting (the last two built with the `ServerAPIClient` trait). Nothing is added to Package.swift,
# so library users resolve no documentation plug-in.
#
#     Scripts/build-docs.sh [OUTPUT_DIR]      # default: .build-docs
#
# It writes OUTPUT_DIR/MODULE.doccarchive for each module. To read one:
#     docc preview Sources/MODULE/Documentation.docc --additional-symbol-graph-dir .build-docs/symbol-graphs/MODULE
# (a local web server on port 8080), or turn an archive into a static site and serve it:
#     docc process-archive transform-for-static-hosting .build-docs/MODULE.doccarchive --output-path site
#     python3 -m http.server --directory site     # then open http://localhost:8000/documentation/MODULE
# (`docc` is beside `swift` in the toolchain).
#
# The build uses the default scratch path with the same traits as the test suite
# (`--traits ServerAPIClient`), so after `Scripts/test.sh` nothing is compiled again.
set -euo pipefail
cd "$(dirname "$0")/.."

OUTPUT="${1:-.build-docs}"
SYMBOLS=".build-docs/symbol-graphs"
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

MODULES=(AppStoreVerification AppStoreVerificationTesting AppStoreServerAPI AppStoreServerAPITesting)
for module in "${MODULES[@]}"; do
    "${LOCK[@]}" swift build --traits ServerAPIClient --target "$module" >&2
done
BIN="$(swift build --traits ServerAPIClient --show-bin-path)"
TRIPLE="$(basename "$(dirname "$BIN")")"
EXTRACT="$(dirname "$DOCC")/swift-symbolgraph-extract"
# Every C module the Swift modules import, this package's and the dependencies' (SwiftNIO's shims,
# for AppStoreServerAPI): the module maps SwiftPM generated, and those the packages ship.
CLANG_MODULES=(-Xcc "-fmodule-map-file=$PWD/Sources/COpenSSL/module.modulemap")
for map in "$BIN"/*.build/module.modulemap .build/checkouts/*/Sources/*/include/module.modulemap; do
    [ -f "$map" ] || continue
    CLANG_MODULES+=(-Xcc "-fmodule-map-file=$PWD/${map#"$PWD/"}")
done
for include in Sources/*/include .build/checkouts/*/Sources/*/include; do
    [ -d "$include" ] && CLANG_MODULES+=(-Xcc -I -Xcc "$PWD/$include")
done
mkdir -p "$OUTPUT"
for module in "${MODULES[@]}"; do
    # The module's whole public interface, extracted from the built module with the toolchain's
    # swift-symbolgraph-extract (what `swift package dump-symbol-graph` runs, for one module;
    # symbol graphs emitted by the compiler during a batch-mode build can miss files).
    rm -rf "${SYMBOLS:?}/$module"
    mkdir -p "$SYMBOLS/$module"
    "$EXTRACT" -module-name "$module" -target "$TRIPLE" \
        -I "$BIN/Modules" "${CLANG_MODULES[@]}" \
        -module-cache-path "$BIN/ModuleCache" \
        -minimum-access-level public -output-dir "$SYMBOLS/$module"
    rm -rf "$OUTPUT/$module.doccarchive"
    "$DOCC" convert "Sources/$module/Documentation.docc" \
        --additional-symbol-graph-dir "$SYMBOLS/$module" \
        --fallback-display-name "$module" \
        --fallback-bundle-identifier "swift-app-store-verification.$module" \
        --output-path "$OUTPUT/$module.doccarchive" \
        --warnings-as-errors
    echo "build-docs: $OUTPUT/$module.doccarchive"
done
