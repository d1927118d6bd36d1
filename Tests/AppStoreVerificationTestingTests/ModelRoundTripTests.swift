import AppStoreVerification
import Foundation
import Testing

/// The models encode to Apple's JSON (member names, milliseconds, raw values) and decode back
/// unchanged.
@Suite struct ModelRoundTripTests {
    static let date = Date(timeIntervalSince1970: 1_772_366_400.123)

    /// `value` encoded with AppStoreJSON.makeEncoder (as the minter encodes it) and decoded strictly.
    static func roundTrip<Model: Codable>(_ value: Model) throws -> (Model, [String: Any]) {
        let json = try AppStoreJSON.makeEncoder().encode(value)
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

    // Skipped (and reported as skipped, every case) without ../shared; with it, a missing file fails.
    @Test(.enabled(if: FileManager.default.fileExists(atPath: ModelRoundTripTests.appleModels.path),
                   "needs ../shared/vectors/apple/models beside the repository (Apple's documented JSON; not shipped)"),
          arguments: ["appData", "appTransaction", "decodedRealtimeRequest", "signedConsumptionRequestNotification", "signedExternalPurchaseTokenNotification",
                      "signedExternalPurchaseTokenSandboxNotification", "signedNotification", "signedRenewalInfo", "signedRescindConsentNotification",
                      "signedSummaryNotification", "signedTransaction", "signedTransactionWithRevocation"])
    func appleJSONDecodesAndEncodesBackTheSame(_ name: String) throws {
        let url = Self.appleModels.appendingPathComponent(name + ".json")
        let json = try Data(contentsOf: url)
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
}
