import AppStoreServerAPI
import Foundation

extension FakeAppStoreServerAPI {
    /// An answer a test queues with ``FakeAppStoreServerAPI/enqueue(_:)``: the fake gives it to the
    /// next request whose bearer token it accepts, in place of what its routes would answer. Each
    /// is Apple's answer to the situation it names.
    public enum ScriptedAnswer: Sendable {
        /// 401 with no body, as Apple answers a token it refuses (the client drops its token).
        case unauthorized
        /// 404 with Apple's error body: `code` (`.transactionIdNotFound` 4040010,
        /// `.originalTransactionIdNotFound` 4040005, `.accountNotFound` 4040001, ...) and its message.
        case notFound(APIErrorCode = .transactionIdNotFound)
        /// 429 with Apple's error body (`.rateLimitExceeded`, 4290000) and, when `retryAfter` is
        /// given, a `Retry-After` asking for that many seconds: in Apple's form by default (the
        /// UNIX time, in milliseconds, `retryAfter` seconds from now), or in RFC 9110's
        /// delta-seconds or HTTP-date form. (``response(_:)`` sends any other header value.)
        case rateLimited(retryAfter: Int? = 1, form: RetryAfterForm = .unixMilliseconds)
        /// A 5xx with Apple's error body: `status` (500, 503, ...) and `code` (`.generalInternal`
        /// 5000000, `.generalInternalRetryable` 5000001).
        case serverError(status: Int = 500, code: APIErrorCode = .generalInternal)
        /// Apple's error body with any status and code, for example 400 with
        /// `.invalidRequestRevision`.
        case apiError(status: Int, code: APIErrorCode, message: String)
        /// No answer at all: the connection stays open until the client gives up (its timeout).
        case noAnswer
        /// Any answer: a malformed body, a redirect, a status Apple does not send.
        case response(Response)

        /// The HTTP answer, or `nil` for ``noAnswer``.
        var response: Response? {
            switch self {
            case .unauthorized:
                return Response(status: 401)
            case .notFound(let code):
                return .apiError(status: 404, code: code, message: APIErrorMessages.message(for: code))
            case .rateLimited(let retryAfter, let form):
                var response = Response.apiError(status: 429, code: .rateLimitExceeded, message: APIErrorMessages.message(for: .rateLimitExceeded))
                if let retryAfter {
                    response.headers.append(Request.Header(name: "Retry-After", value: form.value(waiting: Double(retryAfter), from: Date())))
                }
                return response
            case .serverError(let status, let code):
                return .apiError(status: status, code: code, message: APIErrorMessages.message(for: code))
            case .apiError(let status, let code, let message):
                return .apiError(status: status, code: code, message: message)
            case .noAnswer:
                return nil
            case .response(let response):
                return response
            }
        }
    }
}

/// The error messages Apple sends with the codes the fake answers on its own.
enum APIErrorMessages {
    static func message(for code: APIErrorCode) -> String {
        switch code {
        case .transactionIdNotFound: "Transaction id not found."
        case .originalTransactionIdNotFound: "Original transaction id not found."
        case .accountNotFound: "Account not found."
        case .rateLimitExceeded: "Rate limit exceeded."
        case .generalInternal: "An unknown error occurred."
        case .generalInternalRetryable: "An unknown error occurred. Please try again."
        case .invalidRequestRevision: "Invalid request revision."
        case .invalidPaginationToken: "Invalid pagination token."
        case .invalidStartDate: "Invalid start date."
        case .invalidTestNotificationToken: "Invalid test notification token."
        case .testNotificationNotFound: "Either the test notification token is expired or the notification and status are not yet available."
        default: "Error \(code.rawValue)."
        }
    }
}
