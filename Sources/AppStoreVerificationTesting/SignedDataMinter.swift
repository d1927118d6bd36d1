internal import CAppStoreOpenSSL
import AppStoreVerification
import Foundation

/// Signs test data with a ``TestPKI`` (as the App Store signs) or an ``XcodeTestPKI`` (as
/// StoreKit Testing in Xcode signs): JWS for transactions, renewal info, app transactions,
/// notifications and real-time requests, and PKCS#7 app receipts.
///
/// The typed methods encode the library's own models as `AppStoreJSON.makeEncoder()` does (Apple's
/// member names, dates in milliseconds); ``sign(payloadJSON:)`` signs any bytes exactly as given.
/// Every JWS has the header `alg` ES256 and the PKI's chain in `x5c` (leaf, intermediate, root);
/// Xcode's has `kid` `Apple_Xcode_Key`, `typ` JWT and its one certificate.
public struct SignedDataMinter: Sendable {
    /// The JWS header, base64url-encoded once (three certificates: most of every JWS's bytes).
    private let headerSegment: String
    /// SHA-256 having absorbed `headerSegment.`: each signature hashes only its payload.
    private let headerDigest: SHA256Prefix
    private let key: SigningKey
    /// The receipt's signer, its key, and the certificates embedded after the signer's.
    private let receiptSigner: TestCertificate
    private let receiptKey: TestPrivateKey
    private let receiptChain: [TestCertificate]

    /// A minter signing as the App Store does, with `pki`'s chains (and its variant's defect).
    ///
    /// - Throws: ``AppStoreTestingError`` when the PKI's JWS key is not a usable P-256 key.
    public init(pki: TestPKI) throws(AppStoreTestingError) {
        let x5c = pki.chain.certificates.map { "\"\($0.derEncoded.base64EncodedString())\"" }.joined(separator: ",")
        headerSegment = Base64.encodeURL(Array("{\"alg\":\"ES256\",\"x5c\":[\(x5c)]}".utf8))
        headerDigest = try Self.prefixDigest(of: headerSegment)
        key = try pki.chain.signingKey.signingKey()
        receiptSigner = pki.receiptChain.leaf
        receiptKey = pki.receiptChain.signingKey
        receiptChain = [pki.receiptChain.intermediate, pki.receiptChain.root]
    }

    /// A minter signing as StoreKit Testing in Xcode does: payloads should say environment
    /// `Xcode` (the builders' `environment: .xcode`; receipts `receiptType: "Xcode"`).
    ///
    /// - Throws: ``AppStoreTestingError`` when the Xcode key is not a usable P-256 key.
    public init(xcode: XcodeTestPKI) throws(AppStoreTestingError) {
        headerSegment = Base64.encodeURL(Array("{\"alg\":\"ES256\",\"kid\":\"Apple_Xcode_Key\",\"typ\":\"JWT\",\"x5c\":[\"\(xcode.certificate.derEncoded.base64EncodedString())\"]}".utf8))
        headerDigest = try Self.prefixDigest(of: headerSegment)
        key = try xcode.key.signingKey()
        receiptSigner = xcode.receiptCertificate
        receiptKey = xcode.receiptKey
        receiptChain = []
    }

    /// Signs `payloadJSON` exactly as given (no check that it is JSON: hostile payloads too) into a
    /// compact JWS.
    ///
    /// - Throws: ``AppStoreTestingError`` (`openSSLFailure`) when OpenSSL fails to sign.
    public func sign(payloadJSON: Data) throws(AppStoreTestingError) -> String {
        var payloadSegment = Base64.encodeURL(payloadJSON)
        let digest: SHA256Digest
        do {
            digest = try payloadSegment.withUTF8 { bytes in try headerDigest.digest(appending: UnsafeRawBufferPointer(bytes)) }
        } catch {
            throw AppStoreTestingError(.openSSLFailure, "SHA-256 failed: \((error as? OpenSSLFailure)?.message ?? String(describing: error))")
        }
        let signature: Data
        do {
            signature = try key.sign(digest: digest, encoding: .raw)
        } catch {
            throw AppStoreTestingError(.openSSLFailure, "ES256 signing failed: \(error.message)")
        }
        let signatureSegment = Base64.encodeURL(signature)
        var jws = ""
        jws.reserveCapacity(headerSegment.utf8.count + payloadSegment.utf8.count + signatureSegment.utf8.count + 2)
        jws += headerSegment
        jws += "."
        jws += payloadSegment
        jws += "."
        jws += signatureSegment
        return jws
    }

    /// SHA-256 having absorbed `header.`.
    private static func prefixDigest(of headerSegment: String) throws(AppStoreTestingError) -> SHA256Prefix {
        do {
            return try SHA256Prefix(absorbing: Array((headerSegment + ".").utf8))
        } catch {
            throw AppStoreTestingError(.openSSLFailure, "SHA-256 failed: \(error.message)")
        }
    }

    /// Signs `payload` encoded as `AppStoreJSON.makeEncoder()` encodes it (by the faster
    /// `AppStoreJSON.encode(_:)`, which writes the same bytes).
    ///
    /// - Throws: ``AppStoreTestingError`` (`invalidPayload`) when it cannot be encoded.
    public func sign(_ payload: some Encodable) throws(AppStoreTestingError) -> String {
        let json: Data
        do {
            json = try AppStoreJSON.encode(payload)
        } catch {
            throw AppStoreTestingError(.invalidPayload, "the payload cannot be encoded as JSON: \(error)")
        }
        return try sign(payloadJSON: json)
    }

    /// A signed transaction (`signedTransactionInfo`, StoreKit's `Transaction.jwsRepresentation`).
    public func transaction(_ transaction: Transaction) throws(AppStoreTestingError) -> String { try sign(transaction) }

    /// Signed renewal info (`signedRenewalInfo`).
    public func renewalInfo(_ renewalInfo: RenewalInfo) throws(AppStoreTestingError) -> String { try sign(renewalInfo) }

    /// A signed app transaction (`signedAppTransactionInfo`, StoreKit's `AppTransaction`).
    public func appTransaction(_ appTransaction: AppTransaction) throws(AppStoreTestingError) -> String { try sign(appTransaction) }

    /// A signed retention messaging real-time request (its `signedPayload`).
    public func realtimeRequest(_ request: DecodedRealtimeRequestBody) throws(AppStoreTestingError) -> String { try sign(request) }

    /// A PKCS#7 app receipt (DER) holding `receipt`'s payload, signed as Apple signs receipts:
    /// SHA-256 with RSA, no signed attributes, the certificates leaf, intermediate, root (Xcode:
    /// its one "StoreKit" certificate). Send `base64EncodedString()` of it where an app sends its
    /// receipt.
    ///
    /// - Throws: ``AppStoreTestingError`` (`openSSLFailure`) when OpenSSL fails to sign.
    public func appReceipt(_ receipt: AppReceipt) throws(AppStoreTestingError) -> Data {
        try appReceipt(payload: Data(ReceiptPayloadWriter.payload(receipt)))
    }

    /// A PKCS#7 app receipt (DER) whose signed content is `payload`, exactly as given (for hostile
    /// payloads: any bytes), signed as ``appReceipt(_:)`` signs.
    ///
    /// - Throws: ``AppStoreTestingError`` (`openSSLFailure`) when OpenSSL fails to sign.
    public func appReceipt(payload: Data) throws(AppStoreTestingError) -> Data {
        try receiptSigner.withX509 { (signer) throws(AppStoreTestingError) -> Data in
            try Self.withX509s(receiptChain[...]) { (chain) throws(AppStoreTestingError) -> Data in
                try OpenSSLBuffer.take("signing the receipt") { out, length, error in
                    payload.withUnsafeBytes { bytes in
                        chain.withUnsafeBufferPointer { certificates in
                            asv_mint_pkcs7_sign(bytes.baseAddress, bytes.count, signer, receiptKey.pointer,
                                                certificates.baseAddress, certificates.count, out, length, error)
                        }
                    }
                }
            }
        }
    }

    /// Runs `body` with `certificates` parsed by OpenSSL (all freed after).
    private static func withX509s<Result>(_ certificates: ArraySlice<TestCertificate>, parsed: [OpaquePointer?] = [],
                                          _ body: ([OpaquePointer?]) throws(AppStoreTestingError) -> Result) throws(AppStoreTestingError) -> Result {
        guard let first = certificates.first else { return try body(parsed) }
        return try first.withX509 { (certificate) throws(AppStoreTestingError) -> Result in
            try withX509s(certificates.dropFirst(), parsed: parsed + [certificate], body)
        }
    }
}
