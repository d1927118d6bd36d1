import Foundation

/// The JSON bodies of Apple's answers that the fake serves, with Apple's member names.
enum APIResponseBodies {
    /// Get Transaction History (v1 and v2) and Get Refund History: `HistoryResponse`,
    /// `RefundHistoryResponse`.
    struct History: Encodable {
        let revision: String
        let hasMore: Bool
        let bundleId: String?
        let appAppleId: Int64?
        let environment: String?
        let signedTransactions: [String]
    }

    /// Get Transaction Info: `TransactionInfoResponse`.
    struct TransactionInfo: Encodable {
        let signedTransactionInfo: String
    }

    /// Get App Transaction Info: `AppTransactionInfoResponse`.
    struct AppTransactionInfo: Encodable {
        let signedAppTransactionInfo: String
    }

    /// Get All Subscription Statuses: `StatusResponse`.
    struct Statuses: Encodable {
        let environment: String
        let bundleId: String
        let appAppleId: Int64?
        let data: [FakeAppStoreServerAPI.SubscriptionGroupStatus]
    }

    /// Get Notification History: `NotificationHistoryResponse`.
    struct NotificationHistory: Encodable {
        let paginationToken: String
        let hasMore: Bool
        let notificationHistory: [FakeAppStoreServerAPI.NotificationHistoryEntry]
    }

    /// Look Up Order ID: `OrderLookupResponse` (status 0 valid, 1 invalid).
    struct OrderLookup: Encodable {
        let status: Int
        let signedTransactions: [String]
    }

    /// Request a Test Notification: `SendTestNotificationResponse`.
    struct TestNotificationToken: Encodable {
        let testNotificationToken: String
    }

    /// Get Test Notification Status: `CheckTestNotificationResponse`.
    struct TestNotificationStatus: Encodable {
        let signedPayload: String
        let sendAttempts: [FakeAppStoreServerAPI.SendAttempt]
    }
}
