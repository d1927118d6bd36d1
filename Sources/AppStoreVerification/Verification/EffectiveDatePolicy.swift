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

    /// The instant this policy chooses for `payload` (whose parsed JSON is `document`).
    func instant(for payload: some SignedPayload, document: JSONValue) -> EffectiveInstant {
        switch self {
        case .signedDate:
            // Apple's rule: signedDate, else receiptCreationDate, else now.
            if let date = payload.defaultEffectiveDate {
                return EffectiveInstant(date, origin: payload.signedDate == nil ? "the payload's receiptCreationDate" : "the payload's signedDate")
            }
            if let milliseconds = document.member("receiptCreationDate")?.double {
                return EffectiveInstant(Date(timeIntervalSince1970: milliseconds / 1000), origin: "the payload's receiptCreationDate")
            }
            return .now(origin: "now, as the payload has neither signedDate nor receiptCreationDate")
        case .now:
            return .now()
        case .fixed(let date):
            return EffectiveInstant(date, origin: "the configured effective date")
        }
    }
}
