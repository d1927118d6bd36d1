import AppStoreVerification
import Foundation
import Testing

/// The models encode to Apple's JSON (member names, milliseconds, raw values) and decode back
/// unchanged.
@Suite struct ModelRoundTripTests {
    static let date = Date(timeIntervalSince1970: 1_772_366_400.123)

    /// `value` encoded with AppStoreJSON.makeEncoder and decoded strictly; `AppStoreJSON.encode`
    /// (the minter's faster encoder) must write the same bytes.
    static func roundTrip<Model: Codable>(_ value: Model) throws -> (Model, [String: Any]) {
        let json = try AppStoreJSON.makeEncoder().encode(value)
        let fast = try AppStoreJSON.encode(value)
        #expect(fast == json, "\(Model.self): AppStoreJSON.encode wrote \(String(decoding: fast, as: UTF8.self)), JSONEncoder \(String(decoding: json, as: UTF8.self))")
        let object = try #require(try JSONSerialization.jsonObject(with: json) as? [String: Any])
        return (try AppStoreJSON.decode(Model.self, from: json), object)
    }

    @Test func transactionEncodesAsAppleDocumentsIt() throws {
        let transaction = Transaction(transactionId: "1", productId: "com.example.pro", purchaseDate: Self.date, expiresDate: Self.date.addingTimeInterval(30),
                                      type: ProductType(rawValue: "A Future Type"), signedDate: Self.date, price: 9990,
                                      advancedCommerceInfo: AdvancedCommerceTransactionInfo(
                                        descriptors: AdvancedCommerceDescriptors(description: "d", displayName: "n"), estimatedTax: 1,
                                        items: [AdvancedCommerceTransactionItem(SKU: "sku", offer: AdvancedCommerceOffer(periodCount: 1, price: 2, period: .oneMonth, reason: .winBack),
                                                                                refunds: [AdvancedCommerceRefund(refundAmount: 1, refundDate: Self.date, refundReason: .legal, refundType: .full)])],
                                        period: .oneYear),
                                      commitmentInfo: TransactionCommitmentInfo(billingPeriodNumber: 1, commitmentExpiresDate: Self.date, commitmentPrice: 3, totalBillingPeriods: 12))
        let (decoded, object) = try Self.roundTrip(transaction)
        #expect(decoded == transaction)
        #expect(object["transactionId"] as? String == "1")
        #expect(object["originalTransactionId"] as? String == "1")
        #expect(object["purchaseDate"] as? Int64 == 1_772_366_400_123)
        #expect(object["type"] as? String == "A Future Type")
        #expect(object["environment"] as? String == "Sandbox")
        #expect(object["inAppOwnershipType"] as? String == "PURCHASED")
        #expect(object["jws"] == nil)
        let info = try #require(object["advancedCommerceInfo"] as? [String: Any])
        let item = try #require((info["items"] as? [[String: Any]])?.first)
        #expect(item["SKU"] as? String == "sku")
    }

    @Test func everyBuiltModelRoundTrips() throws {
        let renewal = RenewalInfo(originalTransactionId: "1", productId: "p", priceIncreaseStatus: PriceIncreaseStatus(rawValue: 7), eligibleWinBackOfferIds: ["a"],
                                  advancedCommerceInfo: AdvancedCommerceRenewalInfo(items: [AdvancedCommerceRenewalItem(SKU: "s", priceIncreaseInfo: AdvancedCommercePriceIncreaseInfo(dependentSKUs: ["x"], price: 1, status: .scheduled))]),
                                  commitmentInfo: RenewalCommitmentInfo(commitmentAutoRenewStatus: .on, commitmentRenewalDate: Self.date))
        #expect(try Self.roundTrip(renewal).0 == renewal)
        let app = AppTransaction(appAppleId: 42, receiptCreationDate: Self.date, originalPlatform: PurchasePlatform(rawValue: "watchOS"))
        #expect(try Self.roundTrip(app).0 == app)
        let request = DecodedRealtimeRequestBody(originalTransactionId: "1", productId: "p", signedDate: Self.date)
        #expect(try Self.roundTrip(request).0 == request)
        for notification in [
            ResponseBodyV2DecodedPayload(notificationType: .subscribed, subtype: .initialBuy, data: NotificationData(signedTransactionInfo: "a.b.c", status: .active, consumptionRequestReason: ConsumptionRequestReason(rawValue: "X"))),
            ResponseBodyV2DecodedPayload(notificationType: .renewalExtension, subtype: .summary, summary: NotificationSummary(storefrontCountryCodes: ["USA"], succeededCount: 1)),
            ResponseBodyV2DecodedPayload(notificationType: .externalPurchaseToken, externalPurchaseToken: ExternalPurchaseToken(tokenCreationDate: Self.date)),
            ResponseBodyV2DecodedPayload(notificationType: .rescindConsent, appData: AppData(signedAppTransactionInfo: "a.b.c")),
        ] {
            #expect(try Self.roundTrip(notification).0 == notification)
        }
    }

    /// Apple's documented JSON shapes (App Store Server Library test resources), when present.
    static let appleModels = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("shared/vectors/apple/models")

    @Test(arguments: ["appData", "appTransaction", "decodedRealtimeRequest", "signedConsumptionRequestNotification", "signedExternalPurchaseTokenNotification",
                      "signedExternalPurchaseTokenSandboxNotification", "signedNotification", "signedRenewalInfo", "signedRescindConsentNotification",
                      "signedSummaryNotification", "signedTransaction", "signedTransactionWithRevocation"])
    func appleJSONDecodesAndEncodesBackTheSame(_ name: String) throws {
        let url = Self.appleModels.appendingPathComponent(name + ".json")
        guard let json = try? Data(contentsOf: url) else {
            print("skipped: \(url.path) is absent (../shared is not checked out)")
            return
        }
        switch name {
        case "appData": try Self.check(AppData.self, json)
        case "appTransaction": try Self.check(AppTransaction.self, json)
        case "decodedRealtimeRequest": try Self.check(DecodedRealtimeRequestBody.self, json)
        case "signedRenewalInfo": try Self.check(RenewalInfo.self, json)
        case "signedTransaction", "signedTransactionWithRevocation": try Self.check(Transaction.self, json)
        default: try Self.check(ResponseBodyV2DecodedPayload.self, json)
        }
    }

    /// Decoding then encoding gives back the same JSON object, and decoding that the same value.
    static func check<Model: Codable & Equatable>(_ type: Model.Type, _ json: Data) throws {
        let model = try AppStoreJSON.decode(Model.self, from: json)
        let (again, encoded) = try roundTrip(model)
        #expect(again == model)
        let original = try #require(try JSONSerialization.jsonObject(with: json) as? NSDictionary)
        #expect(NSDictionary(dictionary: encoded).isEqual(original), "\(Model.self): \(encoded) != \(original)")
    }

    /// Values at the edges of JSON: escapes, non-ASCII, numbers, dates with and without fractions,
    /// nested and empty containers, nil members: `AppStoreJSON.encode` writes what JSONEncoder writes.
    @Test func theFastEncoderWritesWhatJSONEncoderWrites() throws {
        struct Edge: Encodable {
            let text: String
            let number: Double
            let integer: Int64
            let flag: Bool
            let date: Date
            let missing: String?
            let list: [Double]
            let nested: [String: [Int]]
            let data: Data
            let uuid: UUID
        }
        let texts = ["", "plain", "quote \" back \\ slash / tab \t nl \n cr \r bs \u{08} ff \u{0C} nul \u{0} us \u{1F} del \u{7F}",
                     "é 漢字 🙂 \u{2028} \u{202E}", "{\"json\":[1]}"]
        let numbers: [Double] = [0, -0.0, 1, -1, 0.5, 1.5, 9.99, 1e-7, 1e21, 1e22, 123456789012345680, .greatestFiniteMagnitude, .leastNonzeroMagnitude, 0.1 + 0.2, 1697679936049.7297]
        let dates = [Date(timeIntervalSince1970: 0), Date(timeIntervalSince1970: 1_772_366_400.123), Date(timeIntervalSince1970: 1_697_679_936.0497297),
                     Date(timeIntervalSince1970: -1.5), Date(timeIntervalSince1970: 1e13), Date(timeIntervalSince1970: 9.5e12)]
        for (index, text) in texts.enumerated() {
            for (offset, number) in numbers.enumerated() {
                let edge = Edge(text: text, number: number, integer: index % 2 == 0 ? Int64.max : Int64.min + Int64(offset), flag: offset % 2 == 0,
                                date: dates[(index + offset) % dates.count], missing: offset % 3 == 0 ? nil : text,
                                list: offset % 4 == 0 ? [] : [number, -number], nested: offset % 5 == 0 ? [:] : ["b": [1], "a": [], "B": [2, 3], "é": [4], "": []],
                                data: Data(text.utf8), uuid: UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F") ?? UUID())
                let expected = try AppStoreJSON.makeEncoder().encode(edge)
                let written = try AppStoreJSON.encode(edge)
                #expect(written == expected, "\(String(decoding: written, as: UTF8.self)) != \(String(decoding: expected, as: UTF8.self))")
            }
        }
        for bad in [Double.nan, .infinity, -.infinity] {
            #expect(throws: EncodingError.self) { try AppStoreJSON.encode(Edge(text: "", number: bad, integer: 0, flag: true, date: Date(), missing: nil, list: [], nested: [:], data: Data(), uuid: UUID())) }
        }
        // Every special byte at every offset of a long string (the writer scans eight bytes at a time).
        for special in ["\"", "\\", "\n", "\u{1}", "\u{1F}", "é", "/"] {
            for offset in 0..<20 {
                let text = String(repeating: "x", count: offset) + special + String(repeating: "y", count: 19 - offset) + special
                #expect(try AppStoreJSON.encode([text]) == AppStoreJSON.makeEncoder().encode([text]), "\(offset) \(special.unicodeScalars.map(\.value))")
            }
        }
        // Hand-written conformances: nested containers, super encoders, keys written twice.
        struct Handwritten: Encodable {
            enum Key: String, CodingKey { case a, b, c, d }
            func encode(to encoder: any Encoder) throws {
                var container = encoder.container(keyedBy: Key.self)
                try container.encode("first", forKey: .a)
                var nested = container.nestedContainer(keyedBy: Key.self, forKey: .b)
                try nested.encode(Date(timeIntervalSince1970: 1.5), forKey: .c)
                var list = container.nestedUnkeyedContainer(forKey: .c)
                try list.encode(1)
                var inner = list.nestedContainer(keyedBy: Key.self)
                try inner.encodeNil(forKey: .d)
                try list.encode(Optional<String>.none)
                var superValue = container.superEncoder().singleValueContainer()
                try superValue.encode("super")
                var keyed = container.superEncoder(forKey: .d).container(keyedBy: Key.self)
                try keyed.encode(true, forKey: .a)
                try container.encode("second", forKey: .a)
            }
        }
        let handwritten = try AppStoreJSON.encode(Handwritten())
        let expectedHandwritten = try AppStoreJSON.makeEncoder().encode(Handwritten())
        #expect(handwritten == expectedHandwritten, "\(String(decoding: handwritten, as: UTF8.self)) != \(String(decoding: expectedHandwritten, as: UTF8.self))")
        #expect(try AppStoreJSON.encode([1, 2]) == AppStoreJSON.makeEncoder().encode([1, 2]))
        #expect(try AppStoreJSON.encode("top") == AppStoreJSON.makeEncoder().encode("top"))
    }
}
