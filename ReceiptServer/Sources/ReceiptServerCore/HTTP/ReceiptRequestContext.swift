import Hummingbird

/// The request context of the server's routes: Hummingbird's core context and the ``Caller``.
public struct ReceiptRequestContext: RequestContext {
    public var coreContext: CoreRequestContextStorage
    /// Who sent the request; ``Caller/anonymous`` until ``BearerTokenMiddleware`` says otherwise.
    public var caller: Caller = .anonymous

    public init(source: ApplicationRequestContextSource) {
        self.coreContext = .init(source: source)
    }
}
