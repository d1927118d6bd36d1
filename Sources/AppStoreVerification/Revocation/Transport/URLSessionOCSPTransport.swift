import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// An ``OCSPTransport`` on Foundation's `URLSession` (FoundationNetworking on Linux): the default
/// on Apple platforms. On Linux the default is ``SocketOCSPTransport``, because FoundationNetworking
/// keeps a thread busy while a response is pending (see ``OCSPOptions/defaultTransport``).
///
/// One ephemeral session (no cookies, no cache) serves every request. Redirects are never followed
/// (a 3xx is returned as it is, and the verifier treats it as unavailable), the body is read only
/// up to the size limit, and each request has its own timeout.
public final class URLSessionOCSPTransport: OCSPTransport, @unchecked Sendable {
    /// A transport shared by every verifier that does not configure its own (on Apple platforms).
    public static let shared = URLSessionOCSPTransport()

    private let http = URLSessionHTTP()

    /// A transport with its own ephemeral `URLSession`.
    public init() {}

    public func post(_ body: Data, to url: URL, timeout: Duration, maximumResponseLength: Int) async throws -> OCSPHTTPResponse {
        var request = URLRequest(url: url)
        request.httpMethod = "POST"
        request.httpBody = body
        request.setValue("application/ocsp-request", forHTTPHeaderField: "Content-Type")
        request.setValue("application/ocsp-response", forHTTPHeaderField: "Accept")
        do {
            let answer = try await http.send(request, timeout: timeout, maximumResponseLength: maximumResponseLength)
            return OCSPHTTPResponse(statusCode: answer.statusCode, body: answer.body)
        } catch is URLSessionHTTP.TooLarge {
            throw OCSPTransportError(.responseTooLarge, "the response body exceeded \(maximumResponseLength) bytes")
        }
    }
}
