/// A failure of the testing library: a test PKI that cannot be made, read or written, or signed
/// data that cannot be minted.
public struct AppStoreTestingError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What kind of failure.
    public struct Code: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
        /// The code as text.
        public let rawValue: String
        /// Creates a code from its text.
        public init(rawValue: String) { self.rawValue = rawValue }
        public var description: String { rawValue }

        /// OpenSSL failed to generate a key, make a certificate or sign (an internal failure: the
        /// message carries OpenSSL's words).
        public static let openSSLFailure = Code(rawValue: "openSSLFailure")
        /// A certificate or key given to the library is not usable (not DER, not PEM, wrong kind).
        public static let invalidCertificateOrKey = Code(rawValue: "invalidCertificateOrKey")
        /// A test PKI directory or one of its files cannot be read.
        public static let unreadableFile = Code(rawValue: "unreadableFile")
        /// A test PKI directory or one of its files cannot be written.
        public static let unwritableFile = Code(rawValue: "unwritableFile")
        /// A payload to sign is not a JSON object, or a model cannot be encoded.
        public static let invalidPayload = Code(rawValue: "invalidPayload")
        /// The operation needs what this PKI does not have (for example a variant of a PKI read from
        /// a directory without its CA keys).
        public static let unsupported = Code(rawValue: "unsupported")
    }

    /// What kind of failure.
    public let code: Code
    /// What failed and what to do.
    public let message: String

    /// Creates an error with its code and a message saying what failed and what to do.
    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { "\(code): \(message)" }
}
