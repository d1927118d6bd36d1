import Foundation
@testable import ReceiptServerCore
import Testing

/// The console's session store: sessions end after their lifetime, after the idle timeout, at
/// sign-out; the store holds at most its capacity; flash messages are shown once.
@Suite("Console: session store")
struct ConsoleSessionStoreTests {
    static let start = Date(timeIntervalSince1970: 1_800_000_000)

    @Test("A session lives while used, ends after its lifetime even when used, and after the idle timeout")
    func expiry() {
        let store = ConsoleSessionStore(limits: .init(lifetime: 3600, idleTimeout: 600, capacity: 10))
        let (cookie, session) = store.create(now: Self.start)
        #expect(session.expiresAt == Self.start.addingTimeInterval(3600))
        #expect(store.session(forCookie: cookie, now: Self.start.addingTimeInterval(599)) == session)
        // Used every 9 minutes: alive until the lifetime ends.
        var now = Self.start.addingTimeInterval(599)
        while now.addingTimeInterval(540) < Self.start.addingTimeInterval(3600) {
            now = now.addingTimeInterval(540)
            #expect(store.session(forCookie: cookie, now: now) == session)
        }
        #expect(store.session(forCookie: cookie, now: Self.start.addingTimeInterval(3600)) == nil)
        #expect(store.count == 0, "an ended session is removed")

        let (idleCookie, _) = store.create(now: Self.start)
        #expect(store.session(forCookie: idleCookie, now: Self.start.addingTimeInterval(600)) == nil)
    }

    @Test("Sign-out ends a session; unknown and empty cookies name none; the cookie value is not the key")
    func endAndUnknown() {
        let store = ConsoleSessionStore()
        let (cookie, session) = store.create(now: Self.start)
        #expect(session.id != cookie)
        #expect(session.id == ConsoleRandom.digest(cookie))
        #expect(store.session(forCookie: session.id, now: Self.start) == nil, "the key is not a cookie")
        #expect(store.session(forCookie: "", now: Self.start) == nil)
        store.end(session)
        #expect(store.session(forCookie: cookie, now: Self.start) == nil)
    }

    @Test("At capacity, a new session ends the least recently used one")
    func capacity() {
        let store = ConsoleSessionStore(limits: .init(lifetime: 3600, idleTimeout: 600, capacity: 2))
        let (first, _) = store.create(now: Self.start)
        let (second, _) = store.create(now: Self.start.addingTimeInterval(1))
        #expect(store.session(forCookie: first, now: Self.start.addingTimeInterval(2)) != nil)
        let (third, _) = store.create(now: Self.start.addingTimeInterval(3))
        #expect(store.count == 2)
        #expect(store.session(forCookie: second, now: Self.start.addingTimeInterval(4)) == nil)
        #expect(store.session(forCookie: first, now: Self.start.addingTimeInterval(4)) != nil)
        #expect(store.session(forCookie: third, now: Self.start.addingTimeInterval(4)) != nil)
    }

    @Test("Tokens are 256-bit base64url, distinct; CSRF tokens differ from session cookies")
    func tokens() {
        let store = ConsoleSessionStore()
        var seen = Set<String>()
        for _ in 0..<100 {
            let (cookie, session) = store.create(now: Self.start)
            #expect(cookie.count == 43)
            #expect(session.csrfToken.count == 43)
            #expect(cookie.allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" })
            #expect(seen.insert(cookie).inserted)
            #expect(seen.insert(session.csrfToken).inserted)
        }
    }

    @Test("A flash message is shown once, on its customer's page only")
    func flash() {
        let store = ConsoleSessionStore()
        let (_, session) = store.create(now: Self.start)
        store.setFlash(ConsoleFlash(customer: "a", failure: "failed"), for: session)
        #expect(store.takeFlash(for: session, customer: "b") == nil)
        #expect(store.takeFlash(for: session, customer: "a")?.failure == "failed")
        #expect(store.takeFlash(for: session, customer: "a") == nil)
    }

    @Test("Constant-time comparison: equal only for the same text")
    func constantTime() {
        #expect(ConsoleRandom.constantTimeEquals("abc", "abc"))
        #expect(!ConsoleRandom.constantTimeEquals("abd", "abc"))
        #expect(!ConsoleRandom.constantTimeEquals("ab", "abc"))
        #expect(!ConsoleRandom.constantTimeEquals("abcd", "abc"))
        #expect(!ConsoleRandom.constantTimeEquals("", "abc"))
    }
}
