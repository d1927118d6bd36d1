import Foundation

extension SignedDataVerifier {
    /// The warm path: a DER receipt that embeds exactly the certificates of a chain validated for
    /// an earlier receipt, valid at this one's effective date, is checked without parsing any
    /// certificate (``ReceiptEnvelope``). `nil` sends the receipt down the general path, which
    /// checks everything and reports any problem; the verdicts of both paths are the same.
    func verifyWarmAppReceipt(_ encoded: Data) -> ReceiptVerification? {
        let der = encoded.withUnsafeBytes { [UInt8]($0) }
        guard let envelope = ReceiptEnvelope(der: der),
              let chain = receiptPolicy.cachedChain(for: envelope.certificates),
              let signedData = ReceiptSignedData(withoutCertificates: envelope.withoutCertificates, signer: chain.leaf),
              let receipt = try? AppReceipt(decoding: signedData.contentBytes),
              receipt.environment != .xcode,
              chain.validity.contains(effectiveInstant(of: receipt).seconds)
        else { return nil }
        do throws(VerificationError) {
            try receiptPolicy.verifySignature(of: signedData)
            try configuration.checkClaims(of: receipt, kind: .appReceipt)
        } catch {
            return ReceiptVerification(result: .unverified(receipt, error), chain: nil, certificates: nil)
        }
        return ReceiptVerification(result: .verified(receipt), chain: chain, certificates: envelope.certificates)
    }
}
