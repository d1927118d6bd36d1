// The DocC articles' Swift snippets (Sources/AppStoreVerification/Documentation.docc), as they
// appear there, compiled against the public API only. `ReadmeSnippetTests.doccBlocksAreCompiled`
// checks that every line of every ```swift block of every article appears here (or, for a block the
// README shows too, in ReadmeSnippets.swift), in order. Route snippets run inside closures of the
// frameworks' shapes, declared in ServerShapes.swift.
import AppStoreVerification
import AppStoreVerificationTesting
import Testing
import Foundation

enum DocCSnippets {
    // MARK: - AppStoreVerification.md (the landing page)

    static func landingPage(jwsFromApp: String) throws {
        let verifier = try SignedDataVerifier(configuration: .init(
            bundleId: "com.example.app",
            appAppleId: 1234567890,
            environment: .production))

        switch try verifier.verifyTransaction(jwsFromApp) {
        case .verified(let transaction):
            print("verified", transaction.transactionId)
        case .unverified(_, let error):
            print("refused:", error)
        }
    }

    // MARK: - GettingStarted.md

    static func gettingStarted(jwsFromApp: String, requestBody: Data) throws -> SignedDataVerifier {
        let verifier = try SignedDataVerifier(configuration: .init(
            bundleId: "com.example.app",     // your app's bundle ID
            appAppleId: 1234567890,          // your app's Apple ID; required for Production
            environment: .production))       // trusts the embedded Apple Root CA - G3

        func handlePurchase(_ jwsFromApp: String) throws {
            switch try verifier.verifyTransaction(jwsFromApp) {
            case .verified(let transaction):
                // Apple signed it, for this app and environment: grant the product.
                print("grant", transaction.productId, "until", transaction.expiresDate as Any)
            case .unverified(let claimed, let error):
                // The payload is decoded, but do not trust it.
                print("refused transaction", claimed.transactionId, error)
            }
        }

        func handleNotification(_ requestBody: Data) throws {
            let result = try verifier.verifyNotification(requestBody)
            let notification = try result.payloadValue      // throws the VerificationError if unverified
            print(notification.notificationType as Any, notification.subtype as Any)
            if case .success(.verified(let transaction))? = notification.transactionInfo {
                print("transaction", transaction.transactionId)
            }
        }

        try handlePurchase(jwsFromApp)
        try handleNotification(requestBody)

        let rootDER = try Data(contentsOf: URL(fileURLWithPath: "TestVectors/pki/root.der"))
        let testVerifier = try SignedDataVerifier(configuration: .init(
            trustedRoots: [try TrustedRoot(derEncoded: rootDER)],
            bundleId: "com.example.app",
            environment: .sandbox))
        return testVerifier
    }

    // MARK: - OnlineVerification.md

    static func onlineVerification(jws: String) async throws -> Int {
        let verifier = try OnlineSignedDataVerifier(
            configuration: .init(bundleId: "com.example.app", appAppleId: 1234567890, environment: .production),
            revocation: OCSPOptions())                    // 5 s per request, answers cached ≤ 15 min

        func handlePurchase(_ jws: String) async -> Int {
            do throws(OnlineVerificationError) {
                switch try await verifier.verifyTransaction(jws) {
                case .verified(let transaction):
                    print("grant", transaction.productId)
                    return 200
                case .unverified(_, let error):            // .revokedCertificate(...) among others
                    print("refused:", error)
                    return 403
                }
            } catch {
                switch error {
                case .decoding(let error):                 // not signed data: a permanent condition
                    print("not a transaction:", error.code, error.message)
                    return 400
                case .revocationCheckUnavailable(let error):
                    // Not a verdict: no OCSP answer could be had. Retry later. For a notification, answer
                    // Apple with a 5xx so that Apple retries; for an app's request, keep it pending.
                    print("retry later:", error.code)
                    return 503
                }
            }
        }

        return await handlePurchase(jws)
    }
}

// MARK: - SigningRequests.md

extension DocCSnippets {
    static func signingRequests() throws -> (String, String, Int64?) {
        let key = try SigningKey(contentsOf: URL(fileURLWithPath: "SubscriptionKey_ABC123XYZ.p8"))

        // Promotional offer, V1: base64 of a DER ECDSA-SHA256 signature.
        let v1 = PromotionalOfferSignatureCreator(signingKey: key, keyId: "ABC123XYZ", bundleId: "com.example.app")
        let nonce = UUID(), timestamp = Date()
        let signature = try v1.createSignature(productIdentifier: "com.example.monthly", subscriptionOfferID: "WINBACK",
                                               appAccountToken: nil, nonce: nonce, timestamp: timestamp)
        let milliseconds = PromotionalOfferSignatureCreator.milliseconds(timestamp)   // what the app passes to StoreKit

        // Promotional offer V2, introductory offer eligibility, Advanced Commerce: compact ES256 JWS.
        let v2 = PromotionalOfferV2SignatureCreator(signingKey: key, keyId: "ABC123XYZ", issuerId: "57246542-96fe-1a63-e053-0824d011072a", bundleId: "com.example.app")
        let jws = try v2.createSignature(productId: "com.example.monthly", offerIdentifier: "WINBACK", transactionId: "2000000123456789")
        return (signature, jws, milliseconds)
    }
}

// MARK: - ServerFrameworks.md: Hummingbird 2

extension HummingbirdShape {
    /// The article's two Hummingbird routes: offline transactions, online notifications.
    static func serverFrameworksRoutes(verifier: SignedDataVerifier, onlineVerifier: OnlineSignedDataVerifier) -> Router {
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

        router.post("/notifications") { request, context -> Response in
            let body = try await request.body.collect(upTo: 1 << 20)
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
                    context.logger.info("not a notification: \(error.code)")
                    return Response(status: .badRequest)
                case .revocationCheckUnavailable(let error):
                    context.logger.warning("retry later: \(error.code)")
                    return Response(status: .serviceUnavailable)   // Apple retries a 5xx
                }
            }
        }
        return router
    }
}

// MARK: - ServerFrameworks.md: Vapor 4

extension VaporShape {
    /// The article's offline Vapor route (the online one is the README's, in ReadmeSnippets.swift).
    static func transactionsRoute(app: Application, verifier: SignedDataVerifier) {
        app.post("transactions") { req async throws -> Response in
            guard let body = req.body.data else { return Response(status: .badRequest) }
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
                req.logger.info("not a signed transaction: \(error.code)")
                return Response(status: .badRequest)
            }
        }
    }
}

// MARK: - TestingYourServer.md (PurchaseHandler: TestingArticleHandler.swift)

@Suite struct PurchaseHandlingTests {
    // One PKI per suite: making one generates its keys.
    static let pki = Result { try TestPKI() }

    @Test func aPurchaseThenItsRefund() async throws {
        let pki = try Self.pki.get()
        let minter = try SignedDataMinter(pki: pki)
        // Trusts the test roots only (JWS and receipts), bundle ID com.example.app, the sandbox.
        let handler = PurchaseHandler(verifier: try SignedDataVerifier(configuration: pki.verifierConfiguration()))

        // The app sends its transaction (StoreKit's jwsRepresentation).
        let purchase = Transaction(transactionId: "2000000000000001", productId: "com.example.pro")
        try await handler.handleTransaction(try minter.transaction(purchase))
        #expect(await handler.owns("com.example.pro"))

        // The App Store posts the refund: the notification's signedTransactionInfo is minted from
        // the model by the same PKI.
        let refunded = Transaction(transactionId: "2000000000000001", productId: "com.example.pro",
                                   revocationReason: RevocationReason(rawValue: 0), revocationDate: Date())
        let body = try minter.notificationBody(ResponseBodyV2DecodedPayload(notificationType: .refund), transaction: refunded)
        try await handler.handleNotification(body: body)
        #expect(await !handler.owns("com.example.pro"))

        // An older app sends its app receipt (base64 of the PKCS#7 DER).
        let receipt = try minter.appReceipt(AppReceipt(inApp: [
            InAppPurchaseReceipt(productId: "com.example.lifetime", transactionId: "2000000000000002"),
        ]))
        try await handler.handleReceipt(receipt.base64EncodedString())
        #expect(await handler.owns("com.example.lifetime"))
    }

    @Test(arguments: [TestPKI.Variant.expiredLeaf, .leafWithoutMarker, .wrongKey, .otherRoot])
    func forgedDataIsRefused(_ variant: TestPKI.Variant) async throws {
        let pki = try Self.pki.get()
        // Same trusted root, defective chain or key.
        let forger = try SignedDataMinter(pki: pki.variant(variant))
        let handler = PurchaseHandler(verifier: try SignedDataVerifier(configuration: pki.verifierConfiguration()))
        let jws = try forger.transaction(Transaction(transactionId: "1", productId: "com.example.pro"))
        await #expect(throws: (any Error).self) { try await handler.handleTransaction(jws) }
    }
}

// MARK: - TestingYourServer.md, "Testing an online route" (OnlineTransactionRoute: TestingArticleHandler.swift)

@Suite struct OnlineRouteTests {
    @Test func goodRevokedAndUnavailable() async throws {
        // Started here, stopped when the closure ends, whatever happens.
        try await TestOCSPResponder.withResponder { responder in
            let pki = try responder.makePKI()   // names http://127.0.0.1:PORT/ocsp
            // Generous limits: other tests running in parallel share the machine.
            let patient = OCSPOptions(requestTimeout: .seconds(60), overallDeadline: .seconds(120))
            let route = OnlineTransactionRoute(verifier: try OnlineSignedDataVerifier(configuration: pki.verifierConfiguration(),
                                                                                      revocation: patient))
            let purchase = Transaction(transactionId: "1", productId: "com.example.pro")

            // Every certificate is good unless the test says otherwise.
            #expect(await route.respond(to: try SignedDataMinter(pki: pki).transaction(purchase)) == 200)

            // A new leaf under the same CAs (the verifier caches each certificate's answer until
            // its nextUpdate, an hour later), revoked.
            let revoked = try pki.variant(.valid)
            responder.setAnswer(.revoked(at: Date()), for: revoked.chain.leaf)
            #expect(await route.respond(to: try SignedDataMinter(pki: revoked).transaction(purchase)) == 403)

            // Another leaf whose responder fails with HTTP 500: no verdict, retry later.
            let unavailable = try pki.variant(.valid)
            responder.setAnswer(.httpError(status: 500), for: unavailable.chain.leaf)
            #expect(await route.respond(to: try SignedDataMinter(pki: unavailable).transaction(purchase)) == 503)
            #expect(responder.requestCount(for: unavailable.chain.leaf) == 1)
        }
    }
}
