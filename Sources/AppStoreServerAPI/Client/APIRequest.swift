import Foundation

/// One App Store Server API request, before authentication.
struct APIRequest: Sendable {
    /// The HTTP method: GET, POST, PUT or DELETE.
    var method: String
    /// The path, every segment percent-encoded, starting with `/inApps/`.
    var path: String
    /// Query parameters in order (a name may repeat).
    var query: [(name: String, value: String)] = []
    /// The body, if any: JSON unless ``contentType`` says otherwise.
    var body: Data?
    /// The body's media type (`application/json`, or `image/png` for Upload Image).
    var contentType = "application/json"

    /// A request for `path`, built from literal segments and caller-given ones (percent-encoded).
    ///
    /// - Throws: ``AppStoreServerAPIError`` (`invalidRequest`) for an empty caller-given segment.
    init(_ method: String, _ segments: [PathSegment], query: [(name: String, value: String)] = [], body: Data? = nil,
         contentType: String = "application/json") throws(AppStoreServerAPIError) {
        var path = ""
        for segment in segments {
            switch segment {
            case .literal(let text):
                path += "/" + text
            case .parameter(let name, let value):
                guard !value.isEmpty else {
                    throw AppStoreServerAPIError(.invalidRequest, "\(name) is empty; give the identifier the App Store assigned")
                }
                path += "/" + Self.percentEncoded(value)
            }
        }
        self.method = method
        self.path = path
        self.query = query
        self.body = body
        self.contentType = contentType
    }

    /// A path segment.
    enum PathSegment: Sendable {
        /// A fixed segment such as `inApps`.
        case literal(String)
        /// A caller-given value (a transaction ID), named in errors.
        case parameter(name: String, value: String)
    }

    /// The row of Apple's published rate limits this request counts against, if Apple lists its
    /// endpoint.
    var rateLimit: PublishedRateLimit? { PublishedRateLimit.matching(method: method, path: path) }

    /// "GET /inApps/v1/..." for messages.
    var summary: String { "\(method) \(path)" }

    /// The path and query, appended to the base URL.
    var target: String {
        guard !query.isEmpty else { return path }
        return path + "?" + query.map { Self.percentEncoded($0.name) + "=" + Self.percentEncoded($0.value) }.joined(separator: "&")
    }

    /// RFC 3986 unreserved characters stay; everything else is percent-encoded.
    private static let unreserved: CharacterSet = {
        var set = CharacterSet()
        set.insert(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
        return set
    }()

    static func percentEncoded(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: unreserved) ?? ""
    }
}
