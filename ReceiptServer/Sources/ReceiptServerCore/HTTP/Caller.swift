/// Who sent a request, as ``BearerTokenMiddleware`` established it.
public enum Caller: Sendable, Hashable {
    /// Anyone: an app, Apple, or a stranger. Told only about what it posted.
    case anonymous
    /// A caller that presented the server's access token: your backend, trusted with every
    /// customer's data.
    case backend
}
