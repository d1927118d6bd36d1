internal import CAppStoreOpenSSL
internal import CAppStoreOpenSSLTesting
import AppStoreVerification
import Foundation

/// A private key made for a test PKI: P-256 (JWS leaves, Xcode's JWS certificate, the JWS CAs) or
/// RSA-2048 (the receipt certificates).
///
/// Never use these keys outside tests: they are written unencrypted. A key is immutable; one
/// instance signs from many tasks at once.
public final class TestPrivateKey: @unchecked Sendable, CustomStringConvertible {
    // The `EVP_PKEY` is read-only once made; every use takes its own OpenSSL context.
    let pointer: OpaquePointer

    /// The kinds of key.
    public enum Kind: String, Sendable, Hashable {
        /// An elliptic-curve key on P-256, as Apple's JWS signing certificates hold.
        case p256 = "P-256"
        /// A 2048-bit RSA key, as Apple's receipt signing certificates hold.
        case rsa2048 = "RSA-2048"
    }

    /// The kind of key.
    public let kind: Kind
    /// The key as unencrypted PKCS#8 PEM (`-----BEGIN PRIVATE KEY-----`).
    public let pemEncoded: String

    /// Generates a new key of `kind`.
    ///
    /// - Throws: ``AppStoreTestingError`` (`openSSLFailure`) when OpenSSL cannot generate it.
    public convenience init(generating kind: Kind) throws(AppStoreTestingError) {
        var error = asv_error()
        guard let key = asv_mint_generate_key(kind == .p256 ? ASV_MINT_KEY_P256 : ASV_MINT_KEY_RSA2048, &error) else {
            throw AppStoreTestingError(.openSSLFailure, "\(kind.rawValue) key generation failed: \(OpenSSLMessage.text(error))")
        }
        try self.init(taking: key)
    }

    /// Loads an unencrypted P-256 or RSA private key from PEM text (as ``pemEncoded`` writes it).
    ///
    /// - Throws: ``AppStoreTestingError`` (`invalidCertificateOrKey`) when the text holds no such key.
    public convenience init(pem: String) throws(AppStoreTestingError) {
        var error = asv_error()
        let bytes = Array(pem.utf8)
        let loaded = bytes.withUnsafeBytes { asv_mint_private_key_from_pem($0.baseAddress, $0.count, &error) }
        guard let loaded else {
            throw AppStoreTestingError(.invalidCertificateOrKey, "not an unencrypted PEM private key: \(OpenSSLMessage.text(error))")
        }
        try self.init(taking: loaded)
    }

    /// Takes ownership of `key` (freed here if the key is refused or cannot be encoded).
    private init(taking key: OpaquePointer) throws(AppStoreTestingError) {
        let kind: Kind
        switch (asv_pkey_kind(key), asv_pkey_bits(key)) {
        case (ASV_KEY_EC_P256, _): kind = .p256
        case (ASV_KEY_RSA, 2048): kind = .rsa2048
        default:
            asv_pkey_free(key)
            throw AppStoreTestingError(.invalidCertificateOrKey, "the key is neither P-256 nor RSA-2048; test PKIs use only those")
        }
        let pem: Data
        do {
            pem = try OpenSSLBuffer.take("encoding the private key as PEM") { asv_mint_private_key_pem(key, $0, $1, $2) }
        } catch {
            asv_pkey_free(key)
            throw error
        }
        self.pointer = key
        self.kind = kind
        self.pemEncoded = String(decoding: pem, as: UTF8.self)
    }

    deinit { asv_pkey_free(pointer) }

    /// The key as unencrypted PKCS#8 DER.
    ///
    /// - Throws: ``AppStoreTestingError`` (`openSSLFailure`) when OpenSSL cannot encode it.
    public func pkcs8DER() throws(AppStoreTestingError) -> Data {
        try OpenSSLBuffer.take("encoding the private key as DER") { asv_mint_private_key_der(pointer, $0, $1, $2) }
    }

    /// The key as the library's ``SigningKey`` (P-256 keys only), for ES256 signatures.
    func signingKey() throws(AppStoreTestingError) -> SigningKey {
        guard kind == .p256 else {
            throw AppStoreTestingError(.unsupported, "ES256 needs a P-256 key; this key is \(kind.rawValue)")
        }
        do {
            return try SigningKey(pem: pemEncoded)
        } catch {
            throw AppStoreTestingError(.invalidCertificateOrKey, "the P-256 key cannot be loaded for signing: \(error.message)")
        }
    }

    /// A description without key material.
    public var description: String { "TestPrivateKey(\(kind.rawValue))" }
}
