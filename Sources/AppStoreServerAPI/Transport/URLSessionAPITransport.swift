import AppStoreVerification
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The App Store Server API over Foundation's `URLSession` (FoundationNetworking on Linux): the
/// default transport without the `ServerAPIClient` trait, so a plain dependency line on this
/// package can call Apple's API.
///
/// One ephemeral session (no cookies, no cache) per transport; redirects are never followed, the
/// body is read only up to the size limit, and each request has its own timeout. On Linux,
/// FoundationNetworking keeps a thread busy while a response is pending: a server making many
/// calls at once does better with ``AsyncHTTPClientTransport`` (the `ServerAPIClient` trait) or a
/// transport over the HTTP client it already has.
public final class URLSessionAPITransport: AppStoreServerAPITransport, @unchecked Sendable {
    /// A transport shared by every client that does not configure its own (without the trait).
    public static let shared = URLSessionAPITransport()

    private let http = URLSessionHTTP()

    /// A transport with its own ephemeral `URLSession`.
    public init() {}

    /// Sends `request` through the session.
    public func send(_ request: AppStoreServerAPIHTTPRequest, timeout: Duration, maximumResponseBodySize: Int) async throws -> AppStoreServerAPIHTTPResponse {
        let summary = "\(request.method) \(URLComponents(string: request.url)?.percentEncodedPath ?? request.url)"
        guard let url = URL(string: request.url) else {
            throw AppStoreServerAPIError(.invalidRequest, "\(summary): \(request.url) is not a URL")
        }
        var urlRequest = URLRequest(url: url)
        urlRequest.httpMethod = request.method
        urlRequest.httpBody = request.body
        for field in request.headers { urlRequest.addValue(field.value, forHTTPHeaderField: field.name) }
        do {
            let answer = try await http.send(urlRequest, timeout: timeout, maximumResponseLength: maximumResponseBodySize)
            return AppStoreServerAPIHTTPResponse(statusCode: answer.statusCode,
                                                 headers: answer.headers.map { AppStoreServerAPIHTTPField(name: $0.name, value: $0.value) },
                                                 body: answer.body)
        } catch is URLSessionHTTP.TooLarge {
            throw AppStoreServerAPIError(.malformedResponse, "\(summary): the response body is larger than \(maximumResponseBodySize) bytes (Options.maximumResponseBodySize)")
        } catch let error as URLError where error.code == .timedOut {
            throw AppStoreServerAPIError(.timedOut, "\(summary): no complete response within \(timeout) (Options.requestTimeout)")
        } catch let error as URLError where error.code == .cancelled {
            throw CancellationError()
        }
    }
}
