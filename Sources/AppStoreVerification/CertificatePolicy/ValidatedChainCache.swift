import Foundation

/// Something remembered only while it holds: a validated chain or intermediate, with the seconds
/// since 1970, [lower, upper), in which every certificate it rests on is within its validity.
protocol ValidityWindowed: Sendable {
    var validity: Range<Int64> { get }
}

/// The one shape of the verifier's caches of validated certificates: a bounded LRU map whose
/// entries count only at instants inside their validity window. Keyed by the exact bytes that were
/// validated (a JWS header, a receipt's embedded certificates, an intermediate's DER), so a hit
/// never changes a verdict: it only skips work whose outcome is known.
struct ValidatedChainCache<Key: Hashable & Sendable, Entry: ValidityWindowed>: Sendable {
    private let entries: LRUCache<Key, Entry>

    init(capacity: Int) {
        entries = LRUCache(capacity: capacity)
    }

    /// How many entries are remembered.
    var count: Int { entries.count }

    /// Whether anything is ever remembered (a capacity of 0 turns the cache off).
    var isEnabled: Bool { entries.capacity > 0 }

    /// The entry for `key` if it holds at `instant`.
    func entry(for key: Key, at instant: Int64) -> Entry? {
        entries.value(for: key, where: { $0.validity.contains(instant) })
    }

    /// The entry for `key`, whatever its window (the caller checks the instant).
    func entry(for key: Key) -> Entry? {
        entries.value(for: key, where: { _ in true })
    }

    /// Remembers `entry` for `key` (a key with storage of its own: see the keys' `owned()`).
    func insert(_ entry: Entry, for key: Key) {
        entries.insert(entry, for: key)
    }
}

extension ValidatedChain: ValidityWindowed {}
