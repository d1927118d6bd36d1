import Foundation

/// The instant at which certificates must be valid.
public enum EffectiveDatePolicy: Sendable, Hashable {
    /// The payload's own signing date: `signedDate` (`receiptCreationDate` for an app transaction).
    ///
    /// Apple's rule when online revocation checks are off, and the default: data Apple signed while
    /// its certificate was valid stays verifiable after the certificate expires. A payload without
    /// that date is checked now, as Apple's library does.
    case signedDate
    /// The moment of verification.
    case now
    /// A fixed instant.
    case fixed(Date)

    /// The instant this policy chooses for data signed at `signingDate` (a receipt's creation date, ...).
    ///
    /// - Parameters:
    ///   - now: the moment of verification (the verifier's clock).
    ///   - origin: how messages name `signingDate`.
    ///   - fallbackOrigin: how messages name "now" when `signingDate` is `nil`.
    func instant(signingDate: Date?, origin: String, fallbackOrigin: String, now: Date) -> EffectiveInstant {
        switch self {
        case .signedDate:
            signingDate.map { EffectiveInstant($0, origin: origin) } ?? EffectiveInstant(now, origin: fallbackOrigin)
        case .now:
            EffectiveInstant(now, origin: "now")
        case .fixed(let date):
            EffectiveInstant(date, origin: "the configured effective date")
        }
    }

    /// The instant this policy chooses for `payload` (whose parsed JSON is `document`), the moment
    /// of verification being `now`.
    func instant(for payload: some SignedPayload, document: JSONValue, now: Date) -> EffectiveInstant {
        switch self {
        case .signedDate:
            // Apple's rule: signedDate, else receiptCreationDate, else now.
            if let date = payload.defaultEffectiveDate {
                return EffectiveInstant(date, origin: payload.signedDate == nil ? "the payload's receiptCreationDate" : "the payload's signedDate")
            }
            if let milliseconds = document.member("receiptCreationDate")?.double {
                return EffectiveInstant(Date(timeIntervalSince1970: milliseconds / 1000), origin: "the payload's receiptCreationDate")
            }
            return EffectiveInstant(now, origin: "now, as the payload has neither signedDate nor receiptCreationDate")
        case .now:
            return EffectiveInstant(now, origin: "now")
        case .fixed(let date):
            return EffectiveInstant(date, origin: "the configured effective date")
        }
    }
}
