import AppStoreVerification
import AppStoreVerificationTesting
import Foundation

/// Signed data minted for load tests by a fresh test PKI (AppStoreVerificationTesting): as many
/// distinct purchases and refunds as a test needs. Its root is written to a temporary file for
/// `--root`; ``remove()`` deletes it.
struct MintedData: Sendable {
    let minter: SignedDataMinter
    let pki: TestPKI
    let directory: TemporaryDirectory

    /// The root certificate file (DER).
    var rootFile: URL { directory.url.appendingPathComponent("minted-root.der") }

    init() throws {
        pki = try TestPKI()
        minter = try SignedDataMinter(pki: pki)
        directory = try TemporaryDirectory()
        try pki.rootDER.write(to: rootFile)
    }

    func remove() { directory.remove() }

    /// 2026-01-01T00:00:00Z in milliseconds.
    static let purchaseDate: Int64 = 1_767_225_600_000

    /// The transaction payload of a non-consumable purchase (optionally refunded at `refundDate`).
    static func purchasePayload(transactionId: String, productId: String, customer: String?, refundDate: Int64? = nil) -> [String: Any] {
        var payload: [String: Any] = [
            "transactionId": transactionId, "originalTransactionId": transactionId, "bundleId": "com.example.app",
            "productId": productId, "purchaseDate": purchaseDate, "originalPurchaseDate": purchaseDate, "quantity": 1,
            "type": "Non-Consumable", "inAppOwnershipType": "PURCHASED", "signedDate": refundDate ?? purchaseDate,
            "environment": "Sandbox", "transactionReason": "PURCHASE", "storefront": "USA", "storefrontId": "143441",
        ]
        if let customer { payload["appAccountToken"] = customer }
        if let refundDate {
            payload["revocationDate"] = refundDate
            payload["revocationReason"] = 0
            payload["revocationType"] = "REFUND_FULL"
        }
        return payload
    }

    /// A purchase's transaction JWS, as the app sends it.
    func purchase(transactionId: String, productId: String, customer: String?) throws -> String {
        try minter.sign(payloadJSON: try JSONSerialization.data(withJSONObject: Self.purchasePayload(transactionId: transactionId, productId: productId, customer: customer), options: [.sortedKeys]))
    }

    /// A REFUND notification (`signedPayload`) for the purchase, a day after it.
    func refund(transactionId: String, productId: String, customer: String?) throws -> String {
        let refundDate = Self.purchaseDate + 86_400_000
        let payload: [String: Any] = [
            "notificationType": "REFUND", "notificationUUID": UUID().uuidString.lowercased(), "version": "2.0", "signedDate": refundDate,
            "data": ["bundleId": "com.example.app", "bundleVersion": "42", "environment": "Sandbox", "status": 1,
                     "signedTransactionInfo": Self.purchasePayload(transactionId: transactionId, productId: productId, customer: customer, refundDate: refundDate)],
        ]
        return try minter.notification(payloadJSON: try JSONSerialization.data(withJSONObject: payload, options: [.sortedKeys]))
    }
}
