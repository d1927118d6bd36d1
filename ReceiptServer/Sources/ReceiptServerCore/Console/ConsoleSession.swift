import Foundation

/// A signed-in console user's session, kept by ``ConsoleSessionStore`` (server side: the browser's
/// cookie holds only a random identifier).
struct ConsoleSession: Sendable, Equatable {
    /// The store's key for the session: the SHA-256 of the cookie's value, in hex (the cookie value
    /// itself is kept nowhere on the server).
    let id: String
    /// The token every state-changing form of this session carries (hidden field `csrf`), checked
    /// on each POST: a page of another site cannot read it, so it cannot forge the form.
    let csrfToken: String
    /// When the session ends, however it is used (the cookie's `Max-Age` says the same).
    let expiresAt: Date

    /// The session of the request being handled, set by ``ConsoleSessionMiddleware`` for the routes
    /// behind it.
    @TaskLocal static var current: ConsoleSession?
}
