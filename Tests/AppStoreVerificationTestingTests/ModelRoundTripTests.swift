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
        // Every special byte at every offset of a long string (the writer scans 32, then 8 bytes at a time).
        for special in ["\"", "\\", "\n", "\u{1}", "\u{1F}", "é", "/"] {
            for offset in 0..<70 {
                let text = String(repeating: "x", count: offset) + special + String(repeating: "y", count: 69 - offset) + special
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

    /// The stored members of `value` that are `nil` (the verifier's own fields aside).
    static func nilMembers(of value: Any) -> [String] {
        let verifierFields: Set = ["jws", "transactionInfo", "renewalInfo", "appTransactionInfo"]
        return Mirror(reflecting: value).children.compactMap { child in
            guard let label = child.label, !verifierFields.contains(label) else { return nil }
            let mirror = Mirror(reflecting: child.value)
            return mirror.displayStyle == .optional && mirror.children.isEmpty ? label : nil
        }
    }

    /// Transactions, renewal info and notification payloads are written member by member, not
    /// through `Encodable`: with every member present (so that a member added to a model and not
    /// to its writer fails here), with unknown raw values, escapes, non-ASCII text and dates with
    /// fractions of a millisecond, and with members absent, they are the bytes JSONEncoder writes.
    @Test func theHandWrittenModelsWriteWhatJSONEncoderWrites() throws {
        let text = "q\"b\\s/t\tn\nc\u{1}é😀"
        let fraction = Date(timeIntervalSince1970: 1_697_679_936.0497297)
        let transaction = Transaction(
            transactionId: "1\(text)", productId: "p\(text)", originalTransactionId: "0", webOrderLineItemId: "w", bundleId: "b",
            subscriptionGroupIdentifier: "g", purchaseDate: fraction, originalPurchaseDate: Self.date, expiresDate: Self.date, quantity: -3,
            type: ProductType(rawValue: "Future"), appAccountToken: UUID().uuidString, inAppOwnershipType: .familyShared, signedDate: Self.date,
            revocationReason: RevocationReason(rawValue: 99), revocationDate: Self.date, isUpgraded: false, offerType: OfferType(rawValue: 42),
            offerIdentifier: "o", environment: AppStoreEnvironment(rawValue: "Elsewhere"), storefront: "USA", storefrontId: "143441",
            transactionReason: .renewal, currency: "EUR", price: Int64.min, offerDiscountType: .freeTrial, appTransactionId: "a",
            offerPeriod: "P1M", revocationType: .refundProrated, revocationPercentage: Int32.max,
            advancedCommerceInfo: AdvancedCommerceTransactionInfo(
                descriptors: AdvancedCommerceDescriptors(description: "d", displayName: "n"), estimatedTax: 1,
                items: [AdvancedCommerceTransactionItem(SKU: "sku", offer: AdvancedCommerceOffer(periodCount: 1, price: 2, period: .oneMonth, reason: .winBack),
                                                        refunds: [AdvancedCommerceRefund(refundAmount: 1, refundDate: Self.date, refundReason: .legal, refundType: .full)])],
                period: .oneYear),
            billingPlanType: BillingPlanType(rawValue: "MONTHLY"),
            commitmentInfo: TransactionCommitmentInfo(billingPeriodNumber: 1, commitmentExpiresDate: Self.date, commitmentPrice: 3, totalBillingPeriods: 12),
            deviceVerification: "dv", deviceVerificationNonce: UUID().uuidString)
        let renewal = RenewalInfo(
            originalTransactionId: "1\(text)", productId: "p", expirationIntent: ExpirationIntent(rawValue: 77), autoRenewProductId: "q",
            autoRenewStatus: .off, isInBillingRetryPeriod: true, priceIncreaseStatus: PriceIncreaseStatus(rawValue: 7), gracePeriodExpiresDate: fraction,
            offerType: .winBackOffer, offerIdentifier: "o", signedDate: Self.date, environment: .production, recentSubscriptionStartDate: Self.date,
            renewalDate: Self.date, currency: "JPY", renewalPrice: 0, offerDiscountType: OfferDiscountType(rawValue: "NEW"),
            eligibleWinBackOfferIds: ["a", text, ""], appAccountToken: "t", appTransactionId: "a", offerPeriod: "P1Y",
            advancedCommerceInfo: AdvancedCommerceRenewalInfo(items: [AdvancedCommerceRenewalItem(SKU: "s", priceIncreaseInfo: AdvancedCommercePriceIncreaseInfo(dependentSKUs: ["x"], price: 1, status: .scheduled))]),
            commitmentInfo: RenewalCommitmentInfo(commitmentAutoRenewStatus: .on, commitmentRenewalDate: Self.date),
            renewalBillingPlanType: .init(rawValue: "YEARLY"), deviceVerification: "dv", deviceVerificationNonce: "n")
        let data = NotificationData(environment: .sandbox, appAppleId: 1_234_567_890, bundleId: text, bundleVersion: "1.2",
                                    signedTransactionInfo: "h.\(text).s", signedRenewalInfo: "r.r.r", status: Status(rawValue: 9),
                                    consumptionRequestReason: ConsumptionRequestReason(rawValue: "WHY"))
        let appData = AppData(appAppleId: -1, bundleId: "b", environment: .xcode, signedAppTransactionInfo: "a.a.a")
        let everything = ResponseBodyV2DecodedPayload(
            notificationType: NotificationTypeV2(rawValue: "NEW_KIND"), subtype: .summary, notificationUUID: text, data: data, version: "2.0",
            signedDate: fraction, summary: NotificationSummary(appAppleId: 1, productId: "p", requestIdentifier: "r", storefrontCountryCodes: ["USA", "FRA"], succeededCount: 5, failedCount: 0),
            externalPurchaseToken: ExternalPurchaseToken(tokenCreationDate: Self.date, appAppleId: 2), appData: appData)
        for (name, value) in [("Transaction", transaction as Any), ("RenewalInfo", renewal), ("NotificationData", data), ("AppData", appData), ("ResponseBodyV2DecodedPayload", everything)] {
            #expect(Self.nilMembers(of: value).isEmpty, "\(name) has members left nil: \(Self.nilMembers(of: value)); set them so that their writer is checked")
        }
        let sparse: [any Encodable] = [
            Transaction(transactionId: "1", productId: "p", quantity: nil, inAppOwnershipType: nil, signedDate: nil, storefront: nil, storefrontId: nil, transactionReason: nil),
            RenewalInfo(originalTransactionId: "1", productId: "p", autoRenewStatus: nil, isInBillingRetryPeriod: nil, signedDate: nil, environment: nil),
            NotificationData(environment: nil, bundleId: nil, bundleVersion: nil), AppData(),
            ResponseBodyV2DecodedPayload(notificationType: nil, notificationUUID: nil, version: nil, signedDate: nil),
            ResponseBodyV2DecodedPayload(notificationType: .test, data: NotificationData(), appData: AppData()),
        ]
        for value in [transaction, renewal, data, appData, everything] as [any Encodable] + sparse {
            let written = try AppStoreJSON.encode(value)
            let expected = try AppStoreJSON.makeEncoder().encode(value)
            #expect(written == expected, "\(type(of: value)): \(String(decoding: written, as: UTF8.self)) != \(String(decoding: expected, as: UTF8.self))")
        }
        // The initializers keep whole milliseconds; decoded dates keep their fractions.
        let fractional = try AppStoreJSON.decode(Transaction.self, from: Data(#"{"transactionId":"1","purchaseDate":1697679936049.7297,"signedDate":-1.5,"expiresDate":1e15}"#.utf8))
        #expect(try AppStoreJSON.encode(fractional) == AppStoreJSON.makeEncoder().encode(fractional))
        // A date JSON cannot hold is the same error as through Encodable.
        #expect(throws: EncodingError.self) { try AppStoreJSON.encode(Transaction(transactionId: "1", productId: "p", expiresDate: Date(timeIntervalSince1970: .infinity))) }
    }
}
