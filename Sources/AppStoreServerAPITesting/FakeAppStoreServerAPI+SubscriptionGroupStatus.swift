import AppStoreVerification
import Foundation

extension FakeAppStoreServerAPI {
    /// One subscription group of a Get All Subscription Statuses answer
    /// (`SubscriptionGroupIdentifierItem`): its identifier and the latest transaction of each of its
    /// subscriptions.
    public struct SubscriptionGroupStatus: Sendable, Hashable {
        /// The subscription group.
        public var subscriptionGroupIdentifier: String
        /// The latest transaction of each subscription in the group.
        public var lastTransactions: [LastTransaction]

        /// A group and its subscriptions' latest transactions.
        public init(subscriptionGroupIdentifier: String, lastTransactions: [LastTransaction]) {
            self.subscriptionGroupIdentifier = subscriptionGroupIdentifier
            self.lastTransactions = lastTransactions
        }
    }

    /// The latest transaction of one subscription (`LastTransactionsItem`): its status, and its
    /// signed transaction and renewal info as Apple sends them (mint them with
    /// `AppStoreVerificationTesting`'s `SignedDataMinter`).
    public struct LastTransaction: Sendable, Hashable {
        /// The subscription's status (`.active`, `.expired`, `.billingRetry`, ...). The
        /// fake's `status` query filter compares this.
        public var status: Status
        /// The subscription's original transaction ID.
        public var originalTransactionId: String
        /// The latest transaction, a JWS.
        public var signedTransactionInfo: String
        /// The renewal info, a JWS; `nil` to leave it out of the answer.
        public var signedRenewalInfo: String?

        /// The latest transaction of a subscription.
        public init(status: Status, originalTransactionId: String, signedTransactionInfo: String, signedRenewalInfo: String?) {
            self.status = status
            self.originalTransactionId = originalTransactionId
            self.signedTransactionInfo = signedTransactionInfo
            self.signedRenewalInfo = signedRenewalInfo
        }
    }
}

extension FakeAppStoreServerAPI.SubscriptionGroupStatus: Encodable {}
extension FakeAppStoreServerAPI.LastTransaction: Encodable {
    private enum CodingKeys: String, CodingKey {
        case status, originalTransactionId, signedTransactionInfo, signedRenewalInfo
    }

    /// Apple's JSON: `status` is a number.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(status.rawValue, forKey: .status)
        try container.encode(originalTransactionId, forKey: .originalTransactionId)
        try container.encode(signedTransactionInfo, forKey: .signedTransactionInfo)
        try container.encodeIfPresent(signedRenewalInfo, forKey: .signedRenewalInfo)
    }
}
