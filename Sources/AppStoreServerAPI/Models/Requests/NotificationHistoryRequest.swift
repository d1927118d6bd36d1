import AppStoreVerification
import Foundation

/// The body of Get Notification History (Apple's `NotificationHistoryRequest`): a date range
/// (required, at most 180 days back) and optional filters.
public struct NotificationHistoryRequest: Sendable, Hashable, Encodable {
    /// The start of the range (inclusive), sent as milliseconds since 1970.
    public var startDate: Date
    /// The end of the range (exclusive), sent as milliseconds since 1970.
    public var endDate: Date
    /// Only notifications of this type.
    public var notificationType: NotificationTypeV2?
    /// Only notifications of this subtype.
    public var notificationSubtype: Subtype?
    /// Only notifications about this transaction (any transaction ID of the customer). Apple
    /// refuses it together with the type filters.
    public var transactionId: String?
    /// Only notifications whose delivery to your server failed.
    public var onlyFailures: Bool?

    /// A request for the notifications in `startDate ..< endDate`, optionally filtered.
    ///
    /// - Parameters: as the properties describe.
    public init(startDate: Date, endDate: Date, notificationType: NotificationTypeV2? = nil, notificationSubtype: Subtype? = nil,
                transactionId: String? = nil, onlyFailures: Bool? = nil) {
        self.startDate = startDate
        self.endDate = endDate
        self.notificationType = notificationType
        self.notificationSubtype = notificationSubtype
        self.transactionId = transactionId
        self.onlyFailures = onlyFailures
    }
}
