import AppStoreServerAPITesting
import Foundation

/// The library's fake App Store Server API (AppStoreServerAPITesting) as these tests use it: the
/// transaction histories of customers (every transaction ID of a customer mapped to their whole
/// history) and signed notifications (served by their `signedDate`), in pages of `pageSize`, behind
/// Apple's bearer token check, and the requests it saw in the terms the tests assert.
final class FakeAppStoreServerAPI: Sendable {
    /// A request as the fake saw it.
    struct Seen: Sendable {
        let path: String
        /// `revision` (transaction history) or `paginationToken` (notification history).
        let revision: String?
        /// `nil` when the token was accepted, else why it was refused.
        let refusal: String?
        /// Notification history: the body's `startDate` and `endDate`, in milliseconds since 1970.
        let startDate: Int64?
        let endDate: Int64?
    }

    private let fake: AppStoreServerAPITesting.FakeAppStoreServerAPI

    var baseURL: String { fake.baseURL }

    /// The requests so far.
    var requests: [Seen] {
        fake.requests.map { request in
            let range = (try? JSONSerialization.jsonObject(with: request.body)) as? [String: Any]
            return Seen(path: request.path,
                        revision: request.queryValues("revision").first ?? request.queryValues("paginationToken").first,
                        refusal: request.tokenRefusal,
                        startDate: (range?["startDate"] as? NSNumber)?.int64Value,
                        endDate: (range?["endDate"] as? NSNumber)?.int64Value)
        }
    }

    /// Serves `histories` and `notifications` in pages of `pageSize`, accepting tokens signed by
    /// the key whose public key is `publicKeyDER` (SubjectPublicKeyInfo).
    init(publicKeyDER: Data, keyId: String, issuerId: String, bundleId: String, histories: [String: [String]],
         notifications: [String] = [], pageSize: Int = 2) async throws {
        fake = try await .start(keyId: keyId, issuerId: issuerId, bundleId: bundleId, publicKey: publicKeyDER)
        fake.pageSize = pageSize
        for (transactionId, history) in histories { fake.setTransactionHistory(history, for: transactionId) }
        fake.setNotificationHistory(notifications.map { .init(signedPayload: $0) })
    }

    /// Stops the fake.
    func stop() async {
        await fake.stop()
    }

    /// The `signedDate` of a signed payload, in milliseconds since 1970 (0 when it has none).
    static func signedDate(of jws: String) -> Int64 {
        AppStoreServerAPITesting.FakeAppStoreServerAPI.signedDate(of: jws) ?? 0
    }
}
