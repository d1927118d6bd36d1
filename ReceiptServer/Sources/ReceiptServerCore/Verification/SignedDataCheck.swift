import AppStoreVerification

/// The one place the server accepts or refuses signed data: every verification result of a
/// request, a reconciliation or a backfill goes through ``accept(_:_:_:)``, which records its
/// outcome in `/metrics` (`receipt_server_verifications_total{kind, outcome}`) and turns a refusal
/// into the ``APIError`` the route answers (400 when the data does not decode, 422 when it does not
/// verify). Nothing is stored for a refusal.
struct SignedDataCheck: Sendable {
    let verifier: SignedDataVerifier
    let metrics: ServerMetrics

    /// `text` and `next` as two sentences: `text` ends with one period (the verifier's messages
    /// may end with their own), then a space and `next`.
    static func sentences(_ text: String, _ next: String) -> String {
        var text = text
        while let last = text.last, last == " " { text.removeLast() }
        if let last = text.last, ".!?".contains(last) { return "\(text) \(next)" }
        return "\(text). \(next)"
    }

    /// What was verified, the `kind` label of the metric.
    enum Kind: String, Sendable {
        /// `POST /transactions`' `signedTransaction`.
        case transaction
        /// `POST /transactions`' `signedRenewalInfo`.
        case renewalInfo
        /// `POST /notifications`' `signedPayload`, with its nested signed data.
        case notification
        /// A transaction of Get Transaction History (reconcile).
        case reconciledTransaction
        /// A notification of Get Notification History (backfill), with its nested signed data.
        case backfilledNotification
    }

    /// Decodes and verifies with `verify`, then ``accept(_:_:_:)``s the result.
    ///
    /// - Parameters:
    ///   - kind: what is verified.
    ///   - field: where the data came from, for messages (`"signedTransaction"`).
    ///   - verify: the verifier's call; synchronous, so the offline overloads are picked.
    /// - Throws: 400 (the decoding error's code) when it is not signed data of the kind, 422
    ///   `unverified` when it does not verify.
    func verify<T>(_ kind: Kind, _ field: String, _ verify: () throws(SignedDataDecodingError) -> VerificationResult<T>) throws(APIError) -> T {
        let result: VerificationResult<T>
        do {
            result = try verify()
        } catch {
            metrics.recordVerification(kind: kind.rawValue, outcome: error.code.description)
            throw APIError(.badRequest, code: error.code.description, Self.sentences("\(field) is not signed data of the expected kind: \(error.message)", "Nothing was stored."))
        }
        return try accept(kind, field, result)
    }

    /// The verified value, or a refusal; the outcome is recorded either way.
    ///
    /// - Throws: 422 `unverified` with the verifier's reason when `result` is unverified.
    func accept<T>(_ kind: Kind, _ field: String, _ result: VerificationResult<T>) throws(APIError) -> T {
        switch result {
        case .verified(let value):
            metrics.recordVerification(kind: kind.rawValue, outcome: "verified")
            return value
        case .unverified(_, let error):
            metrics.recordVerification(kind: kind.rawValue, outcome: error.code.description)
            throw APIError(.unprocessableContent, code: "unverified", Self.sentences("\(field) does not verify: \(error)", "Nothing was stored."))
        }
    }

    /// A transaction JWS from a request.
    func transaction(_ jws: String) throws(APIError) -> Transaction {
        try verify(.transaction, "signedTransaction") { () throws(SignedDataDecodingError) in try verifier.verifyTransaction(jws) }
    }

    /// A renewal-info JWS from a request.
    func renewalInfo(_ jws: String) throws(APIError) -> RenewalInfo {
        try verify(.renewalInfo, "signedRenewalInfo") { () throws(SignedDataDecodingError) in try verifier.verifyRenewalInfo(jws) }
    }

    /// A notification JWS (`signedPayload`) from a request, its nested signed data included.
    func notification(_ jws: String) throws(APIError) -> AcceptedNotification {
        let result: VerificationResult<ResponseBodyV2DecodedPayload>
        do {
            result = try verifier.verifyNotification(jws)
        } catch {
            metrics.recordVerification(kind: Kind.notification.rawValue, outcome: error.code.description)
            throw APIError(.badRequest, code: error.code.description, Self.sentences("signedPayload is not a notification JWS: \(error.message)", "Nothing was stored."))
        }
        return try notification(result, kind: .notification)
    }

    /// A notification already verified (by the API client for Get Notification History, or by
    /// ``notification(_:)``): accepted only when it and every signed item inside it verify, and
    /// recorded once, with the first reason it is refused for.
    func notification(_ result: VerificationResult<ResponseBodyV2DecodedPayload>, kind: Kind) throws(APIError) -> AcceptedNotification {
        guard case .verified(let notification) = result else {
            _ = try accept(kind, "signedPayload", result)
            throw APIError(.internalServerError, code: "internal", "An unverified notification was accepted.")
        }
        var transaction: Transaction?
        switch notification.transactionInfo {
        case nil: break
        case .failure(let error):
            metrics.recordVerification(kind: kind.rawValue, outcome: error.code.description)
            throw APIError(.badRequest, code: error.code.description, Self.sentences("The notification's signedTransactionInfo does not decode: \(error.message)", "Nothing was stored."))
        case .success(.unverified(_, let error)):
            metrics.recordVerification(kind: kind.rawValue, outcome: error.code.description)
            throw APIError(.unprocessableContent, code: "unverified", Self.sentences("The notification verified but its signedTransactionInfo does not: \(error)", "Nothing was stored."))
        case .success(.verified(let verified)):
            transaction = verified
        }
        var renewal: RenewalInfo?
        switch notification.renewalInfo {
        case nil: break
        case .failure(let error):
            metrics.recordVerification(kind: kind.rawValue, outcome: error.code.description)
            throw APIError(.badRequest, code: error.code.description, Self.sentences("The notification's signedRenewalInfo does not decode: \(error.message)", "Nothing was stored."))
        case .success(.unverified(_, let error)):
            metrics.recordVerification(kind: kind.rawValue, outcome: error.code.description)
            throw APIError(.unprocessableContent, code: "unverified", Self.sentences("The notification verified but its signedRenewalInfo does not: \(error)", "Nothing was stored."))
        case .success(.verified(let verified)):
            renewal = verified
        }
        let jws = result.jwsRepresentation
        guard !jws.isEmpty else {
            throw APIError(.internalServerError, code: "internal", "The verified notification carries no JWS.")
        }
        metrics.recordVerification(kind: kind.rawValue, outcome: "verified")
        return AcceptedNotification(notification: notification, jws: jws, transaction: transaction, renewal: renewal)
    }
}
