import AppStoreVerification
import Foundation

extension SignedDataMinter {
    /// A PKCS#7 app receipt (DER) from a JSON object in the shape `verify-jws --format json` and
    /// `AppReceipt.jsonRepresentation` write: `environment` (attribute 0: `Production`,
    /// `ProductionSandbox`, `Xcode`), `appItemId`, `bundleId`, `applicationVersion`,
    /// `originalApplicationVersion`, `receiptCreationDate`, `originalPurchaseDate`,
    /// `expirationDate` (milliseconds since 1970), `opaqueValue`, `sha1Hash` (base64), and `inApp`:
    /// objects with `productId`, `transactionId`, `originalTransactionId`, `quantity`,
    /// `purchaseDate`, `originalPurchaseDate`, `expiresDate`, `cancellationDate`,
    /// `webOrderLineItemId`, `isTrialPeriod`, `isInIntroOfferPeriod`, `promotionalOfferId`.
    /// Members left out are absent from the receipt; other members are refused.
    ///
    /// - Throws: ``AppStoreTestingError`` (`invalidPayload`) naming what is wrong.
    public func appReceipt(json: Data) throws(AppStoreTestingError) -> Data {
        do {
            _ = try JSONObjectText(Array(json))
        } catch {
            throw AppStoreTestingError(.invalidPayload, "not a JSON object: \(error.description)")
        }
        let decoded: ReceiptJSON
        do {
            decoded = try AppStoreJSON.makeDecoder().decode(ReceiptJSON.self, from: json)
        } catch {
            throw AppStoreTestingError(.invalidPayload, "not an app receipt's JSON: \(ReceiptJSON.explain(error))")
        }
        return try appReceipt(decoded.receipt)
    }
}

/// An app receipt's JSON, as `AppReceipt.jsonRepresentation` writes it.
private struct ReceiptJSON: Decodable {
    struct Purchase: Decodable {
        var productId, transactionId, originalTransactionId, promotionalOfferId: String?
        var quantity, webOrderLineItemId: Int64?
        var purchaseDate, originalPurchaseDate, expiresDate, cancellationDate: Date?
        var isTrialPeriod, isInIntroOfferPeriod: Bool?

        var purchase: InAppPurchaseReceipt {
            // Absent stays absent.
            InAppPurchaseReceipt(exactly: productId, transactionId: transactionId, quantity: quantity, purchaseDate: purchaseDate,
                                 originalTransactionId: originalTransactionId, originalPurchaseDate: originalPurchaseDate,
                                 expiresDate: expiresDate, webOrderLineItemId: webOrderLineItemId, cancellationDate: cancellationDate,
                                 isTrialPeriod: isTrialPeriod, isInIntroOfferPeriod: isInIntroOfferPeriod, promotionalOfferId: promotionalOfferId, fields: [])
        }

        init(from decoder: any Decoder) throws {
            try ReceiptJSON.refuseUnknown(decoder, CodingKeys.self)
            let container = try decoder.container(keyedBy: CodingKeys.self)
            productId = try container.decodeIfPresent(String.self, forKey: .productId)
            transactionId = try container.decodeIfPresent(String.self, forKey: .transactionId)
            originalTransactionId = try container.decodeIfPresent(String.self, forKey: .originalTransactionId)
            promotionalOfferId = try container.decodeIfPresent(String.self, forKey: .promotionalOfferId)
            quantity = try container.decodeIfPresent(Int64.self, forKey: .quantity)
            webOrderLineItemId = try container.decodeIfPresent(Int64.self, forKey: .webOrderLineItemId)
            purchaseDate = try container.decodeIfPresent(Date.self, forKey: .purchaseDate)
            originalPurchaseDate = try container.decodeIfPresent(Date.self, forKey: .originalPurchaseDate)
            expiresDate = try container.decodeIfPresent(Date.self, forKey: .expiresDate)
            cancellationDate = try container.decodeIfPresent(Date.self, forKey: .cancellationDate)
            isTrialPeriod = try container.decodeIfPresent(Bool.self, forKey: .isTrialPeriod)
            isInIntroOfferPeriod = try container.decodeIfPresent(Bool.self, forKey: .isInIntroOfferPeriod)
        }

        enum CodingKeys: String, CodingKey, CaseIterable {
            case productId, transactionId, originalTransactionId, promotionalOfferId, quantity, webOrderLineItemId
            case purchaseDate, originalPurchaseDate, expiresDate, cancellationDate, isTrialPeriod, isInIntroOfferPeriod
        }
    }

    var receipt: AppReceipt

    init(from decoder: any Decoder) throws {
        try Self.refuseUnknown(decoder, CodingKeys.self)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        func base64(_ key: CodingKeys) throws -> Data? {
            guard let text = try container.decodeIfPresent(String.self, forKey: key) else { return nil }
            guard let data = Data(base64Encoded: text) else {
                throw DecodingError.dataCorruptedError(forKey: key, in: container, debugDescription: "not standard base64")
            }
            return data
        }
        receipt = AppReceipt(receiptType: try container.decodeIfPresent(String.self, forKey: .environment),
                             appItemId: try container.decodeIfPresent(Int64.self, forKey: .appItemId),
                             bundleId: try container.decodeIfPresent(String.self, forKey: .bundleId),
                             applicationVersion: try container.decodeIfPresent(String.self, forKey: .applicationVersion),
                             opaqueValue: try base64(.opaqueValue), sha1Hash: try base64(.sha1Hash),
                             receiptCreationDate: try container.decodeIfPresent(Date.self, forKey: .receiptCreationDate),
                             inApp: try container.decodeIfPresent([Purchase].self, forKey: .inApp)?.map(\.purchase) ?? [],
                             originalPurchaseDate: try container.decodeIfPresent(Date.self, forKey: .originalPurchaseDate),
                             originalApplicationVersion: try container.decodeIfPresent(String.self, forKey: .originalApplicationVersion),
                             expirationDate: try container.decodeIfPresent(Date.self, forKey: .expirationDate))
    }

    enum CodingKeys: String, CodingKey, CaseIterable {
        case environment, appItemId, bundleId, applicationVersion, opaqueValue, sha1Hash, receiptCreationDate, inApp
        case originalPurchaseDate, originalApplicationVersion, expirationDate
    }

    struct AnyKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    /// Refuses members this shape does not know (a typo would otherwise silently drop a field).
    static func refuseUnknown<Keys: CodingKey & CaseIterable>(_ decoder: any Decoder, _ keys: Keys.Type) throws {
        let container = try decoder.container(keyedBy: AnyKey.self)
        let known = Set(Keys.allCases.map(\.stringValue))
        if let unknown = container.allKeys.first(where: { !known.contains($0.stringValue) }) {
            throw DecodingError.dataCorrupted(DecodingError.Context(codingPath: container.codingPath + [unknown],
                                                                    debugDescription: "unknown member; known: \(known.sorted().joined(separator: ", "))"))
        }
    }

    /// A decoding error as one sentence naming the member.
    static func explain(_ error: any Error) -> String {
        guard let error = error as? DecodingError else { return "\(error)" }
        func path(_ context: DecodingError.Context) -> String {
            context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
        }
        switch error {
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context):
            return "\(path(context).isEmpty ? "the receipt" : path(context)): \(context.debugDescription)"
        case .keyNotFound(let key, let context):
            return "\(path(context)).\(key.stringValue) is missing"
        @unknown default:
            return "\(error)"
        }
    }
}
