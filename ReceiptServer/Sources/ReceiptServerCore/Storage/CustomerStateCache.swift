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
        /// The customers whose state is being restored from the database now, each with the
        /// changes this process committed since the restore began, oldest first: the restored
        /// state is moved forward by them when it is kept. Nobody else's changes are remembered,
        /// so memory follows the restores in flight, not the writes.
        var restoring: [String: Restore] = [:]
        var clock: UInt64 = 0
    }

    /// The restores of one customer in flight and what committed meanwhile.
    private struct Restore {
        var count: Int
        var changes: [CustomerChange] = []
    }

    /// How many changes one restore in flight remembers; a restore that missed more is kept as read
    /// (its revision older than the database's, so the next read restores again).
    private static let changesPerRestore = 64

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

    /// Marks a restore of `customer` from the database as begun: from now on, this process's
    /// changes to the customer are remembered for it. Call before the database read; end it with
    /// ``keep(_:of:)`` or ``endRestore(of:)``.
    func beginRestore(of customer: String) {
        guard capacity > 0 else { return }
        storage.withLock { storage in
            storage.restoring[customer, default: Restore(count: 0)].count += 1
        }
    }

    /// Ends a restore begun with ``beginRestore(of:)`` without keeping its state (it failed, or the
    /// customer has nothing stored).
    func endRestore(of customer: String) {
        guard capacity > 0 else { return }
        storage.withLock { storage in
            _ = Self.endRestore(of: customer, in: &storage)
        }
    }

    /// Keeps `state`, restored after ``beginRestore(of:)``, moved forward by the changes this
    /// process committed since, unless a newer one is cached; ends the restore.
    func keep(_ state: CustomerState, of customer: String) {
        guard capacity > 0 else { return }
        storage.withLock { storage in
            let changes = Self.endRestore(of: customer, in: &storage)
            var state = state
            for change in changes where change.revision > state.revision {
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

    /// One restore of `customer` fewer; the changes remembered for it.
    private static func endRestore(of customer: String, in storage: inout Storage) -> [CustomerChange] {
        guard var restore = storage.restoring[customer] else { return [] }
        restore.count -= 1
        storage.restoring[customer] = restore.count > 0 ? restore : nil
        return restore.changes
    }

    /// Applies a committed write of this process: a state cached at `change.previousRevision`
    /// ingests the items and moves to `change.revision`; any other cached state of the customer is
    /// dropped (the next read restores it from the database). A restore of the customer in flight
    /// remembers the change.
    func apply(_ change: CustomerChange) {
        guard capacity > 0 else { return }
        storage.withLock { storage in
            if var restore = storage.restoring[change.customer] {
                storage.restoring[change.customer] = nil
                if restore.changes.count < Self.changesPerRestore { restore.changes.append(change) }
                storage.restoring[change.customer] = restore
            }
            // Taken out of the dictionary, so that (unless an answer in progress still holds it)
            // the engine is the only owner of its history and ingests in place: a copy would cost
            // the whole history per write.
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
