// Runs one verification scenario in a loop, for profilers (`perf record`, `valgrind --tool=callgrind`):
//
//     swift build --package-path Benchmarks -c release --product ProfileLoop
//     perf record -g Benchmarks/.build/release/ProfileLoop newleaf 20000
//
// Scenarios: warm (same chain, cache on), newleaf (a new leaf each time under a known intermediate),
// cold (cache off: full path validation each time), floor (raw ES256: SHA-256 of the signing input
// + ECDSA), floor-digest (ECDSA over a precomputed digest), floor-newleaf (raw P-384
// leaf-certificate check + ES256), floor-newleaf-parsed (the same plus parsing the leaf), decode,
// receipt (a minted app receipt, warm receipt-chain cache), receipt-floor (its RSA signature + the
// leaf's RSA certificate signature, pre-parsed).
@_spi(Benchmarking) import AppStoreVerification
import BenchmarkCorpus
import Foundation

let arguments = CommandLine.arguments
let scenario = arguments.count > 1 ? arguments[1] : "warm"
let iterations = arguments.count > 2 ? Int(arguments[2]) ?? 10_000 : 10_000
let corpus = Corpus.load()
var notVerified = 0
let start = Date()
switch scenario {
case "warm", "newleaf", "cold":
    let verifier = corpus.makeVerifier(chainCacheCapacity: scenario == "cold" ? 0 : 64)
    for index in 0..<iterations {
        let jws = scenario == "warm" ? corpus.warm : corpus.cold[index % corpus.cold.count]
        if (try? verifier.verifyTransaction(jws))?.isVerified != true { notVerified += 1 }
    }
case "floor":
    let floor = try RawVerificationFloor(jws: corpus.warm)
    for _ in 0..<iterations where !floor.verifyES256() { notVerified += 1 }
case "floor-digest":
    let floor = try RawVerificationFloor(jws: corpus.warm)
    for _ in 0..<iterations where !floor.verifyES256Digest() { notVerified += 1 }
case "floor-newleaf", "floor-newleaf-parsed":
    let floors = try corpus.cold.map { try RawVerificationFloor(jws: $0) }
    for index in 0..<iterations {
        let floor = floors[index % floors.count]
        let leaf = scenario == "floor-newleaf" ? floor.verifyLeafCertificateSignature() : floor.parseAndVerifyLeafCertificate()
        if !leaf || !floor.verifyES256() { notVerified += 1 }
    }
case "receipt", "receipt-floor":
    // The minted SHA-256 receipt (TestVectors/receipts), its RSA test PKI trusted, chain cache warm.
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    let receipt = try Data(contentsOf: root.appendingPathComponent("TestVectors/receipts/valid-sha256.der"))
    if scenario == "receipt-floor" {
        let floor = try RawReceiptVerificationFloor(receipt: receipt)
        for _ in 0..<iterations where !(floor.verifyReceiptSignature() && floor.verifyLeafCertificateSignature()) { notVerified += 1 }
    } else {
        let receiptRoot = try TrustedRoot(derEncoded: Data(contentsOf: root.appendingPathComponent("TestVectors/receipts/pki/root.der")))
        var configuration = SignedDataVerifier.Configuration(bundleId: "com.example.app")
        configuration.receiptRoots = [receiptRoot]
        let receiptVerifier = try SignedDataVerifier(configuration: configuration)
        for _ in 0..<iterations where (try? receiptVerifier.verifyAppReceipt(receipt))?.isVerified != true { notVerified += 1 }
    }
case "decode":
    let payload = try CompactJWS(parsing: corpus.warm).payloadData
    for _ in 0..<iterations where (try? AppStoreJSON.decode(Transaction.self, from: payload)) == nil { notVerified += 1 }
default:
    FileHandle.standardError.write(Data("ProfileLoop: unknown scenario \(scenario)\n".utf8))
    exit(2)
}
let seconds = Date().timeIntervalSince(start)
print("\(scenario): \(iterations) in \(String(format: "%.2f", seconds)) s, \(String(format: "%.1f", seconds / Double(iterations) * 1e6)) µs each; not verified: \(notVerified)")
exit(notVerified == 0 ? 0 : 1)
