import Foundation

/// How a receipt arrives: base64 text, or DER/BER bytes (or base64 text given as bytes).
extension SignedDataVerifier {
    /// Base64 text: length limit, then decoding.
    func offlineVerifyAppReceipt(_ appReceipt: some StringProtocol) throws(SignedDataDecodingError) -> ReceiptVerification {
        let length = appReceipt.utf8.count
        guard length <= configuration.maximumInputLength else {
            throw SignedDataDecodingError(.inputTooLarge, "The receipt is \(length) bytes of text; the verifier accepts at most \(configuration.maximumInputLength). Raise maximumInputLength if this is expected.")
        }
        return try offlineVerifyAppReceipt(encoded: Self.receiptBytes(base64: Array(appReceipt.utf8)))
    }

    /// DER/BER bytes or base64 text: length limit, then decoding.
    func offlineVerifyAppReceipt(_ appReceipt: some Collection<UInt8>) throws(SignedDataDecodingError) -> ReceiptVerification {
        guard appReceipt.count <= configuration.maximumInputLength else {
            throw SignedDataDecodingError(.inputTooLarge, "The receipt is \(appReceipt.count) bytes; the verifier accepts at most \(configuration.maximumInputLength). Raise maximumInputLength if this is expected.")
        }
        if appReceipt.first == 0x30 {
            return try offlineVerifyAppReceipt(encoded: Data(appReceipt))
        }
        return try offlineVerifyAppReceipt(encoded: Self.receiptBytes(base64: Array(appReceipt)))
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
