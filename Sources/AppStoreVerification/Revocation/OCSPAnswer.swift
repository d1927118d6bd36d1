/// A verified OCSP answer for one (certificate, issuer) pair, as cached.
struct OCSPAnswer: Sendable {
    enum Status: Sendable {
        case good
        /// Revoked at `time` (seconds since 1970) for the CRLReason `reason` (-1: none given).
        case revoked(time: Int64, reason: Int32)
    }

    let status: Status
    /// Seconds since 1970 from which the answer is no longer used: the response's nextUpdate,
    /// bounded by the maximum cache age.
    let reusableUntil: Int64
}

/// The result of asking about one certificate.
enum OCSPOutcome: Sendable {
    /// A verified good or revoked answer.
    case answer(OCSPAnswer)
    /// A permanent verdict other than revoked: unknown, a bad signature or signer, another CertID, a
    /// response outside its validity period, no usable responder URL.
    case invalid(VerificationError)
    /// No answer could be had.
    case unavailable(RevocationCheckUnavailable)
}
