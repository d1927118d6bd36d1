import AppStoreVerification

/// The test notification and its delivery attempts (Apple's `CheckTestNotificationResponse`).
public struct CheckTestNotificationResponse: Sendable {
    /// `signedPayload`, verified; `nil` when Apple sent none.
    public let notification: VerificationResult<ResponseBodyV2DecodedPayload>?
    /// The attempts to send it to your server.
    public let sendAttempts: [SendAttemptItem]

    /// The body as Apple sends it.
    struct Body: Decodable, Sendable {
        let signedPayload: String?
        let sendAttempts: [SendAttemptItem]?
    }
}
