import Foundation

/// The `async` entry points: the same verification as the synchronous ones, plus, when
/// ``SignedDataVerifier/Configuration/revocation`` is ``RevocationPolicy/ocsp(_:)``, OCSP revocation
/// checks of the leaf and the intermediate at the current time.
///
/// With revocation off they give exactly the synchronous result. With it on:
/// - a revoked certificate gives `.unverified(payload, .revokedCertificate(...))`;
/// - a responder answer that does not vouch for the certificate ("unknown", a response signed by
///   someone else, for another certificate, stale or from the future) gives
///   `.unverified(payload, .invalidCertificateChain(...))`;
/// - no answer at all throws ``OnlineVerificationError/revocationCheckUnavailable(_:)``: retry later;
/// - answers are cached per (certificate, issuer) until their nextUpdate (at most
///   ``OCSPOptions/maximumCacheAge``), so a warm verification makes no request.
///
/// Data signed locally by Xcode (verified against ``SignedDataVerifier/Configuration/xcodeCertificate``)
/// is not checked for revocation: Xcode's certificate names no responder.
///
/// In an `async` context these overloads are the ones Swift picks: write `try await`.
extension SignedDataVerifier {
    /// Verifies and decodes a signed transaction, online when revocation checks are on.
    ///
    /// - Throws: ``OnlineVerificationError``: `.decoding` when the input is not a JWS with a
    ///   transaction payload, `.revocationCheckUnavailable` when no revocation answer could be had.
    public func verifyTransaction(_ signedTransaction: String) async throws(OnlineVerificationError) -> VerificationResult<Transaction> {
        try await verify(signedTransaction, as: Transaction.self)
    }

    /// Verifies and decodes signed renewal info, online when revocation checks are on.
    ///
    /// - Throws: ``OnlineVerificationError`` (see `verifyTransaction(_:)` (async)).
    public func verifyRenewalInfo(_ signedRenewalInfo: String) async throws(OnlineVerificationError) -> VerificationResult<RenewalInfo> {
        try await verify(signedRenewalInfo, as: RenewalInfo.self)
    }

    /// Verifies and decodes a signed app transaction, online when revocation checks are on (its
    /// certificates are then checked now, not at `receiptCreationDate`).
    ///
    /// - Throws: ``OnlineVerificationError`` (see `verifyTransaction(_:)` (async)).
    public func verifyAppTransaction(_ signedAppTransaction: String) async throws(OnlineVerificationError) -> VerificationResult<AppTransaction> {
        try await verify(signedAppTransaction, as: AppTransaction.self)
    }

    /// Verifies and decodes a retention-messaging realtime request, online when revocation checks are on.
    ///
    /// - Throws: ``OnlineVerificationError`` (see `verifyTransaction(_:)` (async)).
    public func verifyRealtimeRequest(_ signedPayload: String) async throws(OnlineVerificationError) -> VerificationResult<DecodedRealtimeRequestBody> {
        try await verify(signedPayload, as: DecodedRealtimeRequestBody.self)
    }

    /// Verifies and decodes an App Store Server Notification V2, online when revocation checks are
    /// on; the nested signed data is verified the same way, each with its own result.
    ///
    /// - Throws: ``OnlineVerificationError``: `.revocationCheckUnavailable` when no revocation answer
    ///   could be had for the notification or for any nested JWS (answer Apple with a 5xx so that it
    ///   retries).
    public func verifyNotification(_ signedPayload: String) async throws(OnlineVerificationError) -> VerificationResult<ResponseBodyV2DecodedPayload> {
        let result = try await verify(signedPayload, as: ResponseBodyV2DecodedPayload.self)
        var notification = result.unsafePayloadValue
        if let inner = notification.data?.signedTransactionInfo {
            notification.transactionInfo = try await nested(inner, as: Transaction.self)
        }
        if let inner = notification.data?.signedRenewalInfo {
            notification.renewalInfo = try await nested(inner, as: RenewalInfo.self)
        }
        if let inner = notification.appData?.signedAppTransactionInfo {
            notification.appTransactionInfo = try await nested(inner, as: AppTransaction.self)
        }
        let attached = notification
        return result.map { _ in attached }
    }

    /// Verifies and decodes a notification from the request body Apple POSTs
    /// (`{"signedPayload":"..."}`), online when revocation checks are on.
    ///
    /// - Throws: ``OnlineVerificationError`` (see `verifyNotification(_:)` (async)).
    public func verifyNotification(body: some Collection<UInt8>) async throws(OnlineVerificationError) -> VerificationResult<ResponseBodyV2DecodedPayload> {
        let length = body.count
        guard length <= configuration.maximumInputLength else {
            throw .decoding(SignedDataDecodingError(.inputTooLarge, "The notification body is \(length) bytes; the verifier accepts at most \(configuration.maximumInputLength)."))
        }
        // The same strict reader as the synchronous entry point.
        let signedPayload: String
        do {
            signedPayload = try ResponseBodyV2(json: body).signedPayload
        } catch {
            throw .decoding(error)
        }
        return try await verifyNotification(signedPayload)
    }

    /// Verifies and decodes a JWS whose payload is `Payload`, online when revocation checks are on.
    ///
    /// - Throws: ``OnlineVerificationError`` (see `verifyTransaction(_:)` (async)).
    public func verify<Payload: SignedPayload>(_ jws: String, as type: Payload.Type) async throws(OnlineVerificationError) -> VerificationResult<Payload> {
        let result: VerificationResult<Payload>
        do {
            result = try offlineVerify(jws, as: type)
        } catch {
            throw .decoding(error)
        }
        // Revocation can only withdraw a verdict the offline checks gave.
        guard let revocationChecker, case .verified(let payload) = result, let signed = payload.jws else {
            return result
        }
        if let environment = (payload as? any AppClaims)?.claimedEnvironment, environment == .xcode {
            return result
        }
        switch await revocationChecker.check(signed) {
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
}
