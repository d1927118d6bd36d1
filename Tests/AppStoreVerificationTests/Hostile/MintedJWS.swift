import Foundation
@testable import AppStoreVerification

/// JWS signed in process by a test PKI shaped like Apple's (``AppleOracle/MintedPKI``): for tests
/// about what happens after the signature holds.
struct MintedJWS {
    /// One PKI for the whole test run (key generation and certificate signing cost milliseconds).
    nonisolated(unsafe) static let pki: AppleOracle.MintedPKI? = try? AppleOracle.MintedPKI()

    let pki: AppleOracle.MintedPKI

    init() throws {
        guard let pki = Self.pki else { throw OracleFailure("the minted test PKI could not be made") }
        self.pki = pki
    }

    /// `payload` (a JSON text, signed exactly as given) with header `alg` ES256 and x5c
    /// [leaf, intermediate, root].
    func sign(_ payload: String) throws -> String {
        let x5c = [pki.leaf.der, pki.intermediate.der, pki.root.der].map { "\"\($0.base64EncodedString())\"" }.joined(separator: ",")
        let header = "{\"alg\":\"ES256\",\"x5c\":[\(x5c)]}"
        let input = base64URLEncoded(Data(header.utf8)) + "." + base64URLEncoded(Data(payload.utf8))
        let signature = try pki.leafKey.signES256(Array(input.utf8))
        return input + "." + base64URLEncoded(Data(signature))
    }

    /// A verifier trusting the minted root, Sandbox, `com.example.app`.
    func verifier() throws -> SignedDataVerifier {
        try SignedDataVerifier(configuration: .init(
            trustedRoots: [try TrustedRoot(derEncoded: pki.root.der)], bundleId: "com.example.app", environment: .sandbox))
    }

    /// The transaction payload of TestVectors' transaction-valid with `replacements` (member name →
    /// raw JSON text) applied and `extra` members appended.
    static func transaction(_ replacements: [String: String] = [:], extra: [(String, String)] = []) -> String {
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
