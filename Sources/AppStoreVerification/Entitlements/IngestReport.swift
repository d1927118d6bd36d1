/// What ingesting one item did: whether the history changed, what was rejected, and what verified
/// data was set aside and why.
///
/// Ingesting the same item again, or an older version of a transaction already known, reports
/// `changed == false`: the history is a function of the set of items, not of their order.
public struct IngestReport: Sendable, Hashable {
    /// Whether the customer's history changed (so the answers may have changed).
    public var changed: Bool = false
    /// Signed data that did not verify (or, nested in a notification, did not decode); it changed
    /// nothing.
    public var rejections: [Rejection] = []
    /// Verified data the engine does not use, with the reason (a consumable, a payload without the
    /// identifiers it needs, a notification that carries no transaction).
    public var notes: [String] = []

    /// An empty report.
    public init() {}

    mutating func absorb(_ other: IngestReport) {
        changed = changed || other.changed
        rejections += other.rejections
        notes += other.notes
    }
}

/// A piece of signed data the engine refused because it was not verified.
public struct Rejection: Sendable, Hashable, CustomStringConvertible {
    /// Which item: `transaction`, `renewalInfo`, `notification`, or for data nested in a
    /// notification `notification.signedTransactionInfo` / `notification.signedRenewalInfo`.
    public let item: String
    /// `VerificationError.code` (`invalidSignature`, ...) or, for nested data that did not decode,
    /// the `SignedDataDecodingError.Code` raw value.
    public let code: String
    /// Why, in a sentence.
    public let message: String

    /// Creates a rejection.
    public init(item: String, code: String, message: String) {
        self.item = item
        self.code = code
        self.message = message
    }

    /// `item: code: message`.
    public var description: String { "\(item): \(code): \(message)" }
}

/// Why verified data was set aside (internal carrier of a note).
struct IngestNote: Error {
    let text: String
    init(_ text: String) { self.text = text }
}
