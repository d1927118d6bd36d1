/// No revocation answer could be had: **try again later**. Not a verdict on the data.
///
/// Thrown (inside ``OnlineVerificationError/revocationCheckUnavailable(_:)``) by the online entry
/// points when online checks are on and a responder could not be reached, did not answer in time,
/// answered with an HTTP status other than 200, a body that is not a well-formed OCSP response (or
/// one over the size limit), or an unsigned "try later"/error status. The data is neither verified
/// nor unverified: the verifier could not finish.
///
/// What to do:
/// - App Store Server Notifications: answer Apple's POST with a 5xx status; Apple retries the
///   notification later (with backoff, for several days).
/// - A request from your app (a transaction to grant): keep it pending and retry, or tell the app
///   to try again shortly; do not grant and do not reject.
///
/// A responder that answered with a properly signed response never yields this error: its answer
/// is a verdict (`.revokedCertificate`, or `.invalidCertificateChain` for "unknown", a response
/// signed by someone else, for another certificate, or outside its validity period).
///
/// Two errors are equal, and hash alike, when their ``code``s are equal, whatever their messages
/// (and other details) say: compare codes, never messages.
public struct RevocationCheckUnavailable: CodedError, Sendable {
    /// Why no answer could be had. Open: later versions may add codes.
    public struct Code: ErrorCode {
        package let text: String
        package init(_ text: String) { self.text = text }

        /// The responder could not be reached (connection refused, DNS, reset, ...).
        public static let unreachable = Code("unreachable")
        /// The request or the whole check took longer than its timeout or deadline.
        public static let timedOut = Code("timedOut")
        /// The responder answered with an HTTP status other than 200 (including redirects, which are
        /// not followed).
        public static let httpStatus = Code("httpStatus")
        /// The body is not a well-formed OCSP response (garbage, truncated), is a successful
        /// response of a type other than basic (id-pkix-ocsp-basic, the only type whose signature
        /// can be checked), or echoes another nonce than the request's (a replayed answer).
        public static let invalidResponse = Code("invalidResponse")
        /// The body exceeded ``OCSPOptions/maximumResponseLength``.
        public static let responseTooLarge = Code("responseTooLarge")
        /// The responder answered an (unsigned) error status: tryLater, internalError, ...
        public static let responderError = Code("responderError")
        /// The verification was cancelled before an answer came.
        public static let cancelled = Code("cancelled")
    }

    /// Why no answer could be had.
    public let code: Code
    /// Which certificate was being checked, e.g. "the leaf (x5c[0], CN=...)".
    public let certificate: String
    /// The responder asked, when one was.
    public let responderURL: String?
    /// What failed, where, and what to do.
    public let message: String

    /// Creates the error; `message` says what failed and what to do.
    public init(code: Code, certificate: String, responderURL: String?, message: String) {
        self.code = code
        self.certificate = certificate
        self.responderURL = responderURL
        // Messages quote what a responder sent; nothing in it may forge a log line.
        self.message = LogSafeText.escaping(message)
    }
}
