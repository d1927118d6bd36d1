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
}
