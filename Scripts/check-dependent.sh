#!/usr/bin/env bash
# What a new dependent gets: a fresh package that depends on this one with the plain line a user
# writes (`.package(path:)`, no traits), verifies with AppStoreVerification and tests with
# AppStoreVerificationTesting. It checks that
#   1. resolving it brings no package but this one (no swift-nio, async-http-client, argument parser);
#   2. its release binary verifies the shipped transaction against the shipped test root;
#   3. that binary holds the shim's verification code but none of the Testing product's C code
#      (key generation, certificate issuance, PKCS#7 signing, OCSP responses for the test
#      responder: the asv_mint_* functions);
#   4. its API caller, on the same plain line, links no swift-nio or AsyncHTTPClient;
#   5. its test target, with AppStoreVerificationTesting and AppStoreServerAPITesting, builds and
#      passes: a minted transaction verifies, and the API client (URLSession, no trait) gets and
#      verifies one from the fake App Store on 127.0.0.1, which needs no trait and no SwiftNIO.
#
#     Scripts/check-dependent.sh [WORK_DIR]      # default: a temporary directory, removed after
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT="$PWD"
WORK="${1:-}"
if [ -z "$WORK" ]; then
    WORK="$(mktemp -d)"
    trap 'rm -rf "$WORK"' EXIT
fi
fail() { echo "check-dependent: $*" >&2; exit 1; }

mkdir -p "$WORK/Dependent/Sources/Dependent" "$WORK/Dependent/Tests/DependentTests"
cat > "$WORK/Dependent/Package.swift" <<EOF
// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "Dependent",
    platforms: [.macOS(.v13)],
    dependencies: [
        .package(path: "$ROOT"),
    ],
    targets: [
        .executableTarget(name: "Dependent", dependencies: [
            .product(name: "AppStoreVerification", package: "$(basename "$ROOT")"),
        ]),
        // The App Store Server API client on the same plain line: no trait, so it sends through
        // URLSession and links no AsyncHTTPClient or swift-nio.
        .executableTarget(name: "APICaller", dependencies: [
            .product(name: "AppStoreVerification", package: "$(basename "$ROOT")"),
            .product(name: "AppStoreServerAPI", package: "$(basename "$ROOT")"),
        ]),
        .testTarget(name: "DependentTests", dependencies: [
            .product(name: "AppStoreVerification", package: "$(basename "$ROOT")"),
            .product(name: "AppStoreVerificationTesting", package: "$(basename "$ROOT")"),
            .product(name: "AppStoreServerAPI", package: "$(basename "$ROOT")"),
            .product(name: "AppStoreServerAPITesting", package: "$(basename "$ROOT")"),
        ]),
    ]
)
EOF
cat > "$WORK/Dependent/Sources/Dependent/main.swift" <<'EOF'
import AppStoreVerification
import Foundation

// Verifies the transaction file named by the first argument against the root named by the second.
let arguments = CommandLine.arguments
guard arguments.count == 3 else {
    FileHandle.standardError.write(Data("usage: Dependent JWS_FILE ROOT_DER\n".utf8))
    exit(2)
}
do {
    let root = try TrustedRoot(derEncoded: Data(contentsOf: URL(fileURLWithPath: arguments[2])))
    let verifier = try SignedDataVerifier(configuration: .init(
        trustedRoots: [root], bundleId: "com.example.app", environment: .sandbox))
    let jws = try String(contentsOf: URL(fileURLWithPath: arguments[1]), encoding: .utf8)
    switch try verifier.verifyTransaction(jws) {
    case .verified(let transaction):
        print("verified \(transaction.transactionId)")
    case .unverified(_, let error):
        print("unverified: \(error)")
        exit(1)
    }
} catch {
    print("error: \(error)")
    exit(2)
}
EOF
mkdir -p "$WORK/Dependent/Sources/APICaller"
cat > "$WORK/Dependent/Sources/APICaller/main.swift" <<'EOF'
import AppStoreServerAPI
import AppStoreVerification
import Foundation

// Asks Get Transaction Info of BASE_URL with the .p8 key KEY_FILE, and verifies the answer against
// ROOT_DER (built to check what it links; its calls are tested against the fake in DependentTests).
let arguments = CommandLine.arguments
guard arguments.count == 4 else {
    FileHandle.standardError.write(Data("usage: APICaller BASE_URL KEY_FILE ROOT_DER\n".utf8))
    exit(2)
}
do {
    let root = try TrustedRoot(derEncoded: Data(contentsOf: URL(fileURLWithPath: arguments[3])))
    let verifier = try SignedDataVerifier(configuration: .init(trustedRoots: [root], bundleId: "com.example.app", environment: .sandbox))
    let client = AppStoreServerAPIClient(signingKey: try SigningKey(contentsOf: URL(fileURLWithPath: arguments[2])), keyId: "KEY",
                                         issuerId: "issuer", bundleId: "com.example.app", environment: try .baseURL(arguments[1]),
                                         verifier: .offline(verifier))
    switch try await client.getTransactionInfo(transactionId: "2000000123456789") {
    case .verified(let transaction): print("verified \(transaction.transactionId) over \(type(of: AppStoreServerAPIClient.defaultTransport))")
    case .unverified(_, let error): print("unverified: \(error)"); exit(1)
    }
} catch {
    print("error: \(error)")
    exit(2)
}
EOF
cat > "$WORK/Dependent/Tests/DependentTests/DependentTests.swift" <<'EOF'
import AppStoreServerAPI
import AppStoreServerAPITesting
import AppStoreVerification
import AppStoreVerificationTesting
import Foundation
import Testing

@Test func mintedTransactionVerifies() throws {
    let pki = try TestPKI()
    let minter = try SignedDataMinter(pki: pki)
    let verifier = try SignedDataVerifier(configuration: pki.verifierConfiguration())
    let jws = try minter.transaction(Transaction(transactionId: "42", productId: "com.example.pro"))
    guard case .verified(let transaction) = try verifier.verifyTransaction(jws) else {
        Issue.record("a minted transaction did not verify")
        return
    }
    #expect(transaction.transactionId == "42")
}

/// The API client of a plain dependency line (URLSession, no trait) against the fake App Store.
@Test func apiClientWithoutTheTraitGetsAndVerifiesATransaction() async throws {
    let pki = try TestPKI()
    let minter = try SignedDataMinter(pki: pki)
    let apiKey = try SigningKey(pem: try TestPrivateKey(generating: .p256).pemEncoded)
    let issuerId = "57246542-96fe-1a63-e053-0824d011072a"
    try await FakeAppStoreServerAPI.withServer(keyId: "TESTKEY123", issuerId: issuerId, bundleId: "com.example.app",
                                               publicKey: apiKey.publicKeyDER) { fake in
        fake.setTransactionInfo(try minter.transaction(Transaction(transactionId: "2000000123456789", productId: "com.example.pro")),
                                for: "2000000123456789")
        let client = AppStoreServerAPIClient(signingKey: apiKey, keyId: "TESTKEY123", issuerId: issuerId, bundleId: "com.example.app",
                                             environment: try .baseURL(fake.baseURL),
                                             verifier: .offline(try SignedDataVerifier(configuration: pki.verifierConfiguration())))
        guard case .verified(let transaction) = try await client.getTransactionInfo(transactionId: "2000000123456789") else {
            Issue.record("the transaction from the fake did not verify")
            return
        }
        #expect(transaction.transactionId == "2000000123456789")
        #expect("\(type(of: AppStoreServerAPIClient.defaultTransport))" == "URLSessionAPITransport")
    }
}
EOF

cd "$WORK/Dependent"
echo "check-dependent: resolving a plain dependency line"
swift package resolve >/dev/null
pins="$(swift package show-dependencies --format json | python3 -c '
import json, sys
def walk(node):
    for dependency in node.get("dependencies", []):
        yield dependency["identity"]
        yield from walk(dependency)
print(" ".join(sorted(set(walk(json.load(sys.stdin))))))')"
[ "$pins" = "$(basename "$ROOT" | tr 'A-Z' 'a-z')" ] || fail "a plain dependency line resolved more than this package: $pins"
echo "check-dependent: resolved only $pins"

echo "check-dependent: release build"
swift build -c release --product Dependent 2>&1 | tail -n 1
binary="$(swift build -c release --show-bin-path)/Dependent"
output="$("$binary" "$ROOT/TestVectors/jws/transaction-valid.jws" "$ROOT/TestVectors/pki/root.der")"
[[ "$output" == verified* ]] || fail "the dependent did not verify the shipped transaction: $output"
echo "check-dependent: $output"

symbols="$(nm "$binary")"
grep -q " [Tt] asv_" <<<"$symbols" || fail "the release binary holds no asv_ symbol at all: the check would prove nothing"
if grep -q "asv_mint_" <<<"$symbols"; then
    grep "asv_mint_" <<<"$symbols" >&2
    fail "the release binary of a verifying dependent holds the Testing product's C code (asv_mint_*)"
fi
echo "check-dependent: the release binary holds $(grep -c ' T asv_' <<<"$symbols") shim functions and no asv_mint_* symbol"

# The API client over the same plain line links neither swift-nio nor AsyncHTTPClient (its calls
# are tested against the fake App Store in the dependent's tests, below).
echo "check-dependent: the API client without the trait (URLSession)"
swift build -c release --product APICaller 2>&1 | tail -n 1
caller="$(swift build -c release --show-bin-path)/APICaller"
if grep -qE "NIOCore|AsyncHTTPClient" <<<"$(nm "$caller")"; then fail "the API caller of a plain dependency line links swift-nio or AsyncHTTPClient"; fi

echo "check-dependent: the dependent's tests, with AppStoreVerificationTesting and AppStoreServerAPITesting"
test_output="$(swift test 2>&1)" || { echo "$test_output" >&2; fail "the dependent's tests failed"; }
tail -n 3 <<<"$test_output"
# The control: the test bundle links the Testing product, so the same look finds its C code there.
bundle="$(swift build --show-bin-path)/DependentPackageTests.xctest"
grep -q "asv_mint_" <<<"$(nm "$bundle")" || fail "the dependent's test bundle holds no asv_mint_* symbol: the release check would prove nothing"
echo "check-dependent: the test bundle, which links AppStoreVerificationTesting, holds the asv_mint_* symbols"
if grep -qE "NIOCore|AsyncHTTPClient" <<<"$(nm "$bundle")"; then fail "the dependent's test bundle (with the fake App Store) links swift-nio or AsyncHTTPClient"; fi
echo "check-dependent: the fake App Store needs neither swift-nio nor AsyncHTTPClient"
