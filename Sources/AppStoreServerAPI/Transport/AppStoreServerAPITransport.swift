import Foundation

/// How the client sends one HTTP request to the App Store Server API and reads the answer.
///
/// The client does everything else: the bearer token, the path and query, JSON, retries,
/// `Retry-After`, pacing, deadlines and verification. With the `ServerAPIClient` trait the default
/// is ``AsyncHTTPClientTransport``; without it, ``URLSessionAPITransport``. Conform your own type to
/// send through the HTTP client your server already has (Vapor's `Client`, ...).
///
/// A conforming transport:
/// - sends ``AppStoreServerAPIHTTPRequest/headers`` as given and never follows a redirect (a 3xx
///   comes back as it is);
/// - stops reading and throws ``AppStoreServerAPIError`` with code `malformedResponse` once the body
///   passes `maximumResponseBodySize`;
/// - gives up after `timeout` (the client enforces it anyway and abandons the request);
/// - throws `CancellationError` when the calling task is cancelled.
///
/// An ``AppStoreServerAPIError`` it throws (`timedOut`, `transportFailure`, `malformedResponse`,
/// `unexpectedRedirect`, `cancelled`) is passed on; any other error reads as a connection failure
/// (`transportFailure`), which the client retries.
public protocol AppStoreServerAPITransport: Sendable {
    /// Sends `request` and returns the whole answer, within `timeout`.
    func send(_ request: AppStoreServerAPIHTTPRequest, timeout: Duration, maximumResponseBodySize: Int) async throws -> AppStoreServerAPIHTTPResponse
}

/// One request as the client hands it to an ``AppStoreServerAPITransport``.
public struct AppStoreServerAPIHTTPRequest: Sendable, Hashable {
    /// `GET`, `POST`, `PUT` or `DELETE`.
    public var method: String
    /// The absolute URL: the base URL, the percent-encoded path and the query.
    public var url: String
    /// The header fields to send, in order (`Authorization`, `Accept`, `User-Agent`, and
    /// `Content-Type` with a body).
    public var headers: [AppStoreServerAPIHTTPField]
    /// The body, if any.
    public var body: Data?

    /// A request.
    public init(method: String, url: String, headers: [AppStoreServerAPIHTTPField], body: Data?) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
    }
}

/// One HTTP header field.
public struct AppStoreServerAPIHTTPField: Sendable, Hashable {
    /// The field's name, as written.
    public var name: String
    /// The field's value.
    public var value: String

    /// A header field.
    public init(name: String, value: String) {
        self.name = name
        self.value = value
    }
}

/// The answer an ``AppStoreServerAPITransport`` returns.
public struct AppStoreServerAPIHTTPResponse: Sendable, Hashable {
    /// The HTTP status code.
    public var statusCode: Int
    /// The header fields, in the order received.
    public var headers: [AppStoreServerAPIHTTPField]
    /// The whole body.
    public var body: Data

    /// An answer.
    public init(statusCode: Int, headers: [AppStoreServerAPIHTTPField] = [], body: Data = Data()) {
        self.statusCode = statusCode
        self.headers = headers
        self.body = body
    }

    /// The first value of the header field `name` (compared without case), if any.
    public func header(_ name: String) -> String? {
        headers.first { $0.name.caseInsensitiveCompare(name) == .orderedSame }?.value
    }

    /// The header fields as ``AppStoreServerAPIError/responseHeaders`` carries them: names
    /// lowercased, values in order.
    var headerDictionary: [String: [String]] {
        var dictionary: [String: [String]] = [:]
        for field in headers { dictionary[field.name.lowercased(), default: []].append(field.value) }
        return dictionary
    }
}
