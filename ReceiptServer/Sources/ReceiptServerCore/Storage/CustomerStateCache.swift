import AppStoreVerification
import Synchronization

/// The customers' engines this process restored last, by `appAccountToken`, each with the revision
/// it was read at. A state is used only when the database says the customer is still at that
/// revision (one indexed read), so another server process writing the same database never makes
/// an answer stale. Writes of this process move a cached state forward by ingesting what they
/// stored, in commit order; anything else (another process, `reverify`, a purchase linked with
/// data stored before) makes the next read restore the state from the stored records.
///
/// Bounded: when full, the least recently used customer is dropped.
final class CustomerStateCache: Sendable {
    private struct Entry {
        var state: CustomerState
        var lastUse: UInt64
    }

    private struct Storage {
        var entries: [String: Entry] = [:]
        /// This process's latest committed changes per customer, oldest first: a state restored
        /// from the database while they committed is moved forward by them when it is kept.
        var recent: [String: [CustomerChange]] = [:]
        var clock: UInt64 = 0
    }

    /// How many changes per customer ``Storage/recent`` remembers.
    private static let recentChanges = 64

    private let capacity: Int
    private let storage = Mutex(Storage())

    /// A cache of at most `capacity` customers (0 disables it).
    init(capacity: Int) {
        self.capacity = max(0, capacity)
    }

    /// The cached state of `customer`, when it is at `revision` or later (a later one only moved
    /// forward by writes this process committed since `revision` was read).
    func state(of customer: String, at revision: Int64) -> CustomerState? {
        storage.withLock { storage in
            guard var entry = storage.entries[customer], entry.state.revision >= revision else { return nil }
            storage.clock += 1
            entry.lastUse = storage.clock
            storage.entries[customer] = entry
            return entry.state
        }
    }

    /// Keeps `state`, moved forward by the changes this process committed after it was read,
    /// unless a newer one is cached.
    func keep(_ state: CustomerState, of customer: String) {
        guard capacity > 0 else { return }
        storage.withLock { storage in
            var state = state
            for change in storage.recent[customer] ?? [] where change.revision > state.revision {
                guard change.previousRevision == state.revision, let items = change.items else { break }
                for item in items { state.engine.ingest(item) }
                state.revision = change.revision
            }
            if let current = storage.entries[customer], current.state.revision >= state.revision { return }
            storage.clock += 1
            storage.entries[customer] = Entry(state: state, lastUse: storage.clock)
            if storage.entries.count > capacity,
               let oldest = storage.entries.min(by: { $0.value.lastUse < $1.value.lastUse })?.key {
                storage.entries[oldest] = nil
            }
        }
    }

    /// Applies a committed write of this process: a state cached at `change.previousRevision`
    /// ingests the items and moves to `change.revision`; any other cached state of the customer is
    /// dropped (the next read restores it from the database).
    func apply(_ change: CustomerChange) {
        storage.withLock { storage in
            // Taken out of the dictionary, so that (unless an answer in progress still holds it)
            // the engine is the only owner of its history and ingests in place: a copy would cost
            // the whole history per write.
            if capacity > 0 {
                if storage.recent.count > max(capacity, 1024) { storage.recent.removeAll() }
                storage.recent[change.customer, default: []].append(change)
                if let count = storage.recent[change.customer]?.count, count > Self.recentChanges {
                    storage.recent[change.customer]?.removeFirst(count - Self.recentChanges)
                }
            }
            guard var entry = storage.entries.removeValue(forKey: change.customer) else { return }
            guard let items = change.items, entry.state.revision == change.previousRevision else { return }
            for item in items { entry.state.engine.ingest(item) }
            entry.state.revision = change.revision
            storage.entries[change.customer] = entry
        }
    }

    /// Forgets every state (after `reverify`).
    func removeAll() {
        storage.withLock { storage in
            storage.entries.removeAll()
            storage.recent.removeAll()
        }
    }
}

/// What a committed write changed for one customer.
struct CustomerChange: Sendable {
    /// The customer.
    var customer: String
    /// Their revision after the write.
    var revision: Int64
    /// Their revision before it (`revision - 1`).
    var previousRevision: Int64
    /// The verified items the write added for the customer, or `nil` when the state must be restored
    /// from the database (a purchase was linked that already had stored data).
    var items: [EntitlementEngine.Item]?
}
