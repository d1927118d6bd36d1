import Foundation

/// How the verifier sends an OCSP request: one HTTP POST of the DER request
/// (`Content-Type: application/ocsp-request`) to the responder URL a certificate names.
///
/// The default (``OCSPOptions/defaultTransport``) is ``SocketOCSPTransport`` on Linux, where
/// FoundationNetworking's `URLSession` keeps a thread busy while a response is pending, and
/// ``URLSessionOCSPTransport`` on Apple platforms; both are available everywhere. Conform your own
/// type to route requests through another HTTP client (AsyncHTTPClient, ...). A conforming transport
/// must not follow redirects, must stop reading and throw ``OCSPTransportError`` with
/// ``OCSPTransportError/Code/responseTooLarge`` once the body exceeds `maximumResponseLength`, and should give up after `timeout` (the verifier enforces the
/// timeout anyway and abandons the request). `URLError(.timedOut)` reads as a timeout,
/// `URLError(.cancelled)` and `CancellationError` as cancellation, ``OCSPTransportError`` with
/// ``OCSPTransportError/Code/invalidResponse`` as an unacceptable response; any other error means
/// the responder could not be reached.
public protocol OCSPTransport: Sendable {
    /// POSTs `body` to `url` and returns the HTTP status and body.
    func post(_ body: Data, to url: URL, timeout: Duration, maximumResponseLength: Int) async throws -> OCSPHTTPResponse
}

/// An HTTP response as an ``OCSPTransport`` returns it.
public struct OCSPHTTPResponse: Sendable, Hashable {
    /// The HTTP status code (200 for an answer).
    public var statusCode: Int
    /// The body: a DER OCSPResponse when the status is 200.
    public var body: Data

    /// A response with this status and body.
    public init(statusCode: Int, body: Data) {
        self.statusCode = statusCode
        self.body = body
    }
}
