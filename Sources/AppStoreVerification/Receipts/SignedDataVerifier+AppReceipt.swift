import Foundation

extension SignedDataVerifier {
    /// Verifies and decodes a legacy app receipt: the receipt file's DER (or BER) PKCS#7 as bytes, or
    /// its base64 text (what apps read from `Bundle.main.appStoreReceiptURL` and used to send to
    /// Apple's deprecated `verifyReceipt`; white space, line breaks included, is ignored).
    ///
    /// 1. OpenSSL parses the PKCS#7 SignedData: attached content, exactly one signer, no trailing
    ///    bytes (failures throw ``SignedDataDecodingError``: there is no receipt);
    /// 2. the payload is decoded strictly into ``AppReceipt`` (failures throw too);
    /// 3. the embedded chain must lead to a configured receipt root
    ///    (``Configuration/trustedReceiptRoots``, default Apple Root CA) with Apple's marker extensions, at
    ///    the effective date (by default the receipt's creation date); a receipt whose environment is
    ///    Xcode is checked against ``Configuration/xcodeReceiptCertificate`` alone, and never without it;
    /// 4. the signer's RSA signature (SHA-256 or SHA-1) must verify over the payload;
    /// 5. bundle ID, app Apple ID (the receipt's app item ID; a Production receipt must carry it)
    ///    and environment must match the configuration where it names them.
    /// A failure in steps 3–5 yields ``VerificationResult/unverified(_:_:)`` with the reason.
    ///
    /// Tie the receipt to the device that sent it with the result's `verifyingDevice(_:)` (the
    /// receipt overload, taking the device's `identifierForVendor`).
    ///
    /// - Throws: ``SignedDataDecodingError`` (`malformedReceipt`, `inputTooLarge`) when the input is
    ///   not an app receipt.
    public func verifyAppReceipt(_ appReceipt: some SignedDataInput) throws(SignedDataDecodingError) -> VerificationResult<AppReceipt> {
        try offlineVerifyAppReceipt(appReceipt).result
    }

    /// The transaction ID of the first in-app purchase of a **verified** receipt, or `nil` when it
    /// lists none: what Apple's `ReceiptUtility.extractTransactionIdFromAppReceipt` returns, except
    /// that Apple's does not verify the receipt and this does (an unsigned blob yields nothing).
    ///
    /// - Throws: ``TransactionIdExtractionError``: `.decoding` when the input is not an app receipt,
    ///   `.unverified` when the receipt does not verify.
    public func extractTransactionIdFromAppReceipt(_ appReceipt: some SignedDataInput) throws(TransactionIdExtractionError) -> String? {
        let result: VerificationResult<AppReceipt>
        do {
            result = try verifyAppReceipt(appReceipt)
        } catch {
            throw .decoding(error)
        }
        do {
            return try result.transactionId
        } catch {
            throw .unverified(error)
        }
    }
}
