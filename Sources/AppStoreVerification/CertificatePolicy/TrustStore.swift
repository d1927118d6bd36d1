import CAppStoreOpenSSL
import Foundation

/// The configured trusted roots, loaded once into an OpenSSL `X509_STORE`.
///
/// The store only holds roots and is never modified after creation; OpenSSL locks its internal
/// lookups, so one store serves concurrent path validations.
final class TrustStore: @unchecked Sendable {
    let pointer: OpaquePointer
    let roots: [TrustedRoot]

    init(roots: [TrustedRoot]) throws(VerifierConfigurationError) {
        guard !roots.isEmpty else {
            throw VerifierConfigurationError("No trusted root is configured; nothing could ever verify. Leave the default (Apple Root CA - G3) or add a root.")
        }
        var error = asv_error()
        guard let store = asv_store_new(&error) else {
            throw VerifierConfigurationError("Cannot create the trust store: \(OpenSSLFailure(error).message)")
        }
        self.pointer = store
        self.roots = roots
        for root in roots {
            let certificate: X509Certificate
            do {
                certificate = try X509Certificate(derEncoded: root.derEncoded)
            } catch {
                throw VerifierConfigurationError("The trusted root \(root.name) is not a DER certificate: \(error.message).")
            }
            guard asv_store_add_root(store, certificate.pointer, &error) == 1 else {
                throw VerifierConfigurationError("Cannot trust \(root.name): \(OpenSSLFailure(error).message)")
            }
        }
    }

    /// A store anchored at already-validated certificates (an intermediate whose own path was
    /// checked), for partial-chain validation of the leaves under it.
    init(validatedAnchors anchors: [X509Certificate], names: [TrustedRoot]) throws(VerifierConfigurationError) {
        var error = asv_error()
        guard let store = asv_store_new(&error) else {
            throw VerifierConfigurationError("Cannot create a trust store: \(OpenSSLFailure(error).message)")
        }
        self.pointer = store
        self.roots = names
        for anchor in anchors {
            guard asv_store_add_root(store, anchor.pointer, &error) == 1 else {
                throw VerifierConfigurationError("Cannot add \(anchor.subject) to a trust store: \(OpenSSLFailure(error).message)")
            }
        }
    }

    deinit { asv_store_free(pointer) }
}
