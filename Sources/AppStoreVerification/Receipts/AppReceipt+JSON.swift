import Foundation

extension AppReceipt {
    /// The receipt as one line of JSON, shaped like App Store JWS payloads: dates in milliseconds
    /// since 1970, binary values in base64, absent attributes omitted, keys sorted.
    ///
    /// Keys: `bundleId`, `applicationVersion`, `originalApplicationVersion`, `receiptCreationDate`,
    /// `expirationDate`, `originalPurchaseDate`, `environment` (as the receipt writes it), `appItemId`,
    /// `opaqueValue`, `sha1Hash`, and `inApp`: an array of objects with `quantity`, `productId`,
    /// `transactionId`, `originalTransactionId`, `purchaseDate`, `originalPurchaseDate`,
    /// `expiresDate`, `cancellationDate`, `webOrderLineItemId`, `isTrialPeriod`,
    /// `isInIntroOfferPeriod`, `promotionalOfferId`. Untyped attributes are not included (see
    /// ``fields``).
    public var jsonRepresentation: Data {
        var object: [String: Any] = [:]
        object["bundleId"] = bundleId
        object["applicationVersion"] = applicationVersion
        object["originalApplicationVersion"] = originalApplicationVersion
        object["receiptCreationDate"] = receiptCreationDate.map(Self.milliseconds)
        object["expirationDate"] = expirationDate.map(Self.milliseconds)
        object["originalPurchaseDate"] = originalPurchaseDate.map(Self.milliseconds)
        object["environment"] = receiptType
        object["appItemId"] = appItemId
        object["opaqueValue"] = opaqueValue?.base64EncodedString()
        object["sha1Hash"] = sha1Hash?.base64EncodedString()
        object["inApp"] = inApp.map(\.jsonObject)
        let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])
        return data ?? Data("{}".utf8)
    }

    static func milliseconds(_ date: Date) -> Int64 {
        let value = (date.timeIntervalSince1970 * 1000).rounded()
        guard value.isFinite else { return 0 }
        return Int64(max(-9.0e15, min(9.0e15, value)))
    }
}

extension InAppPurchaseReceipt {
    /// This purchase as a JSON object (see ``AppReceipt/jsonRepresentation``).
    var jsonObject: [String: Any] {
        var object: [String: Any] = [:]
        object["quantity"] = quantity
        object["productId"] = productId
        object["transactionId"] = transactionId
        object["originalTransactionId"] = originalTransactionId
        object["purchaseDate"] = purchaseDate.map(AppReceipt.milliseconds)
        object["originalPurchaseDate"] = originalPurchaseDate.map(AppReceipt.milliseconds)
        object["expiresDate"] = expiresDate.map(AppReceipt.milliseconds)
        object["cancellationDate"] = cancellationDate.map(AppReceipt.milliseconds)
        object["webOrderLineItemId"] = webOrderLineItemId
        object["isTrialPeriod"] = isTrialPeriod
        object["isInIntroOfferPeriod"] = isInIntroOfferPeriod
        object["promotionalOfferId"] = promotionalOfferId
        return object
    }
}
