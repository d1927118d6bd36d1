extension AppStoreTestingError.Code {
    /// An argument the testing library cannot use (an OCSP responder URL a certificate cannot
    /// carry, a CA the responder was given without its key, ...): the message says which and why.
    public static let invalidArgument = Self(rawValue: "invalidArgument")
    /// A loopback server of the testing library (``TestOCSPResponder``) cannot listen or answer:
    /// the message carries the system's words.
    public static let socketFailure = Self(rawValue: "socketFailure")
}
