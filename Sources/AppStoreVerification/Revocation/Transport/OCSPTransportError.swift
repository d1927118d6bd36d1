/// Why ``SocketOCSPTransport`` got no HTTP response: the URL cannot be asked, the responder cannot
/// be reached, or what it sent is not an HTTP response the transport accepts.
///
/// Timeouts are thrown as `URLError(.timedOut)`, cancellation as `CancellationError`, and a body
/// over the size limit as ``OCSPResponseTooLarge``, as ``URLSessionOCSPTransport`` does.
public struct OCSPTransportError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The kind of failure. Open: later versions may add codes.
    public struct Code: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
        /// The code as text.
        public let rawValue: String
        /// Creates a code from its text.
        public init(rawValue: String) { self.rawValue = rawValue }
        public var description: String { rawValue }

        /// The URL is not one the transport asks (not `http://`, no host, user information, ...);
        /// nothing was sent.
        public static let unsupportedURL = Code(rawValue: "unsupportedURL")
        /// The host name could not be resolved, no connection could be made (refused,
        /// unreachable), or the connection was reset.
        public static let unreachable = Code(rawValue: "unreachable")
        /// The responder sent something that is not an acceptable HTTP response (a malformed status
        /// line, header or chunk, oversized headers), or closed the connection before the response
        /// was complete.
        public static let invalidResponse = Code(rawValue: "invalidResponse")
    }

    /// The kind of failure.
    public let code: Code
    /// What went wrong, as a sentence fragment: "connection refused by 127.0.0.1 port 8080".
    public let message: String

    /// A failure of kind `code`, described by `message`.
    public init(_ code: Code, _ message: String) {
        self.code = code
        // Messages quote what a server sent; nothing in it may forge a log line.
        self.message = LogSafeText.escaping(message)
    }

    public var description: String { "\(code): \(message)" }
}
