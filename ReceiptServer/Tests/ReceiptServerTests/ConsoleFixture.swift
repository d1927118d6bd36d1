import AppStoreVerification
import AppStoreVerificationTesting
import Foundation
import Logging
import ReceiptServerCore

/// A customer for the console's tests, minted by a fresh test PKI: a monthly subscription bought
/// 40 days ago and renewed 10 days ago (granted), a lifetime unlock refunded 5 days ago (a REFUND
/// notification), and two products whose IDs are markup.
struct ConsoleFixture {
    static let token = "console-test-access-token-0123456789"
    static let customer = "1f7c6a52-9d1e-4b8f-a3c2-5e6d7f8a9b0c"
    static let monthly = "com.example.app.premium.monthly"
    static let lifetime = "com.example.app.lifetime"
    static let scriptProduct = "<script>alert(1)</script>"
    static let imageProduct = #""><img src=x onerror=alert(1)>"#
    static let purchaseId = "5100000000000001"
    static let renewalId = "5100000000000002"
    static let lifetimeId = "5100000000000003"
    /// Every transaction ID the fixture stores (Apple answers a customer's history for any of them).
    static let transactionIds = [purchaseId, renewalId, lifetimeId, "5100000000000004", "5100000000000005"]

    let pki: TestPKI
    let minter: SignedDataMinter
    let now: Date
    let refundUUID = UUID().uuidString.lowercased()

    /// The purchase's JWS as the app sends it (Apple's history holds the same text).
    let purchaseJWS: String

    /// One test PKI for every console test: making one generates eight keys (about a second of
    /// CPU, mostly RSA), which a dozen tests starting at once would spend together while other
    /// suites' servers wait on their databases.
    static let sharedPKI = Result { () throws(AppStoreTestingError) -> TestPKI in try TestPKI() }

    init(now: Date = Date(), pki: TestPKI? = nil) throws {
        self.now = now
        self.pki = try pki ?? Self.sharedPKI.get()
        minter = try SignedDataMinter(pki: self.pki)
        purchaseJWS = try minter.transaction(Self.purchase(now: now))
    }

    static let day: TimeInterval = 86_400

    var purchase: Transaction { Self.purchase(now: now) }

    static func purchase(now: Date) -> Transaction {
        Transaction(transactionId: purchaseId, productId: monthly, subscriptionGroupIdentifier: "21000001",
                    purchaseDate: now - 40 * day, expiresDate: now - 10 * day, type: .autoRenewableSubscription,
                    appAccountToken: customer, signedDate: now - 40 * day)
    }

    var renewal: Transaction {
        Transaction(transactionId: Self.renewalId, productId: Self.monthly, originalTransactionId: Self.purchaseId, subscriptionGroupIdentifier: "21000001",
                    purchaseDate: now - 10 * Self.day, expiresDate: now + 20 * Self.day, type: .autoRenewableSubscription,
                    appAccountToken: Self.customer, signedDate: now - 10 * Self.day, transactionReason: .renewal)
    }

    var lifetime: Transaction {
        Transaction(transactionId: Self.lifetimeId, productId: Self.lifetime, purchaseDate: now - 30 * Self.day, type: .nonConsumable,
                    appAccountToken: Self.customer, signedDate: now - 30 * Self.day)
    }

    var refunded: Transaction {
        Transaction(transactionId: Self.lifetimeId, productId: Self.lifetime, purchaseDate: now - 30 * Self.day, type: .nonConsumable,
                    appAccountToken: Self.customer, signedDate: now - 5 * Self.day, revocationReason: .refundedForOtherReason,
                    revocationDate: now - 5 * Self.day, revocationType: .refundFull)
    }

    func markup(_ transactionId: String, _ productId: String) -> Transaction {
        Transaction(transactionId: transactionId, productId: productId, purchaseDate: now - 3 * Self.day, type: .nonConsumable,
                    appAccountToken: Self.customer, signedDate: now - 3 * Self.day, offerIdentifier: Self.imageProduct, storefront: Self.scriptProduct)
    }

    /// Sends the customer's data to `server` as the app and Apple do.
    func seed(_ server: TestServer) async throws {
        let transactions = [purchaseJWS] + (try [renewal, lifetime, markup("5100000000000004", Self.scriptProduct), markup("5100000000000005", Self.imageProduct)]
            .map { try minter.transaction($0) })
        for jws in transactions {
            let answer = try await server.postTransaction(jws, appAccountToken: Self.customer)
            guard answer.status == 200 else { throw TestServerError("seeding a transaction: \(answer.text)") }
        }
        let refund = try minter.notification(
            ResponseBodyV2DecodedPayload(notificationType: .refund, notificationUUID: refundUUID, signedDate: now - 5 * Self.day), transaction: refunded)
        let answer = try await server.postNotification(refund)
        guard answer.status == 200 else { throw TestServerError("seeding the refund: \(answer.text)") }
    }

    /// A server for this fixture's PKI (or `roots`) with the console on (an access token).
    func startServer(databasePath: String, roots: [TrustedRoot]? = nil, reconcile: ReconcileConfiguration? = nil,
                     throttle: AuthenticationThrottleLimits = AuthenticationThrottleLimits(), logger: Logger? = nil) async throws -> TestServer {
        try await TestServer.start(databasePath: databasePath, roots: roots ?? [pki.trustedRoot], now: now,
                                   access: AccessControl(bearerToken: Self.token), throttle: throttle, reconcile: reconcile, logger: logger)
    }
}
