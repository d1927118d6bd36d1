import Foundation

/// Everything the entitlement engine knows about one customer: for each transaction ID the version
/// of the transaction with the latest `signedDate`, for each original transaction ID the latest
/// renewal info, and the revocations that `REVOKE` notifications announced.
///
/// It is a function of the *set* of verified items ingested, never of their order or repetition,
/// and it is plain `Codable` data (dates in milliseconds since 1970, records sorted), so a server
/// stores it in any database and restores it into an ``EntitlementEngine`` with the same answers:
///
/// ```swift
/// let stored = try JSONEncoder().encode(engine.history)
/// // ... later, maybe in another process:
/// let history = try JSONDecoder().decode(CustomerHistory.self, from: stored)
/// var engine = EntitlementEngine(configuration: configuration, history: history)
/// ```
public struct CustomerHistory: Codable, Hashable, Sendable {
    /// The version of the encoded form; decoding another version fails.
    public static let formatVersion = 1

    /// Transactions by `transactionId` (the latest-signed version of each).
    private(set) var transactions: [String: TransactionRecord] = [:]
    /// Renewal info by `originalTransactionId` (the latest-signed version of each).
    private(set) var renewals: [String: RenewalRecord] = [:]
    /// The earliest revocation a `REVOKE` notification announced, by `transactionId`, in milliseconds.
    private(set) var revocationNotices: [String: Int64] = [:]

    /// An empty history.
    public init() {}

    /// Whether nothing has been ingested that decides an entitlement.
    public var isEmpty: Bool { transactions.isEmpty && renewals.isEmpty && revocationNotices.isEmpty }

    /// The IDs of the transactions known, sorted.
    public var transactionIds: [String] { transactions.keys.sorted() }

    /// The original transaction IDs with known renewal info, sorted.
    public var renewalOriginalTransactionIds: [String] { renewals.keys.sorted() }

    /// Keeps `record` if it is newer than the known version of its transaction; returns whether
    /// anything changed.
    mutating func merge(_ record: TransactionRecord) -> Bool {
        if let current = transactions[record.transactionId],
           !LatestVersion.prefers(record, over: current, candidateDate: record.signedDate, currentDate: current.signedDate) {
            return false
        }
        transactions[record.transactionId] = record
        return true
    }

    /// Keeps `record` if it is newer than the known renewal info of its subscription; returns
    /// whether anything changed.
    mutating func merge(_ record: RenewalRecord) -> Bool {
        if let current = renewals[record.originalTransactionId],
           !LatestVersion.prefers(record, over: current, candidateDate: record.signedDate, currentDate: current.signedDate) {
            return false
        }
        renewals[record.originalTransactionId] = record
        return true
    }

    /// Records that a `REVOKE` notification ended `transactionId` at `instant` (the earliest such
    /// instant wins); returns whether anything changed.
    mutating func noteRevocation(of transactionId: String, at instant: Int64) -> Bool {
        if let current = revocationNotices[transactionId], current <= instant { return false }
        revocationNotices[transactionId] = instant
        return true
    }

    // MARK: - Codable

    private enum CodingKeys: String, CodingKey {
        case version, transactions, renewalInfos, revocationNotices
    }

    private struct RevocationNotice: Codable {
        var transactionId: String
        var date: Int64
    }

    /// Decodes a stored history. Every record goes through the same merge rule as ingestion, so a
    /// hand-edited list with duplicates still yields a consistent history.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let version = try container.decode(Int.self, forKey: .version)
        guard version == Self.formatVersion else {
            throw DecodingError.dataCorruptedError(
                forKey: .version, in: container,
                debugDescription: "This CustomerHistory was stored in format version \(version); this library reads version \(Self.formatVersion). Rebuild it by ingesting the customer's signed data again.")
        }
        for record in try container.decode([TransactionRecord].self, forKey: .transactions) {
            _ = merge(record)
        }
        for record in try container.decode([RenewalRecord].self, forKey: .renewalInfos) {
            _ = merge(record)
        }
        for notice in try container.decode([RevocationNotice].self, forKey: .revocationNotices) {
            _ = noteRevocation(of: notice.transactionId, at: notice.date)
        }
    }

    /// Encodes the history with its records sorted by ID, so that equal histories encode
    /// identically with an encoder that sorts keys (`JSONEncoder.OutputFormatting.sortedKeys`).
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(Self.formatVersion, forKey: .version)
        try container.encode(transactions.keys.sorted().compactMap { transactions[$0] }, forKey: .transactions)
        try container.encode(renewals.keys.sorted().compactMap { renewals[$0] }, forKey: .renewalInfos)
        try container.encode(
            revocationNotices.keys.sorted().compactMap { id in revocationNotices[id].map { RevocationNotice(transactionId: id, date: $0) } },
            forKey: .revocationNotices)
    }
}
