import Foundation

/// How a receipt arrives: base64 text, or DER/BER bytes (or base64 text given as bytes).
extension SignedDataVerifier {
    /// DER/BER bytes or base64 text (as text or bytes): length limit, then decoding.
    func offlineVerifyAppReceipt(_ appReceipt: some SignedDataInput) throws(SignedDataDecodingError) -> ReceiptVerification {
        let length = appReceipt.signedDataByteCount
        guard length <= configuration.maximumInputLength else {
            throw SignedDataDecodingError(.inputTooLarge, "The receipt is \(length) bytes; the verifier accepts at most \(configuration.maximumInputLength). Raise maximumInputLength if this is expected.")
        }
        let encoded = try appReceipt.withSignedDataBytes { (bytes) throws(SignedDataDecodingError) -> Data in
            if bytes.first == 0x30 { return Data(bytes) }
            return try Self.receiptBytes(base64: Array(bytes))
        }
        return try offlineVerifyAppReceipt(encoded: encoded)
    }

    /// Decodes base64 text (standard alphabet, padded), ignoring ASCII white space.
    static func receiptBytes(base64 text: [UInt8]) throws(SignedDataDecodingError) -> Data {
        let compact = text.filter { !($0 == 0x20 || (0x09...0x0D).contains($0)) }
        guard !compact.isEmpty else {
            throw SignedDataDecodingError(.malformedReceipt, "The receipt is empty.")
        }
        do {
            return try Base64.decodeStandard(compact)
        } catch {
            throw SignedDataDecodingError(.malformedReceipt, "The receipt is not DER and not standard padded base64 text (\(error)); send the receipt file's bytes base64-encoded, as apps did for verifyReceipt.")
        }
    }
}
