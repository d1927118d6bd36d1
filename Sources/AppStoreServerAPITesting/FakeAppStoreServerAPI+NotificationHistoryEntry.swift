import AppStoreServerAPI
import Foundation

extension FakeAppStoreServerAPI {
    /// One item of a Get Notification History answer (`NotificationHistoryResponseItem`): a
    /// notification's signed payload and the App Store's attempts to send it.
    public struct NotificationHistoryEntry: Sendable, Hashable {
        /// The notification's `signedPayload`, a JWS (mint it with `SignedDataMinter.notification`).
        public var signedPayload: String
        /// The attempts to send it, oldest first.
        public var sendAttempts: [SendAttempt]

        /// A notification and its send attempts (by default one successful attempt now).
        public init(signedPayload: String, sendAttempts: [SendAttempt] = [SendAttempt(date: Date(), result: .success)]) {
            self.signedPayload = signedPayload
            self.sendAttempts = sendAttempts
        }
    }

    /// One attempt to send a notification (`SendAttemptItem`).
    public struct SendAttempt: Sendable, Hashable {
        /// When the App Store tried (sent as whole milliseconds since 1970).
        public var date: Date
        /// What happened.
        public var result: SendAttemptResult

        /// An attempt at `date` with `result`.
        public init(date: Date, result: SendAttemptResult) {
            self.date = date
            self.result = result
        }
    }
}

extension FakeAppStoreServerAPI.NotificationHistoryEntry: Encodable {}
extension FakeAppStoreServerAPI.SendAttempt: Encodable {
    private enum CodingKeys: String, CodingKey {
        case attemptDate, sendAttemptResult
    }

    /// Apple's JSON: `attemptDate` in milliseconds since 1970, `sendAttemptResult` as text.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(Int64((date.timeIntervalSince1970 * 1000).rounded()), forKey: .attemptDate)
        try container.encode(result.rawValue, forKey: .sendAttemptResult)
    }
}
