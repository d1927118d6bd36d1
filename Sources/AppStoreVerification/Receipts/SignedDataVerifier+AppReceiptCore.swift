import Foundation

/// The offline verification of a receipt's bytes: every check but revocation.
extension SignedDataVerifier {
    /// What the offline checks concluded, with what the revocation check needs.
    struct ReceiptVerification {
        let result: VerificationResult<AppReceipt>
        /// The App Store chain the receipt was verified with (`nil` for Xcode receipts and failures).
        let chain: ValidatedChain?
        /// The receipt's embedded certificates.
        let certificates: ReceiptCertificatesKey?
    }

    /// Every check but revocation.
    func offlineVerifyAppReceipt(encoded: Data) throws(SignedDataDecodingError) -> ReceiptVerification {
        if encoded.first == UInt8(ascii: "{") {
            throw SignedDataDecodingError(.malformedReceipt, "This is an old-style transaction receipt (a property list, SKPaymentTransaction.transactionReceipt, deprecated since iOS 7), not an app receipt; it carries no verifiable signature. Ask the app for its app receipt (Bundle.main.appStoreReceiptURL) or, better, for StoreKit 2 signed transactions.")
        }
        if let verification = verifyWarmAppReceipt(encoded) {
            return verification
        }
        let signedData = try ReceiptSignedData(encoded: encoded)
        let receipt = try AppReceipt(payload: signedData.content)
        let instant = effectiveInstant(of: receipt)
        let checked: AppReceiptPolicy.Checked
        do throws(VerificationError) {
            checked = try receiptPolicy.verify(signedData, receipt: receipt, at: instant)
            try configuration.checkClaims(of: receipt, kind: .appReceipt)
        } catch {
            return ReceiptVerification(result: .unverified(receipt, error), chain: nil, certificates: nil)
        }
        return ReceiptVerification(result: .verified(receipt), chain: checked.chain, certificates: checked.certificates)
    }

    /// The instant a receipt's chain is checked at: by default its creation date; now online.
    func effectiveInstant(of receipt: AppReceipt) -> EffectiveInstant {
        effectiveDatePolicy.instant(
            signingDate: receipt.receiptCreationDate, origin: "the receipt's creation date",
            fallbackOrigin: "now, as the receipt has no creation date", now: configuration.clock.now)
    }
}
