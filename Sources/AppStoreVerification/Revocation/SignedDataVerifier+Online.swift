extension SignedDataVerifier {
    /// The online entry points: the same verification as the synchronous ones, plus, when
    /// ``Configuration/revocation`` is ``RevocationPolicy/ocsp(_:)``, OCSP revocation checks of the
    /// leaf and the intermediate at the current time.
    ///
    /// ```swift
    /// let result = try await verifier.online.verifyTransaction(request.body)
    /// ```
    ///
    /// They have names of their own (`verifier.online.verifyTransaction`, not an `async` overload of
    /// `verifier.verifyTransaction`), so that in an `async` handler a server that verifies offline
    /// writes `try verifier.verifyTransaction(...)` and catches ``SignedDataDecodingError`` alone,
    /// and a server that checks revocation says so where it calls.
    public var online: Online { Online(verifier: self) }

    /// The online entry points of a ``SignedDataVerifier``: see ``SignedDataVerifier/online``.
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
    /// Every entry point takes the signed data as any string (`String`, `Substring`, ...) or as its
    /// bytes (`Data`, `[UInt8]`, a byte view of a server's request body), like the synchronous ones.
    /// Data signed locally by Xcode (verified against ``Configuration/xcodeCertificate``) is not
    /// checked for revocation: Xcode's certificate names no responder.
    public struct Online: Sendable {
        /// The verifier whose configuration and caches these entry points use.
        public let verifier: SignedDataVerifier

        /// Verifies and decodes a signed transaction, online when revocation checks are on.
        ///
        /// - Throws: ``OnlineVerificationError``: `.decoding` when the input is not a JWS with a
        ///   transaction payload, `.revocationCheckUnavailable` when no revocation answer could be had.
        public func verifyTransaction(_ signedTransaction: some StringProtocol) async throws(OnlineVerificationError) -> VerificationResult<Transaction> {
            try await verify(signedTransaction, as: Transaction.self)
        }

        /// Verifies and decodes a signed transaction given as bytes, online when revocation checks are on.
        ///
        /// - Throws: ``OnlineVerificationError`` (see the `StringProtocol` overload).
        public func verifyTransaction(_ signedTransaction: some Collection<UInt8>) async throws(OnlineVerificationError) -> VerificationResult<Transaction> {
            try await verify(signedTransaction, as: Transaction.self)
        }

        /// Verifies and decodes signed renewal info, online when revocation checks are on.
        ///
        /// - Throws: ``OnlineVerificationError`` (see `verifyTransaction(_:)`).
        public func verifyRenewalInfo(_ signedRenewalInfo: some StringProtocol) async throws(OnlineVerificationError) -> VerificationResult<RenewalInfo> {
            try await verify(signedRenewalInfo, as: RenewalInfo.self)
        }

        /// Verifies and decodes signed renewal info given as bytes, online when revocation checks are on.
        ///
        /// - Throws: ``OnlineVerificationError`` (see `verifyTransaction(_:)`).
        public func verifyRenewalInfo(_ signedRenewalInfo: some Collection<UInt8>) async throws(OnlineVerificationError) -> VerificationResult<RenewalInfo> {
            try await verify(signedRenewalInfo, as: RenewalInfo.self)
        }

        /// Verifies and decodes a signed app transaction, online when revocation checks are on (its
        /// certificates are then checked now, not at `receiptCreationDate`).
        ///
        /// - Throws: ``OnlineVerificationError`` (see `verifyTransaction(_:)`).
        public func verifyAppTransaction(_ signedAppTransaction: some StringProtocol) async throws(OnlineVerificationError) -> VerificationResult<AppTransaction> {
            try await verify(signedAppTransaction, as: AppTransaction.self)
        }

        /// Verifies and decodes a signed app transaction given as bytes, online when revocation checks are on.
        ///
        /// - Throws: ``OnlineVerificationError`` (see `verifyTransaction(_:)`).
        public func verifyAppTransaction(_ signedAppTransaction: some Collection<UInt8>) async throws(OnlineVerificationError) -> VerificationResult<AppTransaction> {
            try await verify(signedAppTransaction, as: AppTransaction.self)
        }

        /// Verifies and decodes a retention-messaging realtime request, online when revocation checks are on.
        ///
        /// - Throws: ``OnlineVerificationError`` (see `verifyTransaction(_:)`).
        public func verifyRealtimeRequest(_ signedPayload: some StringProtocol) async throws(OnlineVerificationError) -> VerificationResult<DecodedRealtimeRequestBody> {
            try await verify(signedPayload, as: DecodedRealtimeRequestBody.self)
        }

        /// Verifies and decodes a realtime request given as bytes, online when revocation checks are on.
        ///
        /// - Throws: ``OnlineVerificationError`` (see `verifyTransaction(_:)`).
        public func verifyRealtimeRequest(_ signedPayload: some Collection<UInt8>) async throws(OnlineVerificationError) -> VerificationResult<DecodedRealtimeRequestBody> {
            try await verify(signedPayload, as: DecodedRealtimeRequestBody.self)
        }

        /// Verifies and decodes an App Store Server Notification V2 `signedPayload`, online when
        /// revocation checks are on; the nested signed data is verified the same way, each with its
        /// own result.
        ///
        /// - Throws: ``OnlineVerificationError``: `.revocationCheckUnavailable` when no revocation
        ///   answer could be had for the notification or for any nested JWS (answer Apple with a 5xx
        ///   so that it retries).
        public func verifyNotification(_ signedPayload: some StringProtocol) async throws(OnlineVerificationError) -> VerificationResult<ResponseBodyV2DecodedPayload> {
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

        /// Verifies and decodes a notification `signedPayload` given as bytes, online when
        /// revocation checks are on.
        ///
        /// - Throws: ``OnlineVerificationError`` (see the `StringProtocol` overload).
        public func verifyNotification(_ signedPayload: some Collection<UInt8>) async throws(OnlineVerificationError) -> VerificationResult<ResponseBodyV2DecodedPayload> {
            try await verifyNotification(try decoding { () throws(SignedDataDecodingError) in try verifier.jwsText(of: signedPayload) })
        }

        /// Verifies and decodes a notification from the request body Apple POSTs
        /// (`{"signedPayload":"..."}`), online when revocation checks are on.
        ///
        /// - Throws: ``OnlineVerificationError`` (see `verifyNotification(_:)`).
        public func verifyNotification(body: some Collection<UInt8>) async throws(OnlineVerificationError) -> VerificationResult<ResponseBodyV2DecodedPayload> {
            try await verifyNotification(try decoding { () throws(SignedDataDecodingError) in try verifier.signedPayload(ofNotificationBody: body) })
        }

        /// Verifies and decodes a notification from the request body Apple POSTs, held as text,
        /// online when revocation checks are on.
        ///
        /// - Throws: ``OnlineVerificationError`` (see `verifyNotification(_:)`).
        public func verifyNotification(body: some StringProtocol) async throws(OnlineVerificationError) -> VerificationResult<ResponseBodyV2DecodedPayload> {
            try await verifyNotification(body: body.utf8)
        }

        /// Verifies and decodes a JWS given as bytes whose payload is `Payload`, online when
        /// revocation checks are on.
        ///
        /// - Throws: ``OnlineVerificationError`` (see `verifyTransaction(_:)`).
        public func verify<Payload: SignedPayload>(_ jws: some Collection<UInt8>, as type: Payload.Type) async throws(OnlineVerificationError) -> VerificationResult<Payload> {
            try await verify(try decoding { () throws(SignedDataDecodingError) in try verifier.jwsText(of: jws) }, as: type)
        }

        /// Verifies and decodes a JWS whose payload is `Payload`, online when revocation checks are on.
        ///
        /// - Throws: ``OnlineVerificationError`` (see `verifyTransaction(_:)`).
        public func verify<Payload: SignedPayload>(_ jws: some StringProtocol, as type: Payload.Type) async throws(OnlineVerificationError) -> VerificationResult<Payload> {
            let (result, chain) = try decoding { () throws(SignedDataDecodingError) in try verifier.offlineVerification(jws, as: type) }
            // Revocation can only withdraw a verdict the offline checks gave, about the chain they
            // validated (none for Xcode-signed data: its certificate names no responder).
            guard let revocationChecker = verifier.revocationChecker, case .verified(let payload) = result,
                  let subjects = chain?.revocationSubjects
            else {
                return result
            }
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
        func decoding<T>(_ body: () throws(SignedDataDecodingError) -> T) throws(OnlineVerificationError) -> T {
            do {
                return try body()
            } catch {
                throw .decoding(error)
            }
        }
    }
}
