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

    /// The instants a certificate's validity (X.509 UTCTime or GeneralizedTime) can express:
    /// 0000-01-01T00:00:00Z to 9999-12-31T23:59:59Z. OpenSSL cannot compare a certificate's dates
    /// with an instant outside it (it reports a format error in the certificate's dates instead).
    static let certificateTimes: ClosedRange<Int64> = -62_167_219_200...253_402_300_799

    /// "2025-06-01T12:00:00Z (the payload's signedDate)".
    var text: String { "\(DateText.iso8601(seconds: seconds)) (\(origin))" }
}
