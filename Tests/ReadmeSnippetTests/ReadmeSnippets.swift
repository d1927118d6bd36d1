// The README's Swift snippets, as they appear there, compiled against the public API only (no
// @testable import), as a user's code would be. `ReadmeSnippetTests.swift` checks that every line
// of every ```swift block of README.md appears here, in order, so the two cannot drift apart (the
// route snippets run inside closures of the frameworks' shapes, declared in ServerShapes.swift).
import AppStoreVerification
#if ServerAPIClient
import AppStoreServerAPI
#endif
import AppStoreVerificationTesting
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
        let result = try verifier.verifyNotification(requestBody)         // {"signedPayload":"..."}
        let notification = try result.payloadValue                         // throws VerificationError
        if case .success(.verified(let transaction))? = notification.transactionInfo {
            grant(transaction.productId, until: transaction.expiresDate)
        }
    }

    // MARK: - README: Entitlements

    static func entitlementsSnippet(verifier: SignedDataVerifier, jwsFromTheApp: String, requestBody: Data, storedData: inout Data) throws -> ([Entitlement], [Entitlement]) {
        var engine = EntitlementEngine(
            configuration: .init(nonRenewingDurations: ["com.example.season.pass": 90 * 86_400]),
            history: try JSONDecoder().decode(CustomerHistory.self, from: storedData))   // or CustomerHistory()
        engine.ingest(try verifier.verifyTransaction(jwsFromTheApp))        // VerificationResult<Transaction>
        engine.ingest(try verifier.verifyNotification(requestBody))         // nested data included
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

    static func onlineSnippet(jwsFromApp: String) async throws -> VerificationResult<Transaction> {
        let verifier = try OnlineSignedDataVerifier(
            configuration: .init(bundleId: "com.example.app", appAppleId: 1234567890, environment: .production),
            revocation: OCSPOptions())                    // 5 s per request, answers cached ≤ 15 min
        let result = try await verifier.verifyTransaction(jwsFromApp)
        return result
    }

    // MARK: - README: every setting

    static func configurationSnippet() throws -> SignedDataVerifier {
        let configuration = SignedDataVerifier.Configuration(
            trustedRoots: [.appleRootCAG3],         // the roots JWS chains must end at (embedded)
            bundleId: "com.example.app",            // nil skips the check
            appAppleId: 1234567890,                 // required for .production
            environment: .production,               // nil skips the check
            effectiveDate: .signedDate,             // or .now, .fixed(date)
            strictChecks: true,                     // OpenSSL's X509_V_FLAG_X509_STRICT
            chainCacheCapacity: 64,                 // validated chains remembered; 0 turns caching off
            maximumInputLength: 1 << 20,            // bytes, checked before anything is parsed
            xcodeCertificate: nil,                  // the "StoreKit Testing in Xcode" certificate, to accept Xcode data
            trustedReceiptRoots: [.appleRootCA],    // the roots app receipt chains must end at (embedded)
            xcodeReceiptCertificate: nil)           // the "StoreKit" certificate, to accept Xcode receipts
        let verifier = try SignedDataVerifier(configuration: configuration)       // offline: no network
        return verifier
    }
}

// MARK: - README: In a server route

extension HummingbirdShape {
    /// Offline, in a Hummingbird 2 route.
    static func transactionsRoute(verifier: SignedDataVerifier) -> Router {
        let router = Router()
        router.post("/transactions") { request, context -> Response in
            let body = try await request.body.collect(upTo: 1 << 20)
            do throws(SignedDataDecodingError) {
                switch try verifier.verifyTransaction(String(buffer: body)) {   // offline: no await
                case .verified(let transaction):
                    await grant(transaction)
                    return Response(status: .ok)
                case .unverified:
                    return Response(status: .forbidden)
                }
            } catch {
                // error is a SignedDataDecodingError here: error.code, error.message
                context.logger.info("not a signed transaction: \(error.code)")
                return Response(status: .badRequest)
            }
        }
        return router
    }
}

extension VaporShape {
    /// Online, in a Vapor 4 route (the DocC article's; a notification needs more than Vapor's
    /// default 16 KB body limit).
    static func notificationsRoute(app: Application, onlineVerifier: OnlineSignedDataVerifier) {
        app.on(.POST, "notifications", body: .collect(maxSize: "1mb")) { req async throws -> Response in
            guard let body = req.body.data else { return Response(status: .badRequest) }
            do throws(OnlineVerificationError) {
                switch try await onlineVerifier.verifyNotification(String(buffer: body)) {
                case .verified(let notification):
                    await store(notification)
                    return Response(status: .ok)
                case .unverified:
                    return Response(status: .forbidden)
                }
            } catch {
                switch error {
                case .decoding(let error):
                    req.logger.info("not a notification: \(error.code)")
                    return Response(status: .badRequest)
                case .revocationCheckUnavailable(let error):
                    req.logger.warning("retry later: \(error.code)")
                    return Response(status: .serviceUnavailable)   // Apple retries a 5xx
                }
            }
        }
    }
}

/// The "Testing your server" snippet: what a test mints.
struct ReadmeTestingSnippet {
    let testVerifier: SignedDataVerifier
    let purchase: String
    let refund: Data
    let forged: String

    init() throws {
        let pki = try TestPKI()                           // root, intermediate and leaf with Apple's markers
        let minter = try SignedDataMinter(pki: pki)
        let testVerifier = try SignedDataVerifier(configuration: pki.verifierConfiguration())
        let purchase = try minter.transaction(Transaction(transactionId: "1", productId: "com.example.pro"))
        let refund = try minter.notificationBody(ResponseBodyV2DecodedPayload(notificationType: .refund),
                                                 transaction: Transaction(transactionId: "1", productId: "com.example.pro", revocationDate: Date()))
        let forged = try SignedDataMinter(pki: pki.variant(.wrongKey)).transaction(Transaction(transactionId: "2", productId: "p"))
        (self.testVerifier, self.purchase, self.refund, self.forged) = (testVerifier, purchase, refund, forged)
    }
}

#if ServerAPIClient
/// The App Store Server API snippet: a customer's whole history into the entitlement engine.
enum ReadmeServerAPISnippet {
    static func wholeHistory(keyURL: URL, keyId: String, issuerId: String, anyTransactionId: String, verifier: SignedDataVerifier) async throws -> [Entitlement] {
        let client = AppStoreServerAPIClient(signingKey: try SigningKey(contentsOf: keyURL), keyId: keyId, issuerId: issuerId,
                                             bundleId: "com.example.app", environment: .production, verifier: .offline(verifier))
        var engine = EntitlementEngine()
        for try await transaction in client.transactionHistory(transactionId: anyTransactionId) { engine.ingest(transaction) }
        let entitlements = engine.currentEntitlements(at: Date())
        return entitlements
    }
}
#endif
