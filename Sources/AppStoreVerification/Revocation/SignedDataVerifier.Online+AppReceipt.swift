import Foundation

extension SignedDataVerifier.Online {
    /// Verifies and decodes a legacy app receipt given as base64 text, online when revocation checks
    /// are on: after the offline checks of the synchronous entry point, with the effective date now,
    /// the OCSP responders named by the receipt's signing certificate and its intermediate are asked
    /// whether either is revoked (answers cached). With revocation off it returns exactly the
    /// synchronous result. Xcode receipts are not checked for revocation (their certificate names no
    /// responder).
    ///
    /// - Throws: ``OnlineVerificationError``: `.decoding` when the input is not an app receipt,
    ///   `.revocationCheckUnavailable` when no revocation answer could be had (retry later).
    public func verifyAppReceipt(_ appReceipt: some StringProtocol) async throws(OnlineVerificationError) -> VerificationResult<AppReceipt> {
        try await verifier.checkRevocation(of: Result { () throws(SignedDataDecodingError) in try verifier.offlineVerifyAppReceipt(appReceipt) })
    }

    /// Verifies and decodes a legacy app receipt given as bytes (DER, BER or base64 text), online
    /// when revocation checks are on: see the `StringProtocol` overload.
    ///
    /// - Throws: ``OnlineVerificationError``.
    public func verifyAppReceipt(_ appReceipt: some Collection<UInt8>) async throws(OnlineVerificationError) -> VerificationResult<AppReceipt> {
        try await verifier.checkRevocation(of: Result { () throws(SignedDataDecodingError) in try verifier.offlineVerifyAppReceipt(appReceipt) })
    }

    /// The transaction ID of the first in-app purchase of a **verified** receipt, online when
    /// revocation checks are on (see ``SignedDataVerifier/extractTransactionIdFromAppReceipt(_:)``).
    ///
    /// - Throws: ``OnlineVerificationError`` when the input is not an app receipt or no revocation
    ///   answer could be had, and ``VerificationError`` when the receipt does not verify.
    public func extractTransactionIdFromAppReceipt(_ appReceipt: some StringProtocol) async throws -> String? {
        try await verifyAppReceipt(appReceipt).transactionId
    }
}

extension SignedDataVerifier {
    /// Revocation can only withdraw a verdict the offline checks gave; input they could not decode
    /// throws `.decoding`.
    func checkRevocation(of offline: Result<ReceiptVerification, SignedDataDecodingError>) async throws(OnlineVerificationError) -> VerificationResult<AppReceipt> {
        let verification = try offline.mapError { OnlineVerificationError.decoding($0) }.get()
        guard let revocationChecker, case .verified(let receipt) = verification.result,
              let chain = verification.chain, let certificates = verification.certificates
        else { return verification.result }
        switch await revocationChecker.check(receiptChain: chain, certificates: certificates) {
        case .good: return verification.result
        case .failed(let error): return .unverified(receipt, error)
        case .unavailable(let error): throw .revocationCheckUnavailable(error)
        }
    }
}
