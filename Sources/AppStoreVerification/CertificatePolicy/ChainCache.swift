import Foundation

/// A bounded, thread-safe, least-recently-used cache of chains that passed ``AppleChainPolicy``.
///
/// Keys are the exact header segment of the JWS, so a hit also means the header itself already
/// passed its checks (`alg`, `crit`, `x5c` shape): two JWS with the same header text carry the same
/// `x5c` bytes. The cache belongs to one verifier, whose trusted roots and strictness never change,
/// so the trusted-root set is implied by the owner. Only chains that validated are stored, each with
/// the window in which all its certificates are valid; a lookup at an instant outside that window
/// misses, and the caller validates afresh (and fails, if the chain is not valid then).
final class ChainCache: @unchecked Sendable {
    private struct Entry {
        var key: Substring
        var chain: ValidatedChain
        var newer: Int
        var older: Int
    }

    /// The most entries kept; 0 disables caching.
    let capacity: Int

    private let lock = NSLock()
    private var indexByKey: [Substring: Int] = [:]
    private var entries: [Entry] = []
    private var newest = -1
    private var oldest = -1

    init(capacity: Int) {
        self.capacity = max(0, capacity)
        indexByKey.reserveCapacity(self.capacity)
        entries.reserveCapacity(self.capacity)
    }

    /// The chain cached under `key` if it is valid at `instant` (seconds since 1970).
    func chain(for key: Substring, at instant: Int64) -> ValidatedChain? {
        guard capacity > 0 else { return nil }
        lock.lock()
        defer { lock.unlock() }
        guard let index = indexByKey[key] else { return nil }
        let chain = entries[index].chain
        guard chain.validity.contains(instant) else { return nil }
        moveToFront(index)
        return chain
    }

    /// Remembers a chain that passed validation.
    func insert(_ chain: ValidatedChain, for key: Substring) {
        guard capacity > 0 else { return }
        // Own the key's storage: the JWS text it was sliced from may be large and short-lived.
        let ownedKey = Substring(String(key))
        lock.lock()
        defer { lock.unlock() }
        if let index = indexByKey[ownedKey] {
            entries[index].chain = chain
            moveToFront(index)
            return
        }
        if entries.count < capacity {
            entries.append(Entry(key: ownedKey, chain: chain, newer: -1, older: -1))
            let index = entries.count - 1
            indexByKey[ownedKey] = index
            linkAtFront(index)
        } else {
            let index = oldest
            unlink(index)
            indexByKey.removeValue(forKey: entries[index].key)
            entries[index] = Entry(key: ownedKey, chain: chain, newer: -1, older: -1)
            indexByKey[ownedKey] = index
            linkAtFront(index)
        }
    }

    /// How many chains are cached.
    var count: Int {
        lock.lock()
        defer { lock.unlock() }
        return entries.count
    }

    private func moveToFront(_ index: Int) {
        guard index != newest else { return }
        unlink(index)
        linkAtFront(index)
    }

    private func unlink(_ index: Int) {
        let newer = entries[index].newer
        let older = entries[index].older
        if newer >= 0 { entries[newer].older = older } else { newest = older }
        if older >= 0 { entries[older].newer = newer } else { oldest = newer }
        entries[index].newer = -1
        entries[index].older = -1
    }

    private func linkAtFront(_ index: Int) {
        entries[index].older = newest
        entries[index].newer = -1
        if newest >= 0 { entries[newest].newer = index }
        newest = index
        if oldest < 0 { oldest = index }
    }
}
