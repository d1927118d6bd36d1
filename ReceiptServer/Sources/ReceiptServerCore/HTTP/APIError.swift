import AppStoreVerification
import Foundation
import Hummingbird

/// An error answered as JSON: `{"error": {"status": 422, "code": "unverified", "message": "..."}}`.
///
/// `code` is stable and machine-readable; `message` says what failed and what to do.
public struct APIError: HTTPResponseError, Sendable, CustomStringConvertible {
    /// The HTTP status.
    public var status: HTTPResponse.Status
    /// A stable, machine-readable code (`"invalidBody"`, `"unverified"`, ...).
    public var code: String
    /// What failed and what to do.
    public var message: String
    /// Extra response headers (`Retry-After` for 503).
    public var headers: HTTPFields
    /// What the server's log says about a server error, when it says more than ``message`` (a
    /// database failure's cause, which the answer does not carry); already escaped for a log line.
    var logDetail: String?

    /// Creates an error.
    public init(_ status: HTTPResponse.Status, code: String, _ message: String, headers: HTTPFields = [:]) {
        self.status = status
        self.code = code
        self.message = message
        self.headers = headers
    }

    public var description: String { "\(status.code) \(code): \(message)" }

    /// The JSON response.
    public func response(from request: Request, context: some RequestContext) throws -> Response {
        var response = JSONBody.response(ErrorBody(error: .init(status: status.code, code: code, message: message)), status: status)
        response.headers.append(contentsOf: headers)
        return response
    }

    private struct ErrorBody: Encodable {
        struct Detail: Encodable {
            let status: Int
            let code: String
            let message: String
        }
        let error: Detail
    }
}

extension APIError {
    /// The request body is not what the route takes.
    static func invalidBody(_ message: String) -> APIError {
        APIError(.badRequest, code: "invalidBody", message)
    }

    /// The database failed; the request may be retried. The answer says only that (the database's
    /// own error, which may quote SQL, goes to the server's log: ``logDetail``).
    static func storageUnavailable(_ error: StorageError) -> APIError {
        var answer = APIError(.serviceUnavailable, code: "storageUnavailable",
                              "The database failed (the server's log says why). Nothing was stored; retry later (Apple retries notifications on its own).",
                              headers: [.retryAfter: "5"])
        answer.logDetail = LogSafeText.escaping(error.description)
        return answer
    }
}
