import AppStoreVerification
import AppStoreVerificationTesting
import Foundation

/// Signed data minted in process with a test PKI shaped like Apple's (the Testing product's
/// ``TestPKI`` and ``SignedDataMinter``): for tests about what the tool prints once a signature
/// holds, in the library's tests and the tool's.
public struct MintedJWS: Sendable {
    /// One PKI for the whole test run, and its root in a file for `--root`.
    private static let shared: Result<(pki: TestPKI, rootFile: URL), any Error> = Result {
        let pki = try TestPKI()
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("minted-root-\(getpid())-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try ProcessRunner.deleteWhenThisProcessEnds(directory)
        let rootFile = directory.appendingPathComponent("root.der")
        try pki.rootDER.write(to: rootFile)
        return (pki, rootFile)
    }

    /// The PKI that signs (one for the whole test run).
    public let pki: TestPKI
    private let minter: SignedDataMinter
    private let root: URL

    /// A minter over the run's PKI.
    public init() throws {
        (pki, root) = try Self.shared.get()
        minter = try SignedDataMinter(pki: pki)
    }

    /// `payload` (a JSON text, signed exactly as given) with header `alg` ES256 and x5c
    /// [leaf, intermediate, root].
    public func sign(_ payload: String) throws -> String {
        try minter.sign(payloadJSON: Data(payload.utf8))
    }

    /// A PKCS#7 app receipt (DER) whose signed content is `payload`, exactly as given.
    public func receipt(_ payload: [UInt8]) throws -> Data {
        try minter.appReceipt(payload: Data(payload))
    }

    /// A verifier trusting the minted roots, Sandbox, `com.example.app`.
    public func verifier() throws -> SignedDataVerifier {
        try SignedDataVerifier(configuration: pki.verifierConfiguration())
    }

    /// The minted root's file, for the tool's `--root`.
    public func rootFile() -> URL { root }

    /// The transaction payload of TestVectors' transaction-valid with `replacements` (member name →
    /// raw JSON text) applied and `extra` members appended.
    public static func transaction(_ replacements: [String: String] = [:], extra: [(String, String)] = []) -> String {
        var members: [(String, String)] = [
            ("transactionId", "\"2000000123456789\""), ("originalTransactionId", "\"2000000100000001\""),
            ("bundleId", "\"com.example.app\""), ("productId", "\"com.example.app.premium.monthly\""),
            ("purchaseDate", "1772366340000"), ("originalPurchaseDate", "1767268740000"),
            ("expiresDate", "1775044740000"), ("quantity", "1"), ("type", "\"Auto-Renewable Subscription\""),
            ("inAppOwnershipType", "\"PURCHASED\""), ("signedDate", "1772366400000"), ("environment", "\"Sandbox\""),
        ]
        members = members.map { ($0.0, replacements[$0.0] ?? $0.1) }
        members += extra
        return "{" + members.map { "\"\($0.0)\":\($0.1)" }.joined(separator: ",") + "}"
    }
}
