import Foundation

extension TestOCSPResponder {
    /// What a ``TestOCSPResponder`` answers about one certificate.
    ///
    /// A verifier in online mode reads ``good`` as a pass, ``revoked(at:reason:)`` as the verdict
    /// `.unverified(payload, .revokedCertificate(...))`, ``unknown`` as a refused chain, and
    /// ``noAnswer`` and ``httpError(status:)`` as no answer at all: `RevocationCheckUnavailable`
    /// is thrown (retry later), or, with soft-fail, the skipped check is reported.
    public enum Answer: Sendable, Hashable {
        /// Not revoked: a signed `good` status.
        case good
        /// Revoked at `at`, with the RFC 5280 CRLReason code `reason` (`1` keyCompromise, `2`
        /// cACompromise, `4` superseded, ...; `nil` for none): a signed `revoked` status.
        case revoked(at: Date, reason: Int? = nil)
        /// Not known to the responder: a signed `unknown` status.
        case unknown
        /// Unavailable: the responder reads the request and closes the connection without
        /// answering.
        case noAnswer
        /// Unavailable: the responder answers with this HTTP status (`500`, `503`, ...) and no
        /// OCSP response.
        case httpError(status: Int)
    }
}
