import Foundation

extension SignedDataVerifier {
    // Every entry point takes the JWS as any string (`String`, `Substring`, ...) or as its bytes
    // (`Data`, `[UInt8]`, a byte view of a server's request body); surrounding ASCII white space is
    // ignored.

    /// Verifies and decodes a signed transaction (`transaction.jwsRepresentation`, or
    /// `signedTransactionInfo` from a notification or the App Store Server API).
    ///
    /// - Throws: ``SignedDataDecodingError`` when the input is not a JWS with a transaction payload.
    public func verifyTransaction(_ signedTransaction: some StringProtocol) throws(SignedDataDecodingError) -> VerificationResult<Transaction> {
        try verify(signedTransaction, as: Transaction.self)
    }

    /// Verifies and decodes a signed transaction given as bytes.
    public func verifyTransaction(_ signedTransaction: some Collection<UInt8>) throws(SignedDataDecodingError) -> VerificationResult<Transaction> {
        try refuseSynchronousUseOnline(Transaction.payloadKind.entryPoint)
        return try verify(try jwsText(of: signedTransaction), as: Transaction.self)
    }

    /// Verifies and decodes signed renewal info given as bytes.
    public func verifyRenewalInfo(_ signedRenewalInfo: some Collection<UInt8>) throws(SignedDataDecodingError) -> VerificationResult<RenewalInfo> {
        try refuseSynchronousUseOnline(RenewalInfo.payloadKind.entryPoint)
        return try verify(try jwsText(of: signedRenewalInfo), as: RenewalInfo.self)
    }

    /// Verifies and decodes a signed app transaction given as bytes.
    public func verifyAppTransaction(_ signedAppTransaction: some Collection<UInt8>) throws(SignedDataDecodingError) -> VerificationResult<AppTransaction> {
        try refuseSynchronousUseOnline(AppTransaction.payloadKind.entryPoint)
        return try verify(try jwsText(of: signedAppTransaction), as: AppTransaction.self)
    }

    /// Verifies and decodes a notification `signedPayload` given as bytes.
    public func verifyNotification(_ signedPayload: some Collection<UInt8>) throws(SignedDataDecodingError) -> VerificationResult<ResponseBodyV2DecodedPayload> {
        try refuseSynchronousUseOnline(ResponseBodyV2DecodedPayload.payloadKind.entryPoint)
        return try verifyNotification(try jwsText(of: signedPayload))
    }

    /// Verifies and decodes a realtime request `signedPayload` given as bytes.
    public func verifyRealtimeRequest(_ signedPayload: some Collection<UInt8>) throws(SignedDataDecodingError) -> VerificationResult<DecodedRealtimeRequestBody> {
        try refuseSynchronousUseOnline(DecodedRealtimeRequestBody.payloadKind.entryPoint)
        return try verify(try jwsText(of: signedPayload), as: DecodedRealtimeRequestBody.self)
    }

    /// Verifies and decodes signed renewal info (`signedRenewalInfo` from a notification or the App
    /// Store Server API, or `renewalInfo.jwsRepresentation`).
    ///
    /// - Throws: ``SignedDataDecodingError`` when the input is not a JWS with a renewal-info payload.
    public func verifyRenewalInfo(_ signedRenewalInfo: some StringProtocol) throws(SignedDataDecodingError) -> VerificationResult<RenewalInfo> {
        try verify(signedRenewalInfo, as: RenewalInfo.self)
    }

    /// Verifies and decodes a signed app transaction (`AppTransaction.shared` → `jwsRepresentation`).
    /// Its certificates are checked at `receiptCreationDate` by default.
    ///
    /// - Throws: ``SignedDataDecodingError`` when the input is not a JWS with an app-transaction payload.
    public func verifyAppTransaction(_ signedAppTransaction: some StringProtocol) throws(SignedDataDecodingError) -> VerificationResult<AppTransaction> {
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
    public func verifyNotification(_ signedPayload: some StringProtocol) throws(SignedDataDecodingError) -> VerificationResult<ResponseBodyV2DecodedPayload> {
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
    /// (`{"signedPayload":"..."}`), as bytes: `Data`, `[UInt8]`, a byte view of a request body.
    ///
    /// - Throws: ``SignedDataDecodingError`` when the body is not such a JSON object (read strictly,
    ///   see ``ResponseBodyV2``) or its `signedPayload` is not a notification JWS.
    public func verifyNotification(body: some Collection<UInt8>) throws(SignedDataDecodingError) -> VerificationResult<ResponseBodyV2DecodedPayload> {
        try refuseSynchronousUseOnline("verifyNotification", arguments: "body: ...")
        return try verifyNotification(try signedPayload(ofNotificationBody: body))
    }

    /// The `signedPayload` of a notification request body, after the size check, read strictly.
    func signedPayload(ofNotificationBody body: some Collection<UInt8>) throws(SignedDataDecodingError) -> String {
        let length = body.count
        guard length <= configuration.maximumInputLength else {
            throw SignedDataDecodingError(.inputTooLarge, "The notification body is \(length) bytes; the verifier accepts at most \(configuration.maximumInputLength).")
        }
        return try ResponseBodyV2(json: body).signedPayload
    }

    /// Verifies and decodes a notification from the request body Apple POSTs, held as text.
    public func verifyNotification(body: some StringProtocol) throws(SignedDataDecodingError) -> VerificationResult<ResponseBodyV2DecodedPayload> {
        try verifyNotification(body: body.utf8)
    }

    /// Verifies and decodes a retention-messaging realtime request (the `signedPayload` Apple sends to
    /// your Retention Messaging endpoint).
    ///
    /// - Throws: ``SignedDataDecodingError`` when the input is not a JWS with such a payload.
    public func verifyRealtimeRequest(_ signedPayload: some StringProtocol) throws(SignedDataDecodingError) -> VerificationResult<DecodedRealtimeRequestBody> {
        try verify(signedPayload, as: DecodedRealtimeRequestBody.self)
    }

    /// The JWS text of `bytes`, after the size check (a JWS is ASCII; other bytes fail its parsing).
    func jwsText(of bytes: some Collection<UInt8>) throws(SignedDataDecodingError) -> String {
        let length = bytes.count
        guard length <= configuration.maximumInputLength else {
            throw SignedDataDecodingError(.inputTooLarge, "The input is \(length) bytes; the verifier accepts at most \(configuration.maximumInputLength) (App Store JWS are a few kilobytes). Raise maximumInputLength if this is expected.")
        }
        return String(decoding: bytes, as: UTF8.self)
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
