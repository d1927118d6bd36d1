import Foundation

/// A bounded, thread-safe, least-recently-used map.
///
/// One lock guards a dictionary of slots threaded on a doubly linked list (by index), so a lookup or
/// an insertion is O(1) and allocates nothing once the cache is full.
final class LRUCache<Key: Hashable & Sendable, Value: Sendable>: @unchecked Sendable {
    private struct Slot {
        var key: Key
        var value: Value
        var newer: Int
        var older: Int
    }

    /// The most entries kept; 0 disables the cache.
    let capacity: Int

    private let lock = NSLock()
    private var indexByKey: [Key: Int] = [:]
    private var slots: [Slot] = []
    private var newest = -1
    private var oldest = -1

    init(capacity: Int) {
        self.capacity = max(0, capacity)
        indexByKey.reserveCapacity(self.capacity)
        slots.reserveCapacity(self.capacity)
    }

    /// The value under `key` if `isUsable` accepts it; a usable hit becomes the most recent entry.
    func value(for key: Key, where isUsable: (Value) -> Bool) -> Value? {
        guard capacity > 0 else { return nil }
        lock.lock()
        defer { lock.unlock() }
        guard let index = indexByKey[key] else { return nil }
        let value = slots[index].value
        guard isUsable(value) else { return nil }
        moveToFront(index)
        return value
    }

    /// Stores `value` under `key`, evicting the least recently used entry when full.
    func insert(_ value: Value, for key: Key) {
        guard capacity > 0 else { return }
        lock.lock()
        defer { lock.unlock() }
        if let index = indexByKey[key] {
            slots[index].value = value
            moveToFront(index)
            return
        }
        let index: Int
        if slots.count < capacity {
            slots.append(Slot(key: key, value: value, newer: -1, older: -1))
            index = slots.count - 1
        } else {
            index = oldest
            unlink(index)
            indexByKey.removeValue(forKey: slots[index].key)
            slots[index] = Slot(key: key, value: value, newer: -1, older: -1)
        }
        indexByKey[key] = index
        linkAtFront(index)
    }

    /// How many entries are cached.
    var count: Int {
        lock.lock()
        defer { lock.unlock() }
        return slots.count
    }

    private func moveToFront(_ index: Int) {
        guard index != newest else { return }
        unlink(index)
        linkAtFront(index)
    }

    private func unlink(_ index: Int) {
        let newer = slots[index].newer
        let older = slots[index].older
        if newer >= 0 { slots[newer].older = older } else { newest = older }
        if older >= 0 { slots[older].newer = newer } else { oldest = newer }
        slots[index].newer = -1
        slots[index].older = -1
    }

    private func linkAtFront(_ index: Int) {
        slots[index].older = newest
        slots[index].newer = -1
        if newest >= 0 { slots[newest].newer = index }
        newest = index
        if oldest < 0 { oldest = index }
    }
}
