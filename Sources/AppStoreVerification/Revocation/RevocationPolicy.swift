/// Whether the verifier asks whether certificates have been revoked.
///
/// Offline (``off``, the default) is today's behaviour and Apple's default: no network request, the
/// certificates are checked at the payload's signing date, and a revoked Apple certificate is not
/// detected. With ``ocsp(_:)`` the verifier asks the OCSP responders named in the leaf's and the
/// intermediate's Authority Information Access extension whether either is revoked, at the current
/// time, as Apple's libraries do with online checks on. Online verification runs only through the
/// online entry points (`try await verifier.online.verifyTransaction(jws)`); see ``OCSPOptions``.
public enum RevocationPolicy: Sendable {
    /// No revocation check; no network request (the default).
    case off
    /// OCSP checks of the leaf and the intermediate, with these options.
    case ocsp(OCSPOptions)

    /// Whether online checks are on.
    public var isOnline: Bool {
        if case .ocsp = self { return true }
        return false
    }
}
