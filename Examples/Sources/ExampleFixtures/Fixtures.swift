import AppStoreVerification
import AppStoreVerificationTesting
import Foundation

/// The data the examples' tests send: the repository's test vectors, and notifications minted with a
/// test PKI.
public enum Fixtures {
    /// The repository's root (this file is Examples/Sources/ExampleFixtures/Fixtures.swift).
    public static let repositoryRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The text of `TestVectors/jws/NAME`, without its trailing newline.
    public static func vector(_ name: String) throws -> String {
        try String(contentsOf: repositoryRoot.appendingPathComponent("TestVectors/jws/\(name)"), encoding: .utf8)
            .trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The root that signed the vectors (`TestVectors/pki/root.der`).
    public static func vectorRoot() throws -> TrustedRoot {
        try TrustedRoot(derEncoded: Data(contentsOf: repositoryRoot.appendingPathComponent("TestVectors/pki/root.der")))
    }

    /// A notification request body, `{"signedPayload":"JWS"}`, as Apple posts it.
    public static func body(signedPayload: String) -> Data {
        Data("{\"signedPayload\":\"\(signedPayload)\"}".utf8)
    }

    /// The largest notification Apple realistically sends, as a request body: a DID_RENEW carrying
    /// all three nested signed items (`signedTransactionInfo`, `signedRenewalInfo`,
    /// `appTransactionInfo`), each with every field Apple fills for a renewed subscription bought
    /// with an offer by an account that has an app account token and win-back offers. Each nested
    /// item carries its own x5c chain (the test PKI's certificates are the size of Apple's, about
    /// 4.4 KB of header), and the outer JWS base64url-encodes them again, so the body is about 27 KB.
    /// Advanced Commerce API items are left out: their lists have no documented bound; a server
    /// selling through that API sizes its limit to its own catalog.
    public static func largestRealisticNotificationBody(minter: SignedDataMinter) throws -> Data {
        let now = Date()
        let transaction = Transaction(
            transactionId: "2000000987654321", productId: "com.example.app.premium.yearly.family.intro",
            originalTransactionId: "2000000123456789", webOrderLineItemId: "2000000045678901",
            subscriptionGroupIdentifier: "21456789", purchaseDate: now.addingTimeInterval(-60),
            originalPurchaseDate: now.addingTimeInterval(-400 * 86_400), expiresDate: now.addingTimeInterval(365 * 86_400),
            type: .autoRenewableSubscription, appAccountToken: "7e3fb20b-4cdb-47cc-936d-99d65f608138",
            signedDate: now, isUpgraded: false, offerType: OfferType(rawValue: 2), offerIdentifier: "com.example.app.offer.winback.annual.2026",
            storefront: "USA", storefrontId: "143441", transactionReason: .renewal, currency: "USD", price: 99_990,
            offerDiscountType: OfferDiscountType(rawValue: "PAY_UP_FRONT"), appTransactionId: "704289572311837765", offerPeriod: "P1Y")
        let renewal = RenewalInfo(
            originalTransactionId: "2000000123456789", productId: "com.example.app.premium.yearly.family.intro",
            autoRenewProductId: "com.example.app.premium.yearly.family", autoRenewStatus: .on, isInBillingRetryPeriod: false,
            priceIncreaseStatus: PriceIncreaseStatus(rawValue: 1), offerType: OfferType(rawValue: 2),
            offerIdentifier: "com.example.app.offer.winback.annual.2026", signedDate: now,
            recentSubscriptionStartDate: now.addingTimeInterval(-400 * 86_400), renewalDate: now.addingTimeInterval(365 * 86_400),
            currency: "USD", renewalPrice: 119_990, offerDiscountType: OfferDiscountType(rawValue: "PAY_UP_FRONT"),
            eligibleWinBackOfferIds: ["com.example.app.offer.winback.monthly.2026", "com.example.app.offer.winback.annual.2026",
                                      "com.example.app.offer.winback.family.2026"],
            appAccountToken: "7e3fb20b-4cdb-47cc-936d-99d65f608138", appTransactionId: "704289572311837765", offerPeriod: "P1Y")
        let app = AppTransaction(
            appAppleId: nil, applicationVersion: "2026.11.3 (4512)", versionExternalIdentifier: 879_123_456,
            originalPurchaseDate: now.addingTimeInterval(-800 * 86_400), originalApplicationVersion: "2024.1.0 (1001)",
            preorderDate: now.addingTimeInterval(-810 * 86_400), appTransactionId: "704289572311837765", originalPlatform: .iOS)
        return try minter.notificationBody(ResponseBodyV2DecodedPayload(notificationType: .didRenew),
                                           transaction: transaction, renewalInfo: renewal, appTransaction: app)
    }
}
