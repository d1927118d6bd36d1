internal import CAppStoreOpenSSL
internal import CAppStoreOpenSSLTesting
import AppStoreVerification
import Foundation

/// An X.509 v3 certificate made for a test PKI, kept as its DER encoding.
public struct TestCertificate: Sendable, Hashable {
    /// One X.509 v3 extension in OpenSSL's configuration syntax (as `openssl x509 -extfile` reads
    /// it): for example `Extension(name: "basicConstraints", value: "critical,CA:TRUE")`, or an
    /// Apple marker `Extension(name: "1.2.840.113635.100.6.11.1", value: "DER:05:00")`.
    public struct Extension: Sendable, Hashable {
        /// The extension's name or dotted OID.
        public var name: String
        /// Its value, in OpenSSL's configuration syntax.
        public var value: String

        /// Creates an extension from its name (or dotted OID) and value.
        public init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }

    /// The certificate's DER encoding.
    public let derEncoded: Data

    /// Wraps a DER certificate (checked: exactly one DER certificate).
    ///
    /// - Throws: ``AppStoreTestingError`` (`invalidCertificateOrKey`) when it is not one.
    public init(derEncoded: Data) throws(AppStoreTestingError) {
        var error = asv_error()
        let parsed = derEncoded.withUnsafeBytes { asv_x509_from_der($0.baseAddress, $0.count, &error) }
        guard let parsed else {
            throw AppStoreTestingError(.invalidCertificateOrKey, "not a DER certificate: \(OpenSSLMessage.text(error))")
        }
        asv_x509_free(parsed)
        self.derEncoded = derEncoded
    }

    private init(checkedDER: Data) {
        self.derEncoded = checkedDER
    }

    /// The certificate as PEM text (`-----BEGIN CERTIFICATE-----`).
    public var pemEncoded: String {
        let body = derEncoded.base64EncodedString(options: [.lineLength64Characters, .endLineWithLineFeed])
        return "-----BEGIN CERTIFICATE-----\n\(body)\n-----END CERTIFICATE-----\n"
    }

    /// The certificate as a root the library's verifier trusts.
    ///
    /// - Throws: ``AppStoreTestingError`` (`invalidCertificateOrKey`) if the library refuses it.
    public func trustedRoot() throws(AppStoreTestingError) -> TrustedRoot {
        do {
            return try TrustedRoot(derEncoded: derEncoded)
        } catch {
            throw AppStoreTestingError(.invalidCertificateOrKey, "the library refuses the certificate as a root: \(error.message)")
        }
    }

    /// Makes and signs (SHA-256) a certificate.
    ///
    /// - Parameters:
    ///   - commonName: The subject's CN.
    ///   - organization: The subject's O.
    ///   - organizationalUnit: The subject's OU.
    ///   - country: The subject's C.
    ///   - key: The key the certificate certifies.
    ///   - issuer: The issuing certificate and its key; `nil` for a self-signed certificate.
    ///   - serial: The serial number (positive).
    ///   - notBefore: The start of validity (whole seconds).
    ///   - notAfter: The end of validity (whole seconds), later than `notBefore`.
    ///   - extensions: The extensions, in order.
    /// - Throws: ``AppStoreTestingError`` (`openSSLFailure`) naming what OpenSSL refused.
    public static func issue(commonName: String, organization: String? = "Test App Store Verification", organizationalUnit: String? = nil,
                             country: String? = "US", key: TestPrivateKey, issuer: (certificate: TestCertificate, key: TestPrivateKey)?,
                             serial: Int64, notBefore: Date, notAfter: Date, extensions: [Extension]) throws(AppStoreTestingError) -> TestCertificate {
        var issuerCertificate: OpaquePointer?
        if let issuer {
            var error = asv_error()
            issuerCertificate = issuer.certificate.derEncoded.withUnsafeBytes { asv_x509_from_der($0.baseAddress, $0.count, &error) }
            guard issuerCertificate != nil else {
                throw AppStoreTestingError(.invalidCertificateOrKey, "the issuer certificate does not parse: \(OpenSSLMessage.text(error))")
            }
        }
        defer { if let issuerCertificate { asv_x509_free(issuerCertificate) } }
        // C strings that live through the call.
        let strings: [UnsafeMutablePointer<CChar>?] = [commonName, organization, organizationalUnit, country].map { $0.flatMap { strdup($0) } }
        let extensionStrings: [(UnsafeMutablePointer<CChar>?, UnsafeMutablePointer<CChar>?)] = extensions.map { (strdup($0.name), strdup($0.value)) }
        defer {
            for string in strings { free(string) }
            for (name, value) in extensionStrings { free(name); free(value) }
        }
        var cExtensions = extensionStrings.map { asv_mint_extension(name: UnsafePointer($0.0), value: UnsafePointer($0.1)) }
        var error = asv_error()
        let made: OpaquePointer? = cExtensions.withUnsafeMutableBufferPointer { buffer in
            var request = asv_mint_certificate_request(
                common_name: UnsafePointer(strings[0]), organization: UnsafePointer(strings[1]),
                organizational_unit: UnsafePointer(strings[2]), country: UnsafePointer(strings[3]),
                subject_key: key.pointer, issuer: issuerCertificate, issuer_key: issuer?.key.pointer,
                serial: serial, not_before: Int64(notBefore.timeIntervalSince1970.rounded(.down)),
                not_after: Int64(notAfter.timeIntervalSince1970.rounded(.down)),
                extensions: UnsafePointer(buffer.baseAddress), extension_count: buffer.count)
            return asv_mint_certificate(&request, &error)
        }
        guard let made else {
            throw AppStoreTestingError(.openSSLFailure, "the certificate \"\(commonName)\" cannot be made: \(OpenSSLMessage.text(error))")
        }
        defer { asv_x509_free(made) }
        let der = try OpenSSLBuffer.take("encoding the certificate \"\(commonName)\"") { asv_mint_certificate_der(made, $0, $1, $2) }
        return TestCertificate(checkedDER: der)
    }

    /// Runs `body` with the certificate parsed by OpenSSL (freed after).
    func withX509<Result>(_ body: (OpaquePointer) throws(AppStoreTestingError) -> Result) throws(AppStoreTestingError) -> Result {
        var error = asv_error()
        let parsed = derEncoded.withUnsafeBytes { asv_x509_from_der($0.baseAddress, $0.count, &error) }
        guard let parsed else {
            throw AppStoreTestingError(.invalidCertificateOrKey, "the certificate does not parse: \(OpenSSLMessage.text(error))")
        }
        defer { asv_x509_free(parsed) }
        return try body(parsed)
    }
}
