internal import CAppStoreOpenSSL
internal import CAppStoreOpenSSLTesting
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
    private let header: String
    private let signer: JWSSigner
    /// The receipt's signer, its key, and the certificates embedded after the signer's.
    private let receiptSigner: TestCertificate
    private let receiptKey: TestPrivateKey
    private let receiptChain: [TestCertificate]

    /// A minter signing as the App Store does, with `pki`'s chains (and its variant's defect).
    ///
    /// - Throws: ``AppStoreTestingError`` when the PKI's JWS key is not a usable P-256 key.
    public init(pki: TestPKI) throws(AppStoreTestingError) {
        let x5c = pki.chain.certificates.map { "\"\($0.derEncoded.base64EncodedString())\"" }.joined(separator: ",")
        header = Base64.encodeURL(Array("{\"alg\":\"ES256\",\"x5c\":[\(x5c)]}".utf8))
        signer = JWSSigner(key: try pki.chain.signingKey.signingKey())
        receiptSigner = pki.receiptChain.leaf
        receiptKey = pki.receiptChain.signingKey
        receiptChain = [pki.receiptChain.intermediate, pki.receiptChain.root]
    }

    /// A minter signing as StoreKit Testing in Xcode does: payloads should say environment
    /// `Xcode` (the builders' `environment: .xcode`; receipts `receiptType: "Xcode"`).
    ///
    /// - Throws: ``AppStoreTestingError`` when the Xcode key is not a usable P-256 key.
    public init(xcode: XcodeTestPKI) throws(AppStoreTestingError) {
        header = Base64.encodeURL(Array("{\"alg\":\"ES256\",\"kid\":\"Apple_Xcode_Key\",\"typ\":\"JWT\",\"x5c\":[\"\(xcode.certificate.derEncoded.base64EncodedString())\"]}".utf8))
        signer = JWSSigner(key: try xcode.key.signingKey())
        receiptSigner = xcode.receiptCertificate
        receiptKey = xcode.receiptKey
        receiptChain = []
    }

    /// Signs `objectJSON`, which must be one strict JSON object (RFC 8259, no duplicate member
    /// names), as given into a compact JWS: what a JWS payload of App Store data always is.
    ///
    /// - Throws: ``AppStoreTestingError`` (`invalidPayload`) saying where the text is not one JSON
    ///   object; (`openSSLFailure`) when OpenSSL fails to sign.
    public func sign(objectJSON: Data) throws(AppStoreTestingError) -> String {
        let bytes = Array(objectJSON)
        do {
            _ = try JSONObjectText(bytes)
        } catch {
            throw AppStoreTestingError(.invalidPayload, "not a JSON object: \(error.description)")
        }
        return try sign(payloadBytes: bytes)
    }

    /// Signs `payloadJSON` exactly as given (no check that it is JSON: hostile payloads too) into a
    /// compact JWS; ``sign(objectJSON:)`` checks that it is one JSON object first.
    ///
    /// - Throws: ``AppStoreTestingError`` (`openSSLFailure`) when OpenSSL fails to sign.
    public func sign(payloadJSON: Data) throws(AppStoreTestingError) -> String {
        try sign(payloadBytes: Array(payloadJSON))
    }

    /// The compact JWS of `payload`: the header, the payload's base64url, the ES256 signature's.
    func sign(payloadBytes payload: [UInt8]) throws(AppStoreTestingError) -> String {
        do {
            return try signer.sign(encodedHeader: header, payload: payload)
        } catch {
            throw AppStoreTestingError(.openSSLFailure, error.message)
        }
    }

    /// Signs `payload` encoded as `AppStoreJSON.makeEncoder()` encodes it.
    ///
    /// - Throws: ``AppStoreTestingError`` (`invalidPayload`) when it cannot be encoded.
    public func sign(_ payload: some Encodable) throws(AppStoreTestingError) -> String {
        let json: Data
        do {
            json = try AppStoreJSON.makeEncoder().encode(payload)
        } catch {
            throw AppStoreTestingError(.invalidPayload, "the payload cannot be encoded as JSON: \(error)")
        }
        return try sign(payloadBytes: Array(json))
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
