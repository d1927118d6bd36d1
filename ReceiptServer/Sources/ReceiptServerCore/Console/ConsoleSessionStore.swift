import Foundation
import Synchronization

/// The console's sessions, in this process's memory: a session is a random identifier in an
/// `HttpOnly`, `SameSite=Strict` cookie, and the server keeps, under the identifier's SHA-256, when
/// it ends, when it was last used and its CSRF token.
///
/// A session ends ``Limits/lifetime`` after sign-in, after ``Limits/idleTimeout`` without a request,
/// at sign-out, or when the process restarts (sign in again). At most ``Limits/capacity`` sessions
/// live at once; beyond that, signing in ends the least recently used one. Sessions are per
/// process: behind a load balancer with several processes, route each user to one process (sticky
/// sessions), or sign in on each.
final class ConsoleSessionStore: Sendable {
    /// How long sessions last and how many there may be.
    struct Limits: Sendable, Equatable {
        /// How long a session lasts after sign-in, however it is used.
        var lifetime: TimeInterval = 8 * 3600
        /// How long a session lasts without a request.
        var idleTimeout: TimeInterval = 30 * 60
        /// The most sessions alive at once.
        var capacity = 1000
    }

    /// A session and its state.
    private struct Entry {
        var session: ConsoleSession
        var lastSeen: Date
        /// A one-time message for the next page the session sees (what a reconciliation added).
        var flash: ConsoleFlash?
    }

    let limits: Limits
    private let entries = Mutex<[String: Entry]>([:])

    init(limits: Limits = Limits()) {
        self.limits = limits
    }

    /// Starts a session at `now`: the value for the browser's cookie, and the session.
    func create(now: Date) -> (cookieValue: String, session: ConsoleSession) {
        let cookieValue = ConsoleRandom.token()
        let session = ConsoleSession(id: ConsoleRandom.digest(cookieValue), csrfToken: ConsoleRandom.token(),
                                     expiresAt: now.addingTimeInterval(limits.lifetime))
        let limits = self.limits
        entries.withLock { entries in
            entries = entries.filter { !Self.hasEnded($0.value, at: now, limits: limits) }
            while entries.count >= max(1, limits.capacity),
                  let oldest = entries.min(by: { $0.value.lastSeen < $1.value.lastSeen }) {
                entries.removeValue(forKey: oldest.key)
            }
            entries[session.id] = Entry(session: session, lastSeen: now, flash: nil)
        }
        return (cookieValue, session)
    }

    /// The live session a cookie value names (marking it used at `now`), or `nil` when there is
    /// none: unknown, ended, or timed out (then it is removed).
    func session(forCookie cookieValue: String, now: Date) -> ConsoleSession? {
        let key = ConsoleRandom.digest(cookieValue)
        let limits = self.limits
        return entries.withLock { entries in
            guard var entry = entries[key] else { return nil }
            if Self.hasEnded(entry, at: now, limits: limits) {
                entries.removeValue(forKey: key)
                return nil
            }
            entry.lastSeen = now
            entries[key] = entry
            return entry.session
        }
    }

    /// Ends the session (sign-out).
    func end(_ session: ConsoleSession) {
        _ = entries.withLock { $0.removeValue(forKey: session.id) }
    }

    /// How many sessions are kept (live or not yet swept).
    var count: Int { entries.withLock { $0.count } }

    /// Keeps `flash` for the session's next page.
    func setFlash(_ flash: ConsoleFlash, for session: ConsoleSession) {
        entries.withLock { entries in
            entries[session.id]?.flash = flash
        }
    }

    /// The session's flash message for `customer`'s page, removed (shown once); a message for
    /// another customer's page stays.
    func takeFlash(for session: ConsoleSession, customer: String) -> ConsoleFlash? {
        entries.withLock { entries in
            guard let flash = entries[session.id]?.flash, flash.customer == customer else { return nil }
            entries[session.id]?.flash = nil
            return flash
        }
    }

    private static func hasEnded(_ entry: Entry, at now: Date, limits: Limits) -> Bool {
        now >= entry.session.expiresAt || now.timeIntervalSince(entry.lastSeen) >= limits.idleTimeout
    }
}
