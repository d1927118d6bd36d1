/// Why ``SocketOCSPTransport`` got no HTTP response: the URL cannot be asked, the responder cannot
/// be reached, or what it sent is not an HTTP response the transport accepts.
///
/// ``URLSessionOCSPTransport`` throws it for a body over the size limit
/// (``Code/responseTooLarge``), and so must any ``OCSPTransport``. Timeouts are thrown as
/// `URLError(.timedOut)` and cancellation as `CancellationError`.
///
/// Two errors are equal, and hash alike, when their ``code``s are equal, whatever their messages
/// (and other details) say: compare codes, never messages.
public struct OCSPTransportError: CodedError, Sendable {
    /// The kind of failure. Open: later versions may add codes.
    public struct Code: ErrorCode {
        package let text: String
        package init(_ text: String) { self.text = text }

        /// The URL is not one the transport asks (not `http://`, no host, user information, ...);
        /// nothing was sent.
        public static let unsupportedURL = Code("unsupportedURL")
        /// The host name could not be resolved, no connection could be made (refused,
        /// unreachable), or the connection was reset.
        public static let unreachable = Code("unreachable")
        /// The responder sent something that is not an acceptable HTTP response (a malformed status
        /// line, header or chunk, oversized headers), or closed the connection before the response
        /// was complete.
        public static let invalidResponse = Code("invalidResponse")
        /// The response body exceeded the `maximumResponseLength` the verifier asked for: the
        /// transport stopped reading.
        public static let responseTooLarge = Code("responseTooLarge")
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

}
