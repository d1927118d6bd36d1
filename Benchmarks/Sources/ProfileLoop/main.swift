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
//
// Online (Corpus/online.jws and its pre-signed OCSP answers, Scripts/make-online-corpus.py):
// online-offline (the synchronous offline path), async-offline (the offline verifier called from an
// async function), online-warm (OnlineSignedDataVerifier, OCSP cache warmed before the loop; a
// request in the loop stops the process), and online-compare N [ROUNDS] (ROUNDS rounds, default 15,
// each running N of the three in turn; prints the median and best µs of each and the ratios).
//
// Signing (a P-256 key generated for the run): sign-floor (SHA-256 + ECDSA of a 300-byte message,
// pre-parsed key) and sign (a promotional offer V2 JWS: claims, base64url, ES256).
// Scripts/sign-compare.sh runs them beside `openssl speed ecdsap256`.
import AppStoreVerification
import AppStoreVerificationBenchmarkSupport
import AppStoreVerificationTesting
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
    // The minted SHA-256 receipt (TestVectors/receipts), its RSA test PKI trusted, chain cache warm;
    // or, with RECEIPT_FILE=PATH, that receipt (DER or base64) under the default root, Apple Root CA.
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    let receiptFile = ProcessInfo.processInfo.environment["RECEIPT_FILE"]
    var receipt = try Data(contentsOf: receiptFile.map(URL.init(fileURLWithPath:)) ?? root.appendingPathComponent("TestVectors/receipts/valid-sha256.der"))
    if receipt.first != 0x30, let decoded = Data(base64Encoded: receipt, options: .ignoreUnknownCharacters) { receipt = decoded }
    if scenario == "receipt-floor" {
        let floor = try RawReceiptVerificationFloor(receipt: receipt)
        for _ in 0..<iterations where !(floor.verifyReceiptSignature() && floor.verifyLeafCertificateSignature()) { notVerified += 1 }
    } else {
        let receiptRoot = try TrustedRoot(derEncoded: Data(contentsOf: root.appendingPathComponent("TestVectors/receipts/pki/root.der")))
        var configuration = SignedDataVerifier.Configuration(bundleId: receiptFile == nil ? "com.example.app" : nil)
        if receiptFile == nil { configuration.trustedReceiptRoots = [receiptRoot] }
        let receiptVerifier = try SignedDataVerifier(configuration: configuration)
        for _ in 0..<iterations where (try? receiptVerifier.verifyAppReceipt(receipt))?.isVerified != true { notVerified += 1 }
    }
case "online-offline", "async-offline", "online-warm":
    let online = OnlineCorpus.load()
    let loop = OnlineLoop(online: online, kind: OnlineLoop.Kind(rawValue: scenario)!)
    notVerified = blocking { await loop.run(iterations) }
case "online-compare":
    let rounds = arguments.count > 3 ? Int(arguments[3]) ?? 15 : 15
    let online = OnlineCorpus.load()
    let loops = OnlineLoop.Kind.allCases.map { OnlineLoop(online: online, kind: $0) }
    notVerified = blocking {
        var failures = 0
        var times: [[Double]] = Array(repeating: [], count: loops.count)
        for loop in loops { failures += await loop.run(min(iterations, 1_000)) }  // warm every cache
        for _ in 0..<rounds {
            for (index, loop) in loops.enumerated() {
                let start = ContinuousClock.now
                failures += await loop.run(iterations)
                times[index].append((ContinuousClock.now - start) / .microseconds(1) / Double(iterations))
            }
        }
        func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }
        let medians = times.map(median)
        let bests = times.map { $0.min() ?? 0 }
        for (index, loop) in loops.enumerated() {
            print("\(loop.kind.rawValue): median \(String(format: "%.2f", medians[index])) µs, best \(String(format: "%.2f", bests[index])) µs (\(rounds) rounds of \(iterations))")
        }
        print("online-warm / async-offline: median \(String(format: "%.3f", medians[2] / medians[1])), best \(String(format: "%.3f", bests[2] / bests[1]))")
        print("online-warm / online-offline: median \(String(format: "%.3f", medians[2] / medians[0])), best \(String(format: "%.3f", bests[2] / bests[0]))")
        return failures
    }
case "sign-floor", "sign":
    let pem = try TestPrivateKey(generating: .p256).pemEncoded
    if scenario == "sign-floor" {
        let floor = try RawSigningFloor(pem: pem, message: Array(repeating: 0x61, count: 300))
        for _ in 0..<iterations where !floor.signES256() { notVerified += 1 }
    } else {
        let creator = try PromotionalOfferV2SignatureCreator(signingKey: pem, keyId: "ABCDEFGHIJ", issuerId: "issuer", bundleId: "com.example.app")
        for _ in 0..<iterations where (try? creator.createSignature(productId: "com.example.pro", offerIdentifier: "WINBACK"))?.isEmpty != false { notVerified += 1 }
    }
case "decode":
    let payload = try CompactJWS(parsing: corpus.warm).payloadData
    for _ in 0..<iterations where (try? AppStoreJSON.decode(Transaction.self, from: payload)) == nil { notVerified += 1 }
default:
    FileHandle.standardError.write(Data("ProfileLoop: unknown scenario \(scenario)\n".utf8))
    exit(2)
}
let seconds = Date().timeIntervalSince(start)
if scenario != "online-compare" {  // which prints its own figures
    print("\(scenario): \(iterations) in \(String(format: "%.2f", seconds)) s, \(String(format: "%.1f", seconds / Double(iterations) * 1e6)) µs each; not verified: \(notVerified)")
} else {
    print("not verified: \(notVerified)")
}
exit(notVerified == 0 ? 0 : 1)

/// One of the online-corpus scenarios; `run` stays on the generic executor (no actor hop per call).
struct OnlineLoop: Sendable {
    enum Kind: String, CaseIterable, Sendable {
        case onlineOffline = "online-offline", asyncOffline = "async-offline", onlineWarm = "online-warm"
    }

    let online: OnlineCorpus
    let kind: Kind
    let verifier: SignedDataVerifier
    private let onlineVerifier: OnlineSignedDataVerifier?
    private let transport: CorpusOCSPTransport?

    init(online: OnlineCorpus, kind: Kind) {
        self.online = online
        self.kind = kind
        let transport = kind == .onlineWarm ? online.makeTransport() : nil
        self.transport = transport
        verifier = online.makeVerifier()
        onlineVerifier = transport.map { online.makeOnlineVerifier(transport: $0) }
    }

    /// Runs `iterations` verifications (the first call warms the OCSP cache first); returns how many
    /// were not `.verified`.
    func run(_ iterations: Int) async -> Int {
        if let transport, let onlineVerifier, transport.requests == 0 {
            await online.warmUp(onlineVerifier, transport)
        }
        var failures = 0
        switch kind {
        case .onlineOffline:
            for _ in 0..<iterations where !Self.syncVerified(verifier, online.jws) { failures += 1 }
        case .asyncOffline:
            for _ in 0..<iterations where await Self.asyncVerified(verifier, online.jws) != true { failures += 1 }
        case .onlineWarm:
            guard let onlineVerifier else { return iterations }
            for _ in 0..<iterations where (try? await onlineVerifier.verifyTransaction(online.jws))?.isVerified != true { failures += 1 }
        }
        return failures
    }

    /// The offline verifier called from an async function, as the online one is.
    private static func asyncVerified(_ verifier: SignedDataVerifier, _ jws: String) async -> Bool {
        (try? verifier.verifyTransaction(jws))?.isVerified == true
    }

    /// The synchronous entry point, from a synchronous function.
    private static func syncVerified(_ verifier: SignedDataVerifier, _ jws: String) -> Bool {
        (try? verifier.verifyTransaction(jws))?.isVerified == true
    }
}

/// Runs `body` on the cooperative pool and waits for it (the top level stays synchronous, so the
/// other scenarios keep the synchronous overloads).
func blocking(_ body: @escaping @Sendable () async -> Int) -> Int {
    final class Box: @unchecked Sendable { var value = 0 }
    let box = Box()
    let done = DispatchSemaphore(value: 0)
    Task.detached {
        box.value = await body()
        done.signal()
    }
    done.wait()
    return box.value
}
