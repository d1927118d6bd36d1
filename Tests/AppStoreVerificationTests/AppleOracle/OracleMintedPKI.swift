import COpenSSL
import Foundation
import Testing
@testable import AppStoreVerification

extension AppleOracle {
    // MARK: - A PKI minted with OpenSSL for the run

    /// Root → intermediate → leaf shaped like TestVectors/pki (strict-X.509-clean, Apple's marker
    /// extensions), plus a few defective siblings. Keys are generated for each run and never written.
    final class MintedPKI {
        final class Key {
            let pointer: OpaquePointer
            init() throws {
                guard let context = EVP_PKEY_CTX_new_from_name(nil, "EC", nil) else { throw OracleFailure("EVP_PKEY_CTX_new_from_name") }
                defer { EVP_PKEY_CTX_free(context) }
                var key: OpaquePointer?
                guard EVP_PKEY_keygen_init(context) == 1, EVP_PKEY_CTX_set_group_name(context, "P-256") == 1,
                      EVP_PKEY_generate(context, &key) == 1, let key
                else { throw OracleFailure("P-256 key generation failed") }
                pointer = key
            }
            deinit { EVP_PKEY_free(pointer) }

            /// ES256: ECDSA P-256 with SHA-256, as raw r || s.
            func signES256(_ message: [UInt8]) throws -> [UInt8] {
                guard let context = EVP_MD_CTX_new() else { throw OracleFailure("EVP_MD_CTX_new") }
                defer { EVP_MD_CTX_free(context) }
                var length = 0
                guard EVP_DigestSignInit(context, nil, EVP_sha256(), nil, pointer) == 1,
                      EVP_DigestSign(context, nil, &length, message, message.count) == 1
                else { throw OracleFailure("EVP_DigestSignInit") }
                var der = [UInt8](repeating: 0, count: length)
                guard EVP_DigestSign(context, &der, &length, message, message.count) == 1,
                      let raw = rawSignature(der: Array(der.prefix(length)))
                else { throw OracleFailure("EVP_DigestSign") }
                return raw
            }
        }

        final class Certificate {
            let pointer: OpaquePointer
            let der: Data

            init(commonName: String, key: Key, issuer: (certificate: Certificate, key: Key)?, serial: Int,
                 validity: (Int, Int), extensions: [(String, String)]) throws {
                guard let x509 = X509_new() else { throw OracleFailure("X509_new") }
                pointer = x509
                let name = X509_get_subject_name(x509)
                for (field, value) in [("C", "US"), ("O", "Oracle Differential Test PKI"), ("CN", commonName)] {
                    guard X509_NAME_add_entry_by_txt(name, field, 0x1001 /* MBSTRING_ASC */, Array(value.utf8), Int32(value.utf8.count), -1, 0) == 1 else {
                        throw OracleFailure("X509_NAME_add_entry_by_txt")
                    }
                }
                guard X509_set_version(x509, 2) == 1,
                      ASN1_INTEGER_set(X509_get_serialNumber(x509), serial) == 1,
                      ASN1_TIME_set(X509_getm_notBefore(x509), time_t(validity.0)) != nil,
                      ASN1_TIME_set(X509_getm_notAfter(x509), time_t(validity.1)) != nil,
                      X509_set_issuer_name(x509, issuer.map { X509_get_subject_name($0.certificate.pointer) } ?? name) == 1,
                      X509_set_pubkey(x509, key.pointer) == 1
                else { throw OracleFailure("X509 fields") }
                var context = X509V3_CTX()
                X509V3_set_ctx(&context, issuer?.certificate.pointer ?? x509, x509, nil, nil, 0)
                for (extensionName, value) in extensions {
                    guard let ext = X509V3_EXT_nconf(nil, &context, extensionName, value) else { throw OracleFailure("extension \(extensionName)=\(value)") }
                    defer { X509_EXTENSION_free(ext) }
                    guard X509_add_ext(x509, ext, -1) == 1 else { throw OracleFailure("X509_add_ext") }
                }
                guard X509_sign(x509, issuer?.key.pointer ?? key.pointer, EVP_sha256()) > 0 else { throw OracleFailure("X509_sign") }
                let length = i2d_X509(x509, nil)
                guard length > 0 else { throw OracleFailure("i2d_X509") }
                var bytes = [UInt8](repeating: 0, count: Int(length))
                bytes.withUnsafeMutableBufferPointer { buffer in
                    var cursor = buffer.baseAddress
                    _ = i2d_X509(x509, &cursor)
                }
                der = Data(bytes)
            }
            deinit { X509_free(pointer) }
        }

        static let caValidity = (1_704_067_200, 2_524_608_000)  // 2024-01-01 .. 2050-01-01
        static let leafNotBefore = 1_735_689_600  // 2025-01-01
        static let leafNotAfter = 2_493_072_000  // 2049-01-01

        static let rootExtensions = [("subjectKeyIdentifier", "hash"), ("basicConstraints", "critical,CA:TRUE"), ("keyUsage", "critical,keyCertSign,cRLSign")]
        static func intermediateExtensions(marker: Bool) -> [(String, String)] {
            [("basicConstraints", "critical,CA:TRUE,pathlen:0"), ("authorityKeyIdentifier", "keyid:always"),
             ("subjectKeyIdentifier", "hash"), ("keyUsage", "critical,keyCertSign,cRLSign")]
                + (marker ? [("1.2.840.113635.100.6.2.1", "DER:05:00")] : [])
        }
        static func leafExtensions(marker: Bool) -> [(String, String)] {
            [("basicConstraints", "critical,CA:FALSE"), ("authorityKeyIdentifier", "keyid:always"),
             ("subjectKeyIdentifier", "hash"), ("keyUsage", "critical,digitalSignature")]
                + (marker ? [("1.2.840.113635.100.6.11.1", "DER:05:00")] : [])
        }

        let rootKey: Key, intermediateKey: Key, leafKey: Key
        let root: Certificate, intermediate: Certificate, leaf: Certificate
        /// A leaf without the marker extension (its own key), under the good intermediate.
        let otherLeafKey: Key, leafWithoutMarker: Certificate
        /// An intermediate without the marker extension, and a marked leaf under it.
        let unmarkedIntermediateKey: Key, intermediateWithoutMarker: Certificate
        let unmarkedChainLeafKey: Key, leafUnderUnmarkedIntermediate: Certificate
        /// A marked leaf issued directly by the root.
        let rootIssuedLeafKey: Key, leafIssuedByRoot: Certificate
        /// A complete chain under an untrusted root.
        let rogueRootKey: Key, rogueIntermediateKey: Key, rogueLeafKey: Key
        let rogueRoot: Certificate, rogueIntermediate: Certificate, rogueLeaf: Certificate

        init() throws {
            let leafValidity = (Self.leafNotBefore, Self.leafNotAfter)
            rootKey = try Key(); intermediateKey = try Key(); leafKey = try Key()
            root = try Certificate(commonName: "Oracle Test Root CA", key: rootKey, issuer: nil, serial: 1, validity: Self.caValidity, extensions: Self.rootExtensions)
            intermediate = try Certificate(commonName: "Oracle Test Intermediate CA", key: intermediateKey, issuer: (root, rootKey), serial: 2,
                                           validity: Self.caValidity, extensions: Self.intermediateExtensions(marker: true))
            leaf = try Certificate(commonName: "Oracle Test Signing", key: leafKey, issuer: (intermediate, intermediateKey), serial: 3,
                                   validity: leafValidity, extensions: Self.leafExtensions(marker: true))
            otherLeafKey = try Key()
            leafWithoutMarker = try Certificate(commonName: "Oracle Test Signing (no marker)", key: otherLeafKey, issuer: (intermediate, intermediateKey), serial: 4,
                                                validity: leafValidity, extensions: Self.leafExtensions(marker: false))
            unmarkedIntermediateKey = try Key(); unmarkedChainLeafKey = try Key()
            intermediateWithoutMarker = try Certificate(commonName: "Oracle Test Intermediate CA (no marker)", key: unmarkedIntermediateKey, issuer: (root, rootKey), serial: 5,
                                                        validity: Self.caValidity, extensions: Self.intermediateExtensions(marker: false))
            leafUnderUnmarkedIntermediate = try Certificate(commonName: "Oracle Test Signing (unmarked intermediate)", key: unmarkedChainLeafKey,
                                                            issuer: (intermediateWithoutMarker, unmarkedIntermediateKey), serial: 6,
                                                            validity: leafValidity, extensions: Self.leafExtensions(marker: true))
            rootIssuedLeafKey = try Key()
            leafIssuedByRoot = try Certificate(commonName: "Oracle Test Signing (issued by the root)", key: rootIssuedLeafKey, issuer: (root, rootKey), serial: 7,
                                               validity: leafValidity, extensions: Self.leafExtensions(marker: true))
            rogueRootKey = try Key(); rogueIntermediateKey = try Key(); rogueLeafKey = try Key()
            rogueRoot = try Certificate(commonName: "Oracle Rogue Root CA", key: rogueRootKey, issuer: nil, serial: 8, validity: Self.caValidity, extensions: Self.rootExtensions)
            rogueIntermediate = try Certificate(commonName: "Oracle Rogue Intermediate CA", key: rogueIntermediateKey, issuer: (rogueRoot, rogueRootKey), serial: 9,
                                                validity: Self.caValidity, extensions: Self.intermediateExtensions(marker: true))
            rogueLeaf = try Certificate(commonName: "Oracle Rogue Signing", key: rogueLeafKey, issuer: (rogueIntermediate, rogueIntermediateKey), serial: 10,
                                        validity: leafValidity, extensions: Self.leafExtensions(marker: true))
        }

        /// transaction-valid's payload, field by field.
        static let transactionPayload = RawJSONObject([
            ("transactionId", jsonString("2000000123456789")),
            ("originalTransactionId", jsonString("2000000100000001")),
            ("webOrderLineItemId", jsonString("2000000045678901")),
            ("bundleId", jsonString("com.example.app")),
            ("productId", jsonString("com.example.app.premium.monthly")),
            ("subscriptionGroupIdentifier", jsonString("21456789")),
            ("purchaseDate", "1772366340000"),
            ("originalPurchaseDate", "1767268740000"),
            ("expiresDate", "1775044740000"),
            ("quantity", "1"),
            ("type", jsonString("Auto-Renewable Subscription")),
            ("inAppOwnershipType", jsonString("PURCHASED")),
            ("signedDate", "1772366400000"),
            ("environment", jsonString("Sandbox")),
            ("transactionReason", jsonString("PURCHASE")),
            ("storefront", jsonString("USA")),
            ("storefrontId", jsonString("143441")),
            ("price", "9990"),
            ("currency", jsonString("USD")),
            ("appTransactionId", jsonString("704289572311837765")),
        ])
    }
}
