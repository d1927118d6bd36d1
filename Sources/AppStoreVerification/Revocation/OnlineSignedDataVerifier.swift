import Foundation

/// Verifies and decodes App Store signed data like ``SignedDataVerifier``, and also asks Apple's OCSP
/// responders whether the leaf or the intermediate certificate was revoked.
///
/// Its entry points are `async` and only `async`: revocation checks wait on the network, so there is
/// no synchronous way to call them. Build one at start-up and share it.
///
/// ```swift
/// let verifier = try OnlineSignedDataVerifier(
///     configuration: .init(bundleId: "com.example.app", appAppleId: 1234567890, environment: .production),
///     revocation: OCSPOptions())
/// switch try await verifier.verifyTransaction(jwsFromApp) {
/// case .verified(let transaction): grant(transaction)
/// case .unverified(_, let error): refuse(error)
/// }
/// ```
///
/// Every check of the offline verifier runs first, with the effective date now (a certificate must
/// be valid today for a revocation answer to mean anything). Then:
/// - a revoked certificate gives `.unverified(payload, .revokedCertificate(...))`;
/// - a responder answer that does not vouch for the certificate ("unknown", a response signed by
///   someone else, for another certificate, stale or from the future) gives
///   `.unverified(payload, .invalidCertificateChain(...))`;
/// - no answer at all throws ``OnlineVerificationError/revocationCheckUnavailable(_:)``: retry later
///   (answer Apple's notification with a 5xx so that it retries);
/// - answers are cached per (certificate, issuer) until their nextUpdate (at most
///   ``OCSPOptions/maximumCacheAge``), so a warm verification makes no request.
///
/// Data signed locally by Xcode (verified against ``SignedDataVerifier/Configuration/xcodeCertificate``)
/// is not checked for revocation: Xcode's certificate names no responder.
public final class OnlineSignedDataVerifier: Sendable {
    /// The configuration every check but revocation follows (its ``SignedDataVerifier/Configuration/effectiveDate``
    /// is not used: online, certificates are checked now).
    public var configuration: SignedDataVerifier.Configuration { core.configuration }
    /// How revocation is checked.
    public let revocation: OCSPOptions

    /// The offline checks, with the effective date now and chains that carry their revocation subjects.
    let core: SignedDataVerifier
    let revocationChecker: RevocationChecker

    /// Creates an online verifier.
    ///
    /// - Parameters:
    ///   - configuration: what to trust and which app and environment to accept, as offline.
    ///   - revocation: timeouts, cache and transport of the OCSP checks.
    /// - Throws: ``VerifierConfigurationError`` for a configuration the offline verifier refuses, or
    ///   OCSP options out of range.
    public init(configuration: SignedDataVerifier.Configuration = .init(), revocation: OCSPOptions = OCSPOptions()) throws(VerifierConfigurationError) {
        self.core = try SignedDataVerifier(configuration: configuration, online: true)
        self.revocationChecker = try RevocationChecker(options: revocation, clock: configuration.clock)
        self.revocation = revocation
    }

    /// Verifies and decodes a signed transaction, then checks its certificates for revocation.
    ///
    /// - Throws: ``OnlineVerificationError``: `.decoding` when the input is not a JWS with a
    ///   transaction payload, `.revocationCheckUnavailable` when no revocation answer could be had.
    public func verifyTransaction(_ signedTransaction: some SignedDataInput) async throws(OnlineVerificationError) -> VerificationResult<Transaction> {
        try await verify(signedTransaction, as: Transaction.self)
    }

    /// Verifies and decodes signed renewal info, then checks its certificates for revocation.
    ///
    /// - Throws: ``OnlineVerificationError`` (see ``verifyTransaction(_:)``).
    public func verifyRenewalInfo(_ signedRenewalInfo: some SignedDataInput) async throws(OnlineVerificationError) -> VerificationResult<RenewalInfo> {
        try await verify(signedRenewalInfo, as: RenewalInfo.self)
    }

    /// Verifies and decodes a signed app transaction, then checks its certificates for revocation
    /// (they are checked now, not at `receiptCreationDate`).
    ///
    /// - Throws: ``OnlineVerificationError`` (see ``verifyTransaction(_:)``).
    public func verifyAppTransaction(_ signedAppTransaction: some SignedDataInput) async throws(OnlineVerificationError) -> VerificationResult<AppTransaction> {
        try await verify(signedAppTransaction, as: AppTransaction.self)
    }

    /// Verifies and decodes an App Store Server Notification V2 — the request body Apple POSTs
    /// (`{"signedPayload":"..."}`) or its `signedPayload` alone — then checks its certificates for
    /// revocation; the nested signed data is verified the same way, each with its own result.
    ///
    /// - Throws: ``OnlineVerificationError``: `.revocationCheckUnavailable` when no revocation answer
    ///   could be had for the notification or for any nested JWS (answer Apple with a 5xx).
    public func verifyNotification(_ notification: some SignedDataInput) async throws(OnlineVerificationError) -> VerificationResult<ResponseBodyV2DecodedPayload> {
        let signedPayload = try decoding { () throws(SignedDataDecodingError) in try core.signedPayload(of: notification) }
        let result = try await verify(signedPayload, as: ResponseBodyV2DecodedPayload.self)
        var payload = result.unsafePayloadValue
        if let inner = payload.data?.signedTransactionInfo {
            payload.transactionInfo = try await nested(inner, as: Transaction.self)
        }
        if let inner = payload.data?.signedRenewalInfo {
            payload.renewalInfo = try await nested(inner, as: RenewalInfo.self)
        }
        if let inner = payload.appData?.signedAppTransactionInfo {
            payload.appTransactionInfo = try await nested(inner, as: AppTransaction.self)
        }
        let attached = payload
        return result.map { _ in attached }
    }

    /// Verifies and decodes a Retention Messaging realtime request — the body Apple POSTs or its
    /// `signedPayload` — then checks its certificates for revocation.
    ///
    /// - Throws: ``OnlineVerificationError`` (see ``verifyTransaction(_:)``).
    public func verifyRealtimeRequest(_ request: some SignedDataInput) async throws(OnlineVerificationError) -> VerificationResult<DecodedRealtimeRequestBody> {
        let signedPayload = try decoding { () throws(SignedDataDecodingError) in try core.signedPayload(of: request) }
        return try await verify(signedPayload, as: DecodedRealtimeRequestBody.self)
    }

    /// Verifies and decodes a legacy app receipt (DER bytes or base64 text), then asks the OCSP
    /// responders named by the receipt's signing certificate and its intermediate whether either is
    /// revoked. Xcode receipts are not checked for revocation (their certificate names no responder).
    ///
    /// - Throws: ``OnlineVerificationError``: `.decoding` when the input is not an app receipt,
    ///   `.revocationCheckUnavailable` when no revocation answer could be had (retry later).
    public func verifyAppReceipt(_ appReceipt: some SignedDataInput) async throws(OnlineVerificationError) -> VerificationResult<AppReceipt> {
        let verification = try decoding { () throws(SignedDataDecodingError) in try core.offlineVerifyAppReceipt(appReceipt) }
        guard case .verified(let receipt) = verification.result, let chain = verification.chain,
              let certificates = verification.certificates
        else { return verification.result }
        switch await revocationChecker.check(receiptChain: chain, certificates: certificates) {
        case .good: return verification.result
        case .failed(let error): return .unverified(receipt, error)
        case .unavailable(let error): throw .revocationCheckUnavailable(error)
        }
    }

    /// The transaction ID of the first in-app purchase of a **verified** receipt (see
    /// ``SignedDataVerifier/extractTransactionIdFromAppReceipt(_:)``), after the revocation check.
    ///
    /// - Throws: ``TransactionIdExtractionError``: `.decoding` when the input is not an app receipt,
    ///   `.unverified` when the receipt does not verify, `.revocationCheckUnavailable` when no
    ///   revocation answer could be had (retry later).
    public func extractTransactionIdFromAppReceipt(_ appReceipt: some SignedDataInput) async throws(TransactionIdExtractionError) -> String? {
        let result: VerificationResult<AppReceipt>
        do {
            result = try await verifyAppReceipt(appReceipt)
        } catch {
            switch error {
            case .decoding(let error): throw .decoding(error)
            case .revocationCheckUnavailable(let error): throw .revocationCheckUnavailable(error)
            }
        }
        do {
            return try result.transactionId
        } catch {
            throw .unverified(error)
        }
    }

    /// Verifies and decodes a JWS whose payload is `Payload`, then checks its certificates for revocation.
    ///
    /// - Throws: ``OnlineVerificationError`` (see ``verifyTransaction(_:)``).
    public func verify<Payload: SignedPayload>(_ jws: some SignedDataInput, as type: Payload.Type) async throws(OnlineVerificationError) -> VerificationResult<Payload> {
        let (result, chain) = try decoding { () throws(SignedDataDecodingError) in try core.offlineVerification(try core.jwsText(of: jws), as: type) }
        // Revocation can only withdraw a verdict the offline checks gave, about the chain they
        // validated (none for Xcode-signed data: its certificate names no responder).
        guard case .verified(let payload) = result, let subjects = chain?.revocationSubjects else { return result }
        switch await revocationChecker.check(chain: subjects) {
        case .good: return result
        case .failed(let error): return .unverified(payload, error)
        case .unavailable(let error): throw .revocationCheckUnavailable(error)
        }
    }

    /// A nested JWS's result; only unavailability escapes, as it concerns the whole notification.
    private func nested<Payload: SignedPayload>(_ jws: String, as type: Payload.Type) async throws(OnlineVerificationError) -> Result<VerificationResult<Payload>, SignedDataDecodingError> {
        do {
            return .success(try await verify(jws, as: type))
        } catch {
            switch error {
            case .decoding(let decoding): return .failure(decoding)
            case .revocationCheckUnavailable: throw error
            }
        }
    }

    /// Runs an offline step, reporting its failure as `.decoding`.
    private func decoding<T>(_ body: () throws(SignedDataDecodingError) -> T) throws(OnlineVerificationError) -> T {
        do {
            return try body()
        } catch {
            throw .decoding(error)
        }
    }
}
