import AppStoreVerification

/// One notification the App Store sent, or tried to send (Apple's `NotificationHistoryResponseItem`).
public struct NotificationHistoryResponseItem: Sendable {
    /// `signedPayload`, verified, with its nested signed data verified too.
    public let notification: VerificationResult<ResponseBodyV2DecodedPayload>
    /// The attempts to send it to your server.
    public let sendAttempts: [SendAttemptItem]

    /// The item as Apple sends it.
    struct Body: Decodable, Sendable {
        let signedPayload: String?
        let sendAttempts: [SendAttemptItem]?
    }

    init(notification: VerificationResult<ResponseBodyV2DecodedPayload>, sendAttempts: [SendAttemptItem]) {
        self.notification = notification
        self.sendAttempts = sendAttempts
    }
}
