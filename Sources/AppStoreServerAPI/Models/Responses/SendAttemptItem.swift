import Foundation

/// One attempt to send a notification to your server (Apple's `SendAttemptItem`).
public struct SendAttemptItem: Sendable, Hashable, Decodable {
    /// When the App Store tried.
    public let attemptDate: Date?
    /// What happened.
    public let sendAttemptResult: SendAttemptResult?
}
