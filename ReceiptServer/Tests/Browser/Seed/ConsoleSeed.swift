import AppStoreVerification
import AppStoreVerificationTesting
import Foundation

/// The browser test's customer, minted with the library's test PKI (AppStoreVerificationTesting):
///
/// - a monthly subscription: the purchase (40 days ago, expired 10 days ago) and its renewal
///   (10 days ago, expires in 20 days), the renewal sent by the app and by Apple (`DID_RENEW` with
///   renewal info);
/// - a lifetime unlock bought 30 days ago and refunded 5 days ago (a `REFUND` notification);
/// - a theme pack shared by the family;
/// - two products whose IDs are markup (`<script>…`, `"><img onerror=…>`): the page must show
///   them as text;
/// - a sticker pack signed by a second, "retired" root: stored while both roots were trusted, it
///   no longer verifies once the server trusts only the current root;
/// - Apple's history for the fake App Store Server API: the same transactions, the refunded version
///   of the lifetime unlock, and one purchase the app never sent (reconciliation adds it).
struct ConsoleSeed {
    static let customer = "5b0c8e3a-2f4d-4e7b-9c1a-6d3e8f2a1b4c"
    static let monthly = "com.example.app.premium.monthly"
    static let scriptProduct = #"<script>window.__xss=1</script>"#
    static let imageProduct = #""><img src=x onerror="window.__xss=2">"#

    /// A body to POST: the route (`transactions` or `notifications`) and the JSON.
    struct Post {
        let route: String
        let body: [String: String]
    }

    let current: TestPKI
    let retired: TestPKI
    var posts: [Post] = []
    var appleHistory: [String] = []
    var refundNotificationUUID = UUID().uuidString.lowercased()

    init(now: Date) throws {
        current = try TestPKI()
        retired = try TestPKI()
        let minter = try SignedDataMinter(pki: current)
        let retiredMinter = try SignedDataMinter(pki: retired)
        let day: TimeInterval = 86_400
        let customer = Self.customer

        let purchase = Transaction(
            transactionId: "4700000000000101", productId: Self.monthly, subscriptionGroupIdentifier: "21000001",
            purchaseDate: now - 40 * day, expiresDate: now - 10 * day, type: .autoRenewableSubscription, appAccountToken: customer,
            signedDate: now - 40 * day, transactionReason: .purchase)
        let renewal = Transaction(
            transactionId: "4700000000000102", productId: Self.monthly, originalTransactionId: "4700000000000101",
            subscriptionGroupIdentifier: "21000001", purchaseDate: now - 10 * day, originalPurchaseDate: now - 40 * day,
            expiresDate: now + 20 * day, type: .autoRenewableSubscription, appAccountToken: customer, signedDate: now - 10 * day,
            transactionReason: .renewal)
        let renewalInfo = RenewalInfo(originalTransactionId: "4700000000000101", productId: Self.monthly, signedDate: now - 10 * day,
                                      renewalDate: now + 20 * day)
        let lifetime = Transaction(transactionId: "4700000000000201", productId: "com.example.app.lifetime", purchaseDate: now - 30 * day,
                                   type: .nonConsumable, appAccountToken: customer, signedDate: now - 30 * day)
        let refunded = Transaction(transactionId: "4700000000000201", productId: "com.example.app.lifetime", purchaseDate: now - 30 * day,
                                   type: .nonConsumable, appAccountToken: customer, signedDate: now - 5 * day,
                                   revocationReason: .refundedForOtherReason, revocationDate: now - 5 * day, revocationType: .refundFull)
        let familyShared = Transaction(transactionId: "4700000000000501", productId: "com.example.app.themes", purchaseDate: now - 20 * day,
                                       type: .nonConsumable, appAccountToken: customer, inAppOwnershipType: .familyShared, signedDate: now - 20 * day)
        let script = Transaction(transactionId: "4700000000000301", productId: Self.scriptProduct, purchaseDate: now - 3 * day,
                                 type: .nonConsumable, appAccountToken: customer, signedDate: now - 3 * day,
                                 offerIdentifier: Self.imageProduct, storefront: Self.scriptProduct)
        let image = Transaction(transactionId: "4700000000000302", productId: Self.imageProduct, purchaseDate: now - 3 * day,
                                type: .nonConsumable, appAccountToken: customer, signedDate: now - 3 * day)
        let legacy = Transaction(transactionId: "4700000000000401", productId: "com.example.app.stickers.legacy", purchaseDate: now - 60 * day,
                                 type: .nonConsumable, appAccountToken: customer, signedDate: now - 60 * day)
        let neverSent = Transaction(transactionId: "4700000000000601", productId: "com.example.app.stickers", purchaseDate: now - 2 * day,
                                    type: .nonConsumable, appAccountToken: customer, signedDate: now - 2 * day)

        func transactionPost(_ jws: String) -> Post {
            Post(route: "transactions", body: ["signedTransaction": jws, "appAccountToken": customer])
        }
        let purchaseJWS = try minter.transaction(purchase)
        let renewalJWS = try minter.transaction(renewal)
        let lifetimeJWS = try minter.transaction(lifetime)
        let familyJWS = try minter.transaction(familyShared)
        let scriptJWS = try minter.transaction(script)
        let imageJWS = try minter.transaction(image)
        posts = [
            transactionPost(purchaseJWS),
            transactionPost(renewalJWS),
            Post(route: "notifications", body: ["signedPayload": try minter.notification(
                ResponseBodyV2DecodedPayload(notificationType: .didRenew, signedDate: now - 10 * day), transaction: renewal, renewalInfo: renewalInfo)]),
            transactionPost(lifetimeJWS),
            Post(route: "notifications", body: ["signedPayload": try minter.notification(
                ResponseBodyV2DecodedPayload(notificationType: .refund, notificationUUID: refundNotificationUUID, signedDate: now - 5 * day),
                transaction: refunded)]),
            transactionPost(familyJWS),
            transactionPost(scriptJWS),
            transactionPost(imageJWS),
            transactionPost(try retiredMinter.transaction(legacy)),
        ]
        appleHistory = [purchaseJWS, renewalJWS, try minter.transaction(refunded), familyJWS, scriptJWS, imageJWS, try minter.transaction(neverSent)]
    }

    /// Writes the roots, the bodies to POST (in order), Apple's history and the IDs the browser
    /// test searches by, into `directory`.
    func write(to directory: URL) throws {
        try FileManager.default.createDirectory(at: directory.appendingPathComponent("posts"), withIntermediateDirectories: true)
        try current.rootDER.write(to: directory.appendingPathComponent("root-current.der"))
        try retired.rootDER.write(to: directory.appendingPathComponent("root-retired.der"))
        for (index, post) in posts.enumerated() {
            let name = (index < 9 ? "0" : "") + "\(index + 1)-\(post.route).json"
            try JSONSerialization.data(withJSONObject: post.body, options: [.sortedKeys])
                .write(to: directory.appendingPathComponent("posts").appendingPathComponent(name))
        }
        try JSONSerialization.data(withJSONObject: ["signedTransactions": appleHistory], options: [.sortedKeys])
            .write(to: directory.appendingPathComponent("apple-history.json"))
        let ids: [String: Any] = [
            "customer": Self.customer,
            "originalTransactionId": "4700000000000101",
            "renewalTransactionId": "4700000000000102",
            "refundNotificationUUID": refundNotificationUUID,
            "monthly": Self.monthly,
            "refunded": "com.example.app.lifetime",
            "familyShared": "com.example.app.themes",
            "markup": [Self.scriptProduct, Self.imageProduct],
            "retired": "com.example.app.stickers.legacy",
            "reconcileAdds": "com.example.app.stickers",
        ]
        try JSONSerialization.data(withJSONObject: ids, options: [.sortedKeys, .prettyPrinted])
            .write(to: directory.appendingPathComponent("ids.json"))
        let key = try TestPrivateKey(generating: .p256)
        try Data(key.pemEncoded.utf8).write(to: directory.appendingPathComponent("api-key.p8"))
    }
}
