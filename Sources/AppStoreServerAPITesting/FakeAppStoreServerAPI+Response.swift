import AppStoreServerAPI
import Foundation

extension FakeAppStoreServerAPI {
    /// An HTTP answer: what a ``ScriptedAnswer/response(_:)`` or a fallback route
    /// (``FakeAppStoreServerAPI/setFallbackRoute(_:)``) sends.
    public struct Response: Sendable {
        /// The HTTP status.
        public var status: Int
        /// The header fields (`Content-Length` is added).
        public var headers: [Request.Header]
        /// The body.
        public var body: Data

        /// An answer with this status, header fields and body.
        public init(status: Int, headers: [Request.Header] = [], body: Data = Data()) {
            self.status = status
            self.headers = headers
            self.body = body
        }

        /// A JSON answer: `value` encoded with sorted keys, `Content-Type: application/json`.
        ///
        /// - Throws: What `JSONEncoder` throws for a value it cannot encode.
        public static func json(_ value: some Encodable, status: Int = 200) throws -> Response {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            return Response(status: status, headers: [Request.Header(name: "Content-Type", value: "application/json")], body: try encoder.encode(value))
        }

        /// Apple's error answer: `{"errorCode": code, "errorMessage": message}` with `status`.
        public static func apiError(status: Int, code: APIErrorCode, message: String) -> Response {
            let body = APIErrorBody(errorCode: code.rawValue, errorMessage: message)
            // An error body of a number and a string always encodes.
            return (try? json(body, status: status)) ?? Response(status: status)
        }
    }
}

/// Apple's error body.
struct APIErrorBody: Encodable {
    let errorCode: Int64
    let errorMessage: String
}
