import Foundation

extension SignedDataVerifier {
    /// Verifies and decodes signed renewal info (`signedRenewalInfo` from a notification or the App
    /// Store Server API, or `renewalInfo.jwsRepresentation`).
    ///
    /// - Throws: ``SignedDataDecodingError`` when the input is not a JWS with a renewal-info payload.
    public func verifyRenewalInfo(_ signedRenewalInfo: String) throws(SignedDataDecodingError) -> VerificationResult<RenewalInfo> {
        try verify(signedRenewalInfo, as: RenewalInfo.self)
    }

    /// Verifies and decodes a signed app transaction (`AppTransaction.shared` → `jwsRepresentation`).
    /// Its certificates are checked at `receiptCreationDate` by default.
    ///
    /// - Throws: ``SignedDataDecodingError`` when the input is not a JWS with an app-transaction payload.
    public func verifyAppTransaction(_ signedAppTransaction: String) throws(SignedDataDecodingError) -> VerificationResult<AppTransaction> {
        try verify(signedAppTransaction, as: AppTransaction.self)
    }

    /// Verifies and decodes an App Store Server Notification V2: the `signedPayload` of the request
    /// body Apple POSTs to your server.
    ///
    /// The signed data nested in the notification is verified too, each with its own result:
    /// ``ResponseBodyV2DecodedPayload/transactionInfo``, ``ResponseBodyV2DecodedPayload/renewalInfo``
    /// and ``ResponseBodyV2DecodedPayload/appTransactionInfo``. A genuine notification may carry a
    /// tampered inner JWS only if something between Apple and you changed it, so check both.
    ///
    /// - Throws: ``SignedDataDecodingError`` when the input is not a JWS with a notification payload.
    public func verifyNotification(_ signedPayload: String) throws(SignedDataDecodingError) -> VerificationResult<ResponseBodyV2DecodedPayload> {
        try verify(signedPayload, as: ResponseBodyV2DecodedPayload.self).map { notification in
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

    /// Verifies and decodes a notification from the request body Apple POSTs
    /// (`{"signedPayload":"..."}`).
    ///
    /// - Throws: ``SignedDataDecodingError`` when the body is not such a JSON object or its
    ///   `signedPayload` is not a notification JWS.
    public func verifyNotification(body: Data) throws(SignedDataDecodingError) -> VerificationResult<ResponseBodyV2DecodedPayload> {
        guard body.count <= configuration.maximumInputLength else {
            throw SignedDataDecodingError(.inputTooLarge, "The notification body is \(body.count) bytes; the verifier accepts at most \(configuration.maximumInputLength).")
        }
        guard let object = try? JSONSerialization.jsonObject(with: body) as? [String: Any] else {
            throw SignedDataDecodingError(.invalidJSON, "The notification body is not a JSON object; Apple sends {\"signedPayload\":\"<JWS>\"}.")
        }
        guard let signedPayload = object["signedPayload"] as? String else {
            throw SignedDataDecodingError(.invalidPayload, "The notification body has no \"signedPayload\" string; Apple sends {\"signedPayload\":\"<JWS>\"}.")
        }
        return try verifyNotification(signedPayload)
    }

    /// Verifies and decodes a retention-messaging realtime request (the `signedPayload` Apple sends to
    /// your Retention Messaging endpoint).
    ///
    /// - Throws: ``SignedDataDecodingError`` when the input is not a JWS with such a payload.
    public func verifyRealtimeRequest(_ signedPayload: String) throws(SignedDataDecodingError) -> VerificationResult<DecodedRealtimeRequestBody> {
        try verify(signedPayload, as: DecodedRealtimeRequestBody.self)
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
