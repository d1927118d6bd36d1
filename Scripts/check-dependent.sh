#!/usr/bin/env bash
# What a new dependent gets: a fresh package that depends on this one with the plain line a user
# writes (`.package(path:)`, no traits), verifies with AppStoreVerification and tests with
# AppStoreVerificationTesting. It checks that
#   1. resolving it brings no package but this one (no swift-nio, async-http-client, argument parser);
#   2. its release binary verifies the shipped transaction against the shipped test root;
#   3. that binary holds the shim's verification code but none of the Testing product's C code
#      (key generation, certificate issuance, PKCS#7 signing, OCSP responses for the test
#      responder: the asv_mint_* functions);
#   4. its test target, with AppStoreVerificationTesting, builds and passes.
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

// Asks Get Transaction Info of BASE_URL (a fake on 127.0.0.1) with the .p8 key KEY_FILE, and
// verifies the answer against ROOT_DER.
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
import AppStoreVerification
import AppStoreVerificationTesting
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

# The API client over the same plain line, against a small Apple-shaped server on 127.0.0.1 that
# wants a bearer token and answers with the shipped transaction.
echo "check-dependent: the API client without the trait (URLSession), against a fake on 127.0.0.1"
swift build -c release --product APICaller 2>&1 | tail -n 1
caller="$(swift build -c release --show-bin-path)/APICaller"
openssl ecparam -genkey -name prime256v1 -noout 2>/dev/null | openssl pkcs8 -topk8 -nocrypt -out "$WORK/key.p8"
cat > "$WORK/fake.py" <<'PY'
import http.server, json, sys
jws = open(sys.argv[1]).read().strip()
class Fake(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        ok = self.path.startswith("/inApps/v1/transactions/") and self.headers.get("Authorization", "").startswith("Bearer ey")
        body = json.dumps({"signedTransactionInfo": jws} if ok else {"errorCode": 4010000, "errorMessage": "no"}).encode()
        self.send_response(200 if ok else 401)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)
    def log_message(self, *args):
        pass
server = http.server.HTTPServer(("127.0.0.1", 0), Fake)
print(server.server_address[1], flush=True)
server.timeout = 60
server.handle_request()
PY
python3 "$WORK/fake.py" "$ROOT/TestVectors/jws/transaction-valid.jws" > "$WORK/fake.port" &
fake_pid=$!
for _ in $(seq 1 100); do [ -s "$WORK/fake.port" ] && break; sleep 0.1; done
api_output="$(timeout 60 "$caller" "http://127.0.0.1:$(cat "$WORK/fake.port")" "$WORK/key.p8" "$ROOT/TestVectors/pki/root.der" || true)"
kill "$fake_pid" 2>/dev/null || true
wait "$fake_pid" 2>/dev/null || true
[ "$api_output" = "verified 2000000123456789 over URLSessionAPITransport" ] || fail "the API client without the trait did not get and verify a transaction: $api_output"
echo "check-dependent: $api_output"
if grep -qE "NIOCore|AsyncHTTPClient" <<<"$(nm "$caller")"; then fail "the API caller of a plain dependency line links swift-nio or AsyncHTTPClient"; fi

echo "check-dependent: the dependent's tests, with AppStoreVerificationTesting"
swift test 2>&1 | tail -n 3
# The control: the test bundle links the Testing product, so the same look finds its C code there.
bundle="$(swift build --show-bin-path)/DependentPackageTests.xctest"
grep -q "asv_mint_" <<<"$(nm "$bundle")" || fail "the dependent's test bundle holds no asv_mint_* symbol: the release check would prove nothing"
echo "check-dependent: the test bundle, which links AppStoreVerificationTesting, holds the asv_mint_* symbols"
