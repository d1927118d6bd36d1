import AppStoreVerification

/// What happened when the App Store tried to send a notification to your server.
public struct SendAttemptResult: OpenEnumeration {
    /// The value as the JSON carries it.
    public let rawValue: String
    /// Creates a value from its raw value; every raw value is accepted.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// Your server answered with HTTP 200.
    public static let success = SendAttemptResult(rawValue: "SUCCESS")
    /// Your server did not answer in time.
    public static let timedOut = SendAttemptResult(rawValue: "TIMED_OUT")
    /// The TLS connection failed.
    public static let tlsIssue = SendAttemptResult(rawValue: "TLS_ISSUE")
    /// Your server redirected in a circle.
    public static let circularRedirect = SendAttemptResult(rawValue: "CIRCULAR_REDIRECT")
    /// Your server did not respond.
    public static let noResponse = SendAttemptResult(rawValue: "NO_RESPONSE")
    /// The socket failed.
    public static let socketIssue = SendAttemptResult(rawValue: "SOCKET_ISSUE")
    /// Your server's answer had an unsupported charset.
    public static let unsupportedCharset = SendAttemptResult(rawValue: "UNSUPPORTED_CHARSET")
    /// Your server's answer was invalid.
    public static let invalidResponse = SendAttemptResult(rawValue: "INVALID_RESPONSE")
    /// Your server closed the connection early.
    public static let prematureClose = SendAttemptResult(rawValue: "PREMATURE_CLOSE")
    /// Your server answered with a status other than 200.
    public static let unsuccessfulHTTPResponseCode = SendAttemptResult(rawValue: "UNSUCCESSFUL_HTTP_RESPONSE_CODE")
    /// Another failure.
    public static let other = SendAttemptResult(rawValue: "OTHER")

    /// Every value Apple documented when this library was released.
    public static let documentedValues: [SendAttemptResult] = [
        .success, .timedOut, .tlsIssue, .circularRedirect, .noResponse, .socketIssue, .unsupportedCharset,
        .invalidResponse, .prematureClose, .unsuccessfulHTTPResponseCode, .other,
    ]
}
