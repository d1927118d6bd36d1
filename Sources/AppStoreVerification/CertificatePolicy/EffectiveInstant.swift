import Foundation

/// The instant at which a certificate chain is validated, and how it was chosen (for messages).
struct EffectiveInstant: Sendable, Hashable {
    /// Seconds since 1970, rounded down.
    let seconds: Int64
    /// How the instant was chosen: "the payload's signedDate", "now", ...
    let origin: String

    init(seconds: Int64, origin: String) {
        self.seconds = seconds
        self.origin = origin
    }

    /// The instant `date`, clamped to what OpenSSL's time arithmetic accepts.
    init(_ date: Date, origin: String) {
        let seconds = date.timeIntervalSince1970.rounded(.down)
        self.seconds = seconds.isFinite ? Int64(max(-9.0e15, min(9.0e15, seconds))) : 0
        self.origin = origin
    }

    /// The moment of verification.
    static func now(origin: String = "now") -> EffectiveInstant { EffectiveInstant(Date(), origin: origin) }

    /// "2025-06-01T12:00:00Z (the payload's signedDate)".
    var text: String { "\(DateText.iso8601(seconds: seconds)) (\(origin))" }
}
