import AppStoreVerification
import Foundation

/// A call to the App Store Server API that did not give a usable response.
///
/// ``code`` says what kind of failure it is; ``message`` what failed and what to do. When Apple
/// answered with an error, ``httpStatusCode`` and ``apiError`` carry what it said. The bearer
/// token never appears in an error.
///
/// ```swift
/// do {
///     let status = try await client.getAllSubscriptionStatuses(transactionId: id)
/// } catch where error.apiError == .transactionIdNotFound {
///     // unknown transaction
/// }
/// ```
///
/// Two errors are equal, and hash alike, when their ``code``s are equal, whatever their messages
/// (and other details) say: compare codes, never messages.
public struct AppStoreServerAPIError: CodedError, Sendable {
    /// The kinds of failure.
    public struct Code: ErrorCode {
        package let text: String
        package init(_ text: String) { self.text = text }

        /// Apple answered with an HTTP error status (4xx other than 401, or 429 and 5xx once the
        /// retries are spent); ``AppStoreServerAPIError/apiError`` holds Apple's error code when
        /// the body carried one.
        public static let apiError = Code("apiError")
        /// Apple refused the bearer token (HTTP 401): a wrong key ID, issuer ID or key, or a clock
        /// that is off.
        public static let unauthorized = Code("unauthorized")
        /// The caller's deadline passed before a response came (including waits between retries).
        public static let deadlineExceeded = Code("deadlineExceeded")
        /// One attempt took longer than the per-request timeout and no time was left to retry.
        public static let timedOut = Code("timedOut")
        /// The connection failed (refused, reset, TLS, DNS) and no time or attempt was left to retry.
        public static let transportFailure = Code("transportFailure")
        /// The task calling the API was cancelled.
        public static let cancelled = Code("cancelled")
        /// A 2xx response whose body is not the JSON Apple documents, or a signed item in it that is
        /// not a JWS of the expected kind at all (a JWS that fails verification is instead returned
        /// as `.unverified`).
        public static let malformedResponse = Code("malformedResponse")
        /// The request was not sent: an argument is invalid (an empty transaction ID, a bad base URL).
        public static let invalidRequest = Code("invalidRequest")
        /// The bearer token could not be signed with the configured key.
        public static let tokenCreationFailed = Code("tokenCreationFailed")
        /// The verifier checks revocation online and no OCSP answer could be had: retry later.
        public static let revocationCheckUnavailable = Code("revocationCheckUnavailable")
        /// A paginated sequence reached ``AppStoreServerAPIClient/Options/maximumPages`` or its
        /// ``AppStoreServerAPIClient/Options/paginationDeadline`` before Apple's last page: the items
        /// already yielded stand; narrow the request (dates, product) or raise the limit.
        public static let paginationLimitExceeded = Code("paginationLimitExceeded")
        /// Apple's API answered with a redirect (3xx), which it never does: the redirect was not
        /// followed (the bearer token is sent to Apple's host only).
        public static let unexpectedRedirect = Code("unexpectedRedirect")
    }

    /// What kind of failure.
    public let code: Code
    /// What failed and what to do.
    public let message: String
    /// The HTTP status Apple answered with, if a response came.
    public let httpStatusCode: Int?
    /// Apple's error code from the response body (`errorCode`), if it sent one.
    public let apiError: APIErrorCode?
    /// Apple's error message from the response body (`errorMessage`), if it sent one.
    public let apiErrorMessage: String?
    /// The wait Apple asked for with `Retry-After` on the last answer, if it sent one, counted
    /// from the moment that answer was read: after HTTP 429, how long until the next request may
    /// go. Apple sends a UNIX time in milliseconds; a number of seconds and an HTTP date are read
    /// too (see *Calling the App Store Server API* for the rule that tells them apart).
    public let retryAfter: Duration?
    /// The instant ``retryAfter`` ends: when Apple said the next request may go. Store this one
    /// when the retry is queued for later (a job scheduler), since it does not age.
    public let retryAfterDate: Date?
    /// The headers of the last answer, names lowercased, values in the order received; empty when
    /// no answer came.
    public let responseHeaders: [String: [String]]

    /// Creates an error.
    ///
    /// - Parameters:
    ///   - code: the kind of failure.
    ///   - message: what failed and what to do.
    ///   - httpStatusCode: the HTTP status of the response, if any.
    ///   - apiError: Apple's error code, if any.
    ///   - apiErrorMessage: Apple's error message, if any.
    ///   - retryAfter: the wait `Retry-After` asked for, if any.
    ///   - retryAfterDate: the instant that wait ends, if any.
    ///   - responseHeaders: the response's headers (names lowercased), if a response came.
    public init(_ code: Code, _ message: String, httpStatusCode: Int? = nil, apiError: APIErrorCode? = nil, apiErrorMessage: String? = nil,
                retryAfter: Duration? = nil, retryAfterDate: Date? = nil, responseHeaders: [String: [String]] = [:]) {
        self.code = code
        self.message = message
        self.httpStatusCode = httpStatusCode
        self.apiError = apiError
        self.apiErrorMessage = apiErrorMessage
        self.retryAfter = retryAfter
        self.retryAfterDate = retryAfterDate
        self.responseHeaders = responseHeaders
    }

    /// This error with `message` in place of its own, everything else kept.
    func with(message: String) -> AppStoreServerAPIError {
        AppStoreServerAPIError(code, message, httpStatusCode: httpStatusCode, apiError: apiError, apiErrorMessage: apiErrorMessage,
                               retryAfter: retryAfter, retryAfterDate: retryAfterDate, responseHeaders: responseHeaders)
    }

    /// Whether the same call may succeed later unchanged (rate limiting, a server error, a
    /// timeout, a connection failure, an unavailable revocation check).
    public var isRetryable: Bool {
        switch code {
        case .timedOut, .deadlineExceeded, .transportFailure, .revocationCheckUnavailable: return true
        case .apiError: return httpStatusCode.map { $0 == 429 || $0 >= 500 } ?? false
        default: return false
        }
    }

}
