// The README's Swift snippets, as they appear there, compiled against the public API only (no
// @testable import), as a user's code would be. `ReadmeSnippetTests.swift` checks that every line
// of every ```swift block of README.md appears here, in order, so the two cannot drift apart.
import AppStoreVerification
import Foundation

/// What the README's snippets assume a server has: the JWS its app sent, a request body, a way to
/// grant a product.
struct ReadmeContext {
    var jwsFromApp: String
    var requestBody: Data
    var granted: [(String, Date?)] = []

    mutating func grant(_ productId: String, until expiry: Date?) {
        granted.append((productId, expiry))
    }
}

extension ReadmeContext {
    // MARK: - README: Library

    mutating func librarySnippet() throws {
        // Once, at start-up; share it everywhere (it is Sendable and caches validated chains).
        let verifier = try SignedDataVerifier(configuration: .init(
            bundleId: "com.example.app",
            appAppleId: 1234567890,          // required for Production
            environment: .production))       // trusts the embedded Apple Root CA - G3

        // A purchase your app sent (transaction.jwsRepresentation):
        switch try verifier.verifyTransaction(jwsFromApp) {
        case .verified(let transaction):
            grant(transaction.productId, until: transaction.expiresDate)
        case .unverified(let claimed, let error):
            print("refused transaction \(claimed.transactionId): \(error)")
        }

        // A notification Apple POSTed to you (the body as Data, [UInt8] or String):
        let result = try verifier.verifyNotification(body: requestBody)   // {"signedPayload":"..."}
        let notification = try result.payloadValue                         // throws VerificationError
        if case .success(.verified(let transaction))? = notification.transactionInfo {
            grant(transaction.productId, until: transaction.expiresDate)
        }
    }

    // MARK: - README: trusting another root

    static func anotherRootSnippet() throws -> SignedDataVerifier {
        let testRoot = try TrustedRoot(derEncoded: Data(contentsOf: URL(fileURLWithPath: "TestVectors/pki/root.der")))
        let testVerifier = try SignedDataVerifier(configuration: .init(
            trustedRoots: [testRoot] + TrustedRoot.roots(contentsOf: URL(fileURLWithPath: "staging-roots.pem")),
            bundleId: "com.example.app",
            appAppleId: nil,
            environment: .sandbox,
            effectiveDate: .signedDate,
            strictChecks: true,
            chainCacheCapacity: 64,
            maximumInputLength: 1 << 20,
            xcodeCertificate: nil))
        return testVerifier
    }

    // MARK: - README: Entitlements

    static func entitlementsSnippet(verifier: SignedDataVerifier, jwsFromTheApp: String, requestBody: Data, storedData: inout Data) throws -> ([Entitlement], [Entitlement]) {
        var engine = EntitlementEngine(
            configuration: .init(nonRenewingDurations: ["com.example.season.pass": 90 * 86_400]),
            history: try JSONDecoder().decode(CustomerHistory.self, from: storedData))   // or CustomerHistory()
        engine.ingest(try verifier.verifyTransaction(jwsFromTheApp))        // VerificationResult<Transaction>
        engine.ingest(try verifier.verifyNotification(body: requestBody))   // nested data included
        let granted = engine.currentEntitlements(at: Date())   // [Entitlement]: only what gives access
        let all = engine.statuses(at: Date())                  // also expired, billing retry, revoked
        storedData = try JSONEncoder().encode(engine.history)  // plain Codable data, any database
        return (granted, all)
    }

    // MARK: - README: App receipts

    mutating func appReceiptSnippet(base64ReceiptFromApp: String, identifierForVendor: UUID) throws -> String? {
        let verifier = try SignedDataVerifier(configuration: .init(
            bundleId: "com.example.app", appAppleId: 1234567890, environment: .production))

        let result = try verifier.verifyAppReceipt(base64ReceiptFromApp)   // or the receipt file's Data
            .verifyingDevice(identifierForVendor)                           // UUID; the MAC address's Data on macOS
        switch result {
        case .verified(let receipt):
            for purchase in receipt.inApp {
                if let productId = purchase.productId { grant(productId, until: purchase.expiresDate) }
            }
        case .unverified(_, let error):
            print("refused receipt: \(error)")
        }
        let transactionId = try result.transactionId   // Apple's extractTransactionIdFromAppReceipt, verified only
        return transactionId
    }

    // MARK: - README: Online mode

    static func onlineSnippet(jws: String, grant: (Transaction) -> Void, reject: (VerificationError) -> Void) async throws {
        let verifier = try SignedDataVerifier(configuration: .init(
            bundleId: "com.example.app", appAppleId: 1234567890, environment: .production,
            revocation: .ocsp(OCSPOptions())))            // 5 s per request, answers cached ≤ 15 min

        do {
            switch try await verifier.online.verifyTransaction(jws) {  // the online entry points
            case .verified(let transaction): grant(transaction)
            case .unverified(_, let error): reject(error)          // .revokedCertificate(...) among others
            }
        } catch .revocationCheckUnavailable(let error) {
            // Not a verdict: no OCSP answer could be had. Retry later. For a notification, answer
            // Apple with a 5xx so that Apple retries; for an app's request, keep it pending.
            print("retry later: \(error)")
        } catch .decoding(let error) {
            print("not signed data: \(error)")
        }
    }
}
