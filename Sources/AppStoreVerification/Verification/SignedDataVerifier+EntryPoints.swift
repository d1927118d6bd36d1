import Foundation

extension SignedDataVerifier {
    // Every entry point takes the signed data as text or bytes (``SignedDataInput``: `String`,
    // `Substring`, `Data`, `[UInt8]`, ...); surrounding ASCII white space is ignored.

    /// Verifies and decodes a signed transaction (`transaction.jwsRepresentation`, or
    /// `signedTransactionInfo` from a notification or the App Store Server API).
    ///
    /// - Throws: ``SignedDataDecodingError`` when the input is not a JWS with a transaction payload.
    public func verifyTransaction(_ signedTransaction: some SignedDataInput) throws(SignedDataDecodingError) -> VerificationResult<Transaction> {
        try verify(signedTransaction, as: Transaction.self)
    }

    /// Verifies and decodes signed renewal info (`signedRenewalInfo` from a notification or the App
    /// Store Server API, or `renewalInfo.jwsRepresentation`).
    ///
    /// - Throws: ``SignedDataDecodingError`` when the input is not a JWS with a renewal-info payload.
    public func verifyRenewalInfo(_ signedRenewalInfo: some SignedDataInput) throws(SignedDataDecodingError) -> VerificationResult<RenewalInfo> {
        try verify(signedRenewalInfo, as: RenewalInfo.self)
    }

    /// Verifies and decodes a signed app transaction (`AppTransaction.shared` → `jwsRepresentation`).
    /// Its certificates are checked at `receiptCreationDate` by default.
    ///
    /// - Throws: ``SignedDataDecodingError`` when the input is not a JWS with an app-transaction payload.
    public func verifyAppTransaction(_ signedAppTransaction: some SignedDataInput) throws(SignedDataDecodingError) -> VerificationResult<AppTransaction> {
        try verify(signedAppTransaction, as: AppTransaction.self)
    }

    /// Verifies and decodes an App Store Server Notification V2: the request body Apple POSTs to your
    /// server (`{"signedPayload":"..."}`, read strictly, see ``ResponseBodyV2``), or its
    /// `signedPayload` alone. Input whose first character (after white space) is `{` is the body.
    ///
    /// The signed data nested in the notification is verified too, each with its own result:
    /// ``ResponseBodyV2DecodedPayload/transactionInfo``, ``ResponseBodyV2DecodedPayload/renewalInfo``
    /// and ``ResponseBodyV2DecodedPayload/appTransactionInfo``. A genuine notification may carry a
    /// tampered inner JWS only if something between Apple and you changed it, so check both.
    ///
    /// - Throws: ``SignedDataDecodingError`` when the input is neither such a body nor a JWS with a
    ///   notification payload.
    public func verifyNotification(_ notification: some SignedDataInput) throws(SignedDataDecodingError) -> VerificationResult<ResponseBodyV2DecodedPayload> {
        try verifyNotificationPayload(try signedPayload(of: notification))
    }

    /// Verifies and decodes a Retention Messaging realtime request: the request body Apple POSTs to
    /// your realtime URL (`{"signedPayload":"..."}`), or its `signedPayload` alone.
    ///
    /// - Throws: ``SignedDataDecodingError`` when the input is neither such a body nor a JWS with a
    ///   realtime request payload.
    public func verifyRealtimeRequest(_ request: some SignedDataInput) throws(SignedDataDecodingError) -> VerificationResult<DecodedRealtimeRequestBody> {
        try offlineVerification(try signedPayload(of: request), as: DecodedRealtimeRequestBody.self).result
    }

    /// A notification's `signedPayload` verified, with its nested signed data.
    func verifyNotificationPayload(_ signedPayload: String) throws(SignedDataDecodingError) -> VerificationResult<ResponseBodyV2DecodedPayload> {
        try offlineVerification(signedPayload, as: ResponseBodyV2DecodedPayload.self).result.map { notification in
            var notification = notification
            if let inner = notification.data?.signedTransactionInfo {
                notification.transactionInfo = nested(inner, as: Transaction.self)
            }
            if let inner = notification.data?.signedRenewalInfo {
                notification.renewalInfo = nested(inner, as: RenewalInfo.self)
            }
            if let inner = notification.appData?.signedAppTransactionInfo {
                notification.appTransactionInfo = nested(inner, as: AppTransaction.self)
            }
            return notification
        }
    }

    /// The JWS of a request Apple POSTs: its body's `signedPayload` when the input is a JSON object,
    /// else the input itself; after the size check.
    func signedPayload(of input: some SignedDataInput) throws(SignedDataDecodingError) -> String {
        let length = input.signedDataByteCount
        guard length <= configuration.maximumInputLength else {
            throw SignedDataDecodingError(.inputTooLarge, "The input is \(length) bytes; the verifier accepts at most \(configuration.maximumInputLength) (App Store JWS and notification bodies are a few tens of kilobytes). Raise maximumInputLength if this is expected.")
        }
        guard input.firstSignificantByte == UInt8(ascii: "{") else { return input.signedDataText }
        return try input.withSignedDataBytes { (bytes) throws(SignedDataDecodingError) in try ResponseBodyV2(json: bytes).signedPayload }
    }

    /// The JWS text of `input`, after the size check (a JWS is ASCII; other bytes fail its parsing).
    func jwsText(of input: some SignedDataInput) throws(SignedDataDecodingError) -> String {
        let length = input.signedDataByteCount
        guard length <= configuration.maximumInputLength else {
            throw SignedDataDecodingError(.inputTooLarge, "The input is \(length) bytes; the verifier accepts at most \(configuration.maximumInputLength) (App Store JWS are a few kilobytes). Raise maximumInputLength if this is expected.")
        }
        return input.signedDataText
    }

    private func nested<Payload: SignedPayload>(_ jws: String, as type: Payload.Type) -> Result<VerificationResult<Payload>, SignedDataDecodingError> {
        do {
            return .success(try verify(jws, as: type))
        } catch {
            return .failure(error)
        }
    }
}

extension VerificationResult {
    /// The same verdict with the payload transformed (for attaching nested results).
    func map(_ transform: (SignedType) -> SignedType) -> VerificationResult<SignedType> {
        switch self {
        case .verified(let payload): .verified(transform(payload))
        case .unverified(let payload, let error): .unverified(transform(payload), error)
        }
    }
}
