#if ServerAPIClient
import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1

/// The App Store Server API over AsyncHTTPClient: the default transport with the `ServerAPIClient`
/// trait.
public struct AsyncHTTPClientTransport: AppStoreServerAPITransport {
    /// The HTTP client requests go through.
    public let httpClient: HTTPClient

    /// A transport over `httpClient`; by default one shared by every client of this library, which
    /// needs no shutdown and follows no redirect (Apple's API never redirects).
    ///
    /// A client you give should have `redirectConfiguration = .disallow`: an answer that came
    /// through a redirect is refused with `unexpectedRedirect` either way. (AsyncHTTPClient
    /// retries a refused connection within each attempt's timeout unless its configuration's
    /// `connectionPool.retryConnectionEstablishment` is off.)
    public init(httpClient: HTTPClient = AsyncHTTPClientTransport.sharedHTTPClient) {
        self.httpClient = httpClient
    }

    /// AsyncHTTPClient's shared configuration without redirects. Never shut down, like
    /// `HTTPClient.shared`.
    public static let sharedHTTPClient: HTTPClient = {
        var configuration = HTTPClient.Configuration.singletonConfiguration
        configuration.redirectConfiguration = .disallow
        return HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
    }()

    /// Sends `request` through ``httpClient``.
    public func send(_ request: AppStoreServerAPIHTTPRequest, timeout: Duration, maximumResponseBodySize: Int) async throws -> AppStoreServerAPIHTTPResponse {
        let summary = "\(request.method) \(Self.path(of: request.url))"
        var http = HTTPClientRequest(url: request.url)
        http.method = HTTPMethod(rawValue: request.method)
        for field in request.headers { http.headers.add(name: field.name, value: field.value) }
        if let body = request.body { http.body = .bytes(ByteBuffer(bytes: body)) }
        do {
            let response = try await httpClient.execute(http, timeout: .nanoseconds(Self.nanoseconds(timeout)))
            if response.history.count > 1 {
                throw AppStoreServerAPIError(.unexpectedRedirect, "\(summary): the answer came through a redirect, which Apple's API never sends; give the transport an HTTPClient whose redirectConfiguration is .disallow")
            }
            let body = try await response.body.collect(upTo: maximumResponseBodySize)
            return AppStoreServerAPIHTTPResponse(statusCode: Int(response.status.code),
                                                 headers: response.headers.map { AppStoreServerAPIHTTPField(name: $0.name, value: $0.value) },
                                                 body: Data(body.readableBytesView))
        } catch let error as AppStoreServerAPIError {
            throw error
        } catch is NIOTooManyBytesError {
            throw AppStoreServerAPIError(.malformedResponse, "\(summary): the response body is larger than \(maximumResponseBodySize) bytes (Options.maximumResponseBodySize)")
        } catch let error as HTTPClientError {
            if error == .deadlineExceeded || error == .readTimeout || error == .connectTimeout || error == .writeTimeout {
                throw AppStoreServerAPIError(.timedOut, "\(summary): no complete response within \(timeout) (Options.requestTimeout)")
            }
            if error == .cancelled { throw CancellationError() }
            if error == .redirectCycleDetected || error == .redirectLimitReached {
                throw AppStoreServerAPIError(.unexpectedRedirect, "\(summary): the server answered with redirects (\(error)), which Apple's API never does; give the transport an HTTPClient whose redirectConfiguration is .disallow")
            }
            throw error
        }
    }

    /// The path of `url`, for messages.
    static func path(of url: String) -> String {
        URLComponents(string: url)?.percentEncodedPath ?? url
    }

    private static func nanoseconds(_ duration: Duration) -> Int64 {
        let (seconds, attoseconds) = duration.components
        guard seconds < 9_000_000_000 else { return Int64.max }
        return seconds * 1_000_000_000 + attoseconds / 1_000_000_000
    }
}
#endif
