/// Which kind of App Store signed data a stored row holds.
public enum SignedDataKind: String, Sendable, Codable, CaseIterable {
    /// A transaction JWS (`Transaction.jwsRepresentation`, `signedTransactionInfo`).
    case transaction
    /// A renewal-info JWS (`signedRenewalInfo`).
    case renewalInfo
    /// An App Store Server Notification V2 (`signedPayload`), with its nested signed data inside.
    case notification
}
