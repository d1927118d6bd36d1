internal import CAppStoreOpenSSL
import Foundation

/// The configured trusted roots, loaded once into an OpenSSL `X509_STORE`.
///
/// The store only holds roots and is never modified after creation; OpenSSL locks its internal
/// lookups, so one store serves concurrent path validations.
final class TrustStore: @unchecked Sendable {
    let pointer: OpaquePointer
    /// The roots, as configured (for messages).
    let roots: [TrustedRoot]
    /// The anchors, parsed.
    let certificates: [X509Certificate]

    convenience init(roots: [TrustedRoot]) throws(VerifierConfigurationError) {
        guard !roots.isEmpty else {
            throw VerifierConfigurationError(.noTrustedRoot, "No trusted root is configured; nothing could ever verify. Leave the default (Apple Root CA - G3) or add a root.")
        }
        var certificates: [X509Certificate] = []
        for root in roots {
            do {
                certificates.append(try X509Certificate(derEncoded: root.derEncoded))
            } catch {
                throw VerifierConfigurationError(.invalidCertificate, "The trusted root \(root.name) is not a DER certificate: \(error.message).")
            }
        }
        try self.init(anchors: certificates, names: roots)
    }

    /// A store anchored at already-validated certificates (an intermediate whose own path was
    /// checked), for partial-chain validation of the leaves under it.
    convenience init(validatedAnchors anchors: [X509Certificate], names: [TrustedRoot]) throws(VerifierConfigurationError) {
        try self.init(anchors: anchors, names: names)
    }

    private init(anchors: [X509Certificate], names: [TrustedRoot]) throws(VerifierConfigurationError) {
        var error = asv_error()
        guard let store = asv_store_new(&error) else {
            throw VerifierConfigurationError(.openSSLFailure, "Cannot create a trust store: \(OpenSSLFailure(error).message)")
        }
        self.pointer = store
        self.roots = names
        self.certificates = anchors
        for anchor in anchors {
            guard asv_store_add_root(store, anchor.pointer, &error) == 1 else {
                throw VerifierConfigurationError(.openSSLFailure, "Cannot trust \(anchor.subject): \(OpenSSLFailure(error).message)")
            }
        }
    }

    deinit { asv_store_free(pointer) }

    /// The anchor whose key signed `certificate`, if any.
    func root(thatIssued certificate: X509Certificate) -> X509Certificate? {
        certificates.first { anchor in
            guard let key = try? anchor.publicKey() else { return false }
            return certificate.isSigned(by: key)
        }
    }
}
