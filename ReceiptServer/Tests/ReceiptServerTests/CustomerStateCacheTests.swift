import AppStoreVerification
@testable import ReceiptServerCore
import Testing

/// The cache remembers this process's committed changes only for restores in flight, and moves a
/// restored state forward by exactly those.
@Suite("Customer state cache")
struct CustomerStateCacheTests {
    static func state(_ revision: Int64) -> CustomerState {
        CustomerState(revision: revision, engine: EntitlementEngine(), rejected: [])
    }

    static func change(_ revision: Int64, _ customer: String = "c") -> CustomerChange {
        CustomerChange(customer: customer, revision: revision, previousRevision: revision - 1, items: [])
    }

    @Test("A change committed while a restore reads moves the restored state forward")
    func changeDuringRestore() {
        let cache = CustomerStateCache(capacity: 10)
        cache.beginRestore(of: "c")
        cache.apply(Self.change(2))
        cache.apply(Self.change(3))
        cache.keep(Self.state(1), of: "c")
        #expect(cache.state(of: "c", at: 3)?.revision == 3)
    }

    @Test("Changes committed before a restore began, or after it ended, are not remembered")
    func changesOutsideRestores() {
        let cache = CustomerStateCache(capacity: 10)
        cache.apply(Self.change(2))
        cache.beginRestore(of: "c")
        cache.keep(Self.state(1), of: "c")
        #expect(cache.state(of: "c", at: 2) == nil)
        #expect(cache.state(of: "c", at: 1)?.revision == 1)

        let other = CustomerStateCache(capacity: 10)
        other.beginRestore(of: "c")
        other.apply(Self.change(2))
        other.endRestore(of: "c")
        other.beginRestore(of: "c")
        other.keep(Self.state(1), of: "c")
        #expect(other.state(of: "c", at: 2) == nil)
    }

    @Test("Two restores of one customer in flight: the second still sees changes after the first is kept")
    func overlappingRestores() {
        let cache = CustomerStateCache(capacity: 10)
        cache.beginRestore(of: "c")
        cache.beginRestore(of: "c")
        cache.apply(Self.change(2))
        cache.keep(Self.state(1), of: "c")
        #expect(cache.state(of: "c", at: 2)?.revision == 2)
        cache.apply(Self.change(3))
        #expect(cache.state(of: "c", at: 3)?.revision == 3)
        cache.keep(Self.state(1), of: "c")
        #expect(cache.state(of: "c", at: 3)?.revision == 3)
    }

    @Test("A gap in the changes keeps the state as read (the next read restores again)")
    func gap() {
        let cache = CustomerStateCache(capacity: 10)
        cache.beginRestore(of: "c")
        cache.apply(Self.change(3))
        cache.keep(Self.state(1), of: "c")
        #expect(cache.state(of: "c", at: 3) == nil)
        #expect(cache.state(of: "c", at: 1)?.revision == 1)
    }

    @Test("When full, the least recently used customer is dropped")
    func leastRecentlyUsed() {
        let cache = CustomerStateCache(capacity: 2)
        for customer in ["a", "b"] {
            cache.beginRestore(of: customer)
            cache.keep(Self.state(1), of: customer)
        }
        #expect(cache.state(of: "a", at: 1) != nil)
        cache.beginRestore(of: "c")
        cache.keep(Self.state(1), of: "c")
        #expect(cache.state(of: "a", at: 1) != nil)
        #expect(cache.state(of: "b", at: 1) == nil)
        #expect(cache.state(of: "c", at: 1) != nil)
    }
}
