import AppStoreVerification
import Foundation

/// Self-signed certificates like those of StoreKit Testing in Xcode: "StoreKit Testing in Xcode"
/// (P-256) signs JWS whose header has `kid` `Apple_Xcode_Key` and one certificate in `x5c`, and
/// "StoreKit" (RSA) signs app receipts, for data whose environment is `Xcode`.
///
/// The verifier accepts such data only against the exact certificate configured as
/// `Configuration.xcodeCertificate` (``certificate``) or `xcodeReceiptCertificate`
/// (``receiptCertificate``); ``verifierConfiguration(bundleId:)`` does both.
public struct XcodeTestPKI: Sendable {
    /// The "StoreKit Testing in Xcode" certificate (P-256), which signs JWS.
    public let certificate: TestCertificate
    /// Its key.
    public let key: TestPrivateKey
    /// The "StoreKit" certificate (RSA), which signs app receipts.
    public let receiptCertificate: TestCertificate
    /// Its key.
    public let receiptKey: TestPrivateKey

    /// Makes new certificates and keys.
    ///
    /// - Throws: ``AppStoreTestingError`` when OpenSSL fails.
    public init() throws(AppStoreTestingError) {
        let validity = (from: Date(timeIntervalSince1970: 1_577_836_800), to: Date(timeIntervalSince1970: 2_524_608_000))  // 2020 to 2050
        key = try TestPrivateKey(generating: .p256)
        certificate = try TestCertificate.issue(commonName: "StoreKit Testing in Xcode", organization: "StoreKit Testing in Xcode", country: nil,
                                                key: key, issuer: nil, serial: 1, notBefore: validity.from, notAfter: validity.to, extensions: [])
        receiptKey = try TestPrivateKey(generating: .rsa2048)
        receiptCertificate = try TestCertificate.issue(commonName: "StoreKit", organization: "StoreKit", country: nil, key: receiptKey, issuer: nil,
                                                       serial: 1, notBefore: validity.from, notAfter: validity.to, extensions: [])
    }

    /// A verifier configuration for Xcode-signed data: these certificates as the Xcode
    /// certificates, environment Xcode (Apple's roots stay the trusted roots of App Store data).
    ///
    /// - Throws: ``AppStoreTestingError`` (`invalidCertificateOrKey`) if the library refuses them.
    public func verifierConfiguration(bundleId: String? = "com.example.app") throws(AppStoreTestingError) -> SignedDataVerifier.Configuration {
        SignedDataVerifier.Configuration(bundleId: bundleId, environment: .xcode, xcodeCertificate: try certificate.trustedRoot(),
                                         xcodeReceiptCertificate: try receiptCertificate.trustedRoot())
    }
}
