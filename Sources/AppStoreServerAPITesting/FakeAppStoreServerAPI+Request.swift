import AppStoreServerAPI
import AppStoreVerificationTesting
import Foundation

extension FakeAppStoreServerAPI {
    /// A request as the fake received it, kept in ``FakeAppStoreServerAPI/requests`` so that a test
    /// can check what its client sent.
    public struct Request: Sendable {
        /// The HTTP method (`GET`, `POST`, `PUT`, `DELETE`).
        public let method: String
        /// The path, percent-encoded as sent (`/inApps/v1/transactions/1`).
        public let path: String
        /// The query's items in order, percent-decoded.
        public let query: [QueryItem]
        /// The header fields in order.
        public let headers: [Header]
        /// The body (empty for none).
        public let body: Data
        /// When the fake received the request's end.
        public let receivedAt: ContinuousClock.Instant
        /// Why the fake refused the request's bearer token (and answered 401), or `nil` when it
        /// accepted it.
        public internal(set) var tokenRefusal: String?

        /// One item of a query (`name=value`).
        public struct QueryItem: Sendable, Hashable {
            /// The item's name.
            public let name: String
            /// The item's value (empty for a name without `=`).
            public let value: String

            /// An item with this name and value.
            public init(name: String, value: String) {
                self.name = name
                self.value = value
            }
        }

        /// One header field: the API client's own type (name as sent, and value).
        public typealias Header = AppStoreServerAPIHTTPField

        /// Creates a request (for tests of your own fallback routes; the fake makes its own).
        public init(method: String, path: String, query: [QueryItem] = [], headers: [Header] = [], body: Data = Data(),
                    receivedAt: ContinuousClock.Instant = .now) {
            self.method = method
            self.path = path
            self.query = query
            self.headers = headers
            self.body = body
            self.receivedAt = receivedAt
        }

        /// The request as the fake's loopback server read it.
        init(_ request: LoopbackHTTPRequest) {
            self.init(method: request.method, path: request.path,
                      query: request.queryItems.map { QueryItem(name: $0.name, value: $0.value) },
                      headers: request.headers.map { Header(name: $0.name, value: $0.value) },
                      body: request.body)
        }

        /// The values of the query items named `name`, in order.
        public func queryValues(_ name: String) -> [String] {
            query.filter { $0.name == name }.map(\.value)
        }

        /// The value of the first header field named `name` (case-insensitive), if any.
        public func header(_ name: String) -> String? {
            headers.first { $0.name.caseInsensitiveCompare(name) == .orderedSame }?.value
        }

        /// The `Authorization` header (`Bearer ...`), if any.
        public var authorization: String? { header("Authorization") }

        /// The `Content-Type` header, if any.
        public var contentType: String? { header("Content-Type") }

        /// A Get Notification History request's `startDate ..< endDate` (milliseconds since 1970),
        /// read from its JSON body; `nil` when the body has no such numbers or the start is after
        /// the end.
        public var notificationHistoryRange: Range<Int64>? {
            guard let object = (try? JSONSerialization.jsonObject(with: body)) as? [String: Any],
                  let start = (object["startDate"] as? NSNumber)?.int64Value, let end = (object["endDate"] as? NSNumber)?.int64Value,
                  start <= end
            else { return nil }
            return start..<end
        }

        /// The path segments `*` captures when the request is `pattern`, else `nil`: the pattern is
        /// a method and a path whose `*` segments each capture one segment of the request's path, as
        /// in `match("GET /inApps/v1/transactions/*")`.
        public func match(_ pattern: String) -> [String]? {
            let parts = pattern.split(separator: " ")
            guard parts.count == 2, parts[0] == method else { return nil }
            let expected = parts[1].split(separator: "/").map(String.init)
            let segments = path.split(separator: "/").map(String.init)
            guard expected.count == segments.count else { return nil }
            var captured: [String] = []
            for (want, have) in zip(expected, segments) {
                if want == "*" {
                    captured.append(have.removingPercentEncoding ?? have)
                } else if want != have {
                    return nil
                }
            }
            return captured
        }
    }
}
