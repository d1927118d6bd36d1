import AppStoreVerification
import Foundation

extension SignedDataMinter {
    /// A signed App Store Server Notification V2 payload (the body's `signedPayload`), with the
    /// signed data it carries minted by the same PKI.
    ///
    /// `transaction` and `renewalInfo` become `data.signedTransactionInfo` and
    /// `data.signedRenewalInfo`; `appTransaction` becomes `appData.signedAppTransactionInfo`. When
    /// the payload has no `data` (or `appData`) and one is needed, one is made from the nested
    /// model's bundle ID and environment. Pass `summary` or `externalPurchaseToken` notifications
    /// with no nested models.
    ///
    /// ```swift
    /// let refund = try minter.notification(
    ///     ResponseBodyV2DecodedPayload(notificationType: .refund),
    ///     transaction: Transaction(transactionId: "1", productId: "com.example.pro", revocationReason: .init(rawValue: 0), revocationDate: Date()))
    /// ```
    ///
    /// - Throws: ``AppStoreTestingError`` when a payload cannot be encoded or signed.
    public func notification(_ payload: ResponseBodyV2DecodedPayload, transaction: Transaction? = nil, renewalInfo: RenewalInfo? = nil,
                             appTransaction: AppTransaction? = nil) throws(AppStoreTestingError) -> String {
        var data = payload.data
        if transaction != nil || renewalInfo != nil {
            let base = data ?? NotificationData(environment: transaction?.environment ?? renewalInfo?.environment,
                                                bundleId: transaction?.bundleId ?? "com.example.app")
            data = NotificationData(environment: base.environment, appAppleId: base.appAppleId, bundleId: base.bundleId, bundleVersion: base.bundleVersion,
                                    signedTransactionInfo: try transaction.map { (model) throws(AppStoreTestingError) in try self.transaction(model) } ?? base.signedTransactionInfo,
                                    signedRenewalInfo: try renewalInfo.map { (model) throws(AppStoreTestingError) in try self.renewalInfo(model) } ?? base.signedRenewalInfo,
                                    status: base.status, consumptionRequestReason: base.consumptionRequestReason)
        }
        var appData = payload.appData
        if let appTransaction {
            let base = appData ?? AppData(appAppleId: appTransaction.appAppleId, bundleId: appTransaction.bundleId, environment: appTransaction.receiptType)
            appData = AppData(appAppleId: base.appAppleId, bundleId: base.bundleId, environment: base.environment,
                              signedAppTransactionInfo: try self.appTransaction(appTransaction))
        }
        let filled = ResponseBodyV2DecodedPayload(notificationType: payload.notificationType, subtype: payload.subtype,
                                                  notificationUUID: payload.notificationUUID, data: data, version: payload.version,
                                                  signedDate: payload.signedDate, summary: payload.summary,
                                                  externalPurchaseToken: payload.externalPurchaseToken, appData: appData)
        return try sign(filled)
    }

    /// The HTTP body App Store Server Notifications V2 POST: `{"signedPayload":"JWS"}`, for
    /// `SignedDataVerifier.verifyNotification(_:)` and handlers that take the request body.
    ///
    /// - Throws: ``AppStoreTestingError`` when a payload cannot be encoded or signed.
    public func notificationBody(_ payload: ResponseBodyV2DecodedPayload, transaction: Transaction? = nil, renewalInfo: RenewalInfo? = nil,
                                 appTransaction: AppTransaction? = nil) throws(AppStoreTestingError) -> Data {
        let jws = try notification(payload, transaction: transaction, renewalInfo: renewalInfo, appTransaction: appTransaction)
        return Data("{\"signedPayload\":\"\(jws)\"}".utf8)
    }

    /// Signs a notification payload given as JSON text, exactly as given, except that where Apple
    /// sends a signed string (`data.signedTransactionInfo`, `data.signedRenewalInfo`,
    /// `appData.signedAppTransactionInfo`) an object is signed first (exactly as given) and its JWS
    /// put in its place.
    ///
    /// - Throws: ``AppStoreTestingError`` (`invalidPayload`) when the text is not one strict JSON
    ///   object (RFC 8259, no duplicate member names), saying what and where.
    public func notification(payloadJSON: Data) throws(AppStoreTestingError) -> String {
        try sign(payloadJSON: Data(try nestingSigned(Array(payloadJSON))))
    }

    /// `json` with the nested objects replaced by their JWS.
    func nestingSigned(_ json: [UInt8]) throws(AppStoreTestingError) -> [UInt8] {
        let text: JSONObjectText
        do {
            text = try JSONObjectText(json)
        } catch {
            throw AppStoreTestingError(.invalidPayload, "not a JSON object: \(error.description)")
        }
        var replacements: [(Range<Int>, [UInt8])] = []
        for (path, names) in [(["data"], ["signedTransactionInfo", "signedRenewalInfo"]), (["appData"], ["signedAppTransactionInfo"])] {
            for member in text.members(at: path) where member.isObject && names.contains(member.name) {
                let jws = try sign(payloadJSON: Data(json[member.valueRange]))
                replacements.append((member.valueRange, Array("\"\(jws)\"".utf8)))
            }
        }
        var out = json
        for (range, bytes) in replacements.sorted(by: { $0.0.lowerBound > $1.0.lowerBound }) {
            out.replaceSubrange(range, with: bytes)
        }
        return out
    }
}
