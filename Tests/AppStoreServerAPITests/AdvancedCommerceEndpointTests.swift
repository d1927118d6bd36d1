#if ServerAPIClient
import AppStoreServerAPI
import AppStoreVerification
import Foundation
import Testing

/// The Advanced Commerce API endpoints, over HTTP against the fake App Store, and the JSON of
/// their request and response models.
@Suite(.timeLimit(.minutes(1)))
struct AdvancedCommerceEndpointTests {
    static let reference = UUID(uuidString: "550E8400-E29B-41D4-A716-446655440003") ?? UUID()
    static let info = AdvancedCommerceRequestInfo(requestReferenceId: reference)

    /// One endpoint: its path, a valid request sent through the client, and members its body must carry.
    struct Endpoint: Sendable, CustomTestStringConvertible {
        let path: String
        let call: @Sendable (AppStoreServerAPIClient, String) async throws -> AdvancedCommerceVerifiedResponse
        let expectedMembers: Set<String>
        var testDescription: String { path }
    }

    static let endpoints: [Endpoint] = [
        Endpoint(path: "subscription/cancel", call: { client, id in
            try await client.cancelSubscription(transactionId: id, request: AdvancedCommerceSubscriptionCancelRequest(requestInfo: info, storefront: "USA"))
        }, expectedMembers: ["requestInfo", "storefront"]),
        Endpoint(path: "subscription/revoke", call: { client, id in
            try await client.revokeSubscription(transactionId: id, request: AdvancedCommerceSubscriptionRevokeRequest(
                requestInfo: info, refundReason: .legal, refundType: .prorated, refundRiskingPreference: true))
        }, expectedMembers: ["requestInfo", "refundReason", "refundType", "refundRiskingPreference"]),
        Endpoint(path: "transaction/requestRefund", call: { client, id in
            try await client.requestTransactionRefund(transactionId: id, request: AdvancedCommerceRequestRefundRequest(
                requestInfo: info, items: [AdvancedCommerceRequestRefundItem(SKU: "sku.1", refundReason: .other, refundType: .custom, revoke: false,
                                                                           refundAmount: 1_500)],
                refundRiskingPreference: false, currency: "USD"))
        }, expectedMembers: ["requestInfo", "items", "refundRiskingPreference", "currency"]),
        Endpoint(path: "subscription/changeMetadata", call: { client, id in
            try await client.changeSubscriptionMetadata(transactionId: id, request: AdvancedCommerceSubscriptionChangeMetadataRequest(
                requestInfo: info, descriptors: AdvancedCommerceSubscriptionChangeMetadataDescriptors(effective: .nextBillCycle, displayName: "Pro"),
                items: [AdvancedCommerceSubscriptionChangeMetadataItem(currentSKU: "sku.1", effective: .immediately, SKU: "sku.2")]))
        }, expectedMembers: ["requestInfo", "descriptors", "items"]),
        Endpoint(path: "subscription/migrate", call: { client, id in
            try await client.migrateSubscriptionToAdvancedCommerceAPI(transactionId: id, request: AdvancedCommerceSubscriptionMigrateRequest(
                requestInfo: info, descriptors: AdvancedCommerceSubscriptionMigrateDescriptors(description: "All news", displayName: "News"),
                items: [AdvancedCommerceSubscriptionMigrateItem(SKU: "news", description: "Every article", displayName: "News")],
                targetProductId: "com.example.generic", taxCode: "C003-00-2"))
        }, expectedMembers: ["requestInfo", "descriptors", "items", "targetProductId", "taxCode"]),
        Endpoint(path: "subscription/changePrice", call: { client, id in
            try await client.changeSubscriptionPrice(transactionId: id, request: AdvancedCommerceSubscriptionPriceChangeRequest(
                requestInfo: info, items: [AdvancedCommerceSubscriptionPriceChangeItem(SKU: "news", price: 5_990, dependentSKUs: ["sports"])],
                currency: "EUR", storefront: "FRA"))
        }, expectedMembers: ["requestInfo", "items", "currency", "storefront"]),
    ]

    @Test(arguments: endpoints)
    func endpointSendsItsBodyAndVerifiesTheAnswer(_ endpoint: Endpoint) async throws {
        try await Harness.with { harness in
            let transaction = try harness.transaction("ac1", originalTransactionId: "ac0", type: .autoRenewableSubscription,
                                                      expiresDate: Date(timeIntervalSinceNow: 86_400), groupId: "g1")
            let renewal = try harness.minter.renewalInfo(RenewalInfo(originalTransactionId: "ac0", productId: "com.example.pro"))
            harness.extra.update { $0.advancedCommerce.signedData["ac1"] = (transaction, renewal) }
            let client = try harness.client()
            let response = try await endpoint.call(client, "ac1")
            let sent = try #require(harness.fake.requests.last)
            #expect("\(sent.method) \(sent.path)" == "POST /advancedCommerce/v1/\(endpoint.path)/ac1")
            #expect(sent.contentType == "application/json")
            let body = try #require(harness.extra.read { $0.advancedCommerce.bodies["\(endpoint.path)/ac1"] })
            #expect(Set(body.keys) == endpoint.expectedMembers)
            #expect((body["requestInfo"] as? [String: String]) == ["requestReferenceId": "550e8400-e29b-41d4-a716-446655440003"])
            #expect(response.transaction.isVerified)
            #expect(response.transaction.jwsRepresentation == transaction)
            #expect(response.transaction.unsafePayloadValue.transactionId == "ac1")
            #expect(response.renewalInfo?.isVerified == true)
            #expect(response.renewalInfo?.unsafePayloadValue.originalTransactionId == "ac0")

            // Data that fails verification comes back unverified, not thrown.
            harness.extra.update { $0.advancedCommerce.signedData["ac2"] = (try? Harness.tampered(transaction)) .map { ($0, renewal) } }
            let tampered = try await endpoint.call(client, "ac2")
            #expect(!tampered.transaction.isVerified)
            #expect(tampered.renewalInfo?.isVerified == true)

            // An unknown transaction is Apple's error; an empty one is never sent.
            let unknown = await apiError { _ = try await endpoint.call(client, "nope") }
            #expect(unknown?.apiError == .transactionIdNotFound)
            let count = harness.fake.requests.count
            let empty = await apiError { _ = try await endpoint.call(client, "") }
            #expect(empty?.code == .invalidRequest)
            #expect(harness.fake.requests.count == count)
        }
    }

    @Test func bodiesAreApplesJSON() async throws {
        try await Harness.with { harness in
            let transaction = try harness.transaction("r1")
            harness.extra.update { $0.advancedCommerce.signedData["r1"] = (transaction, nil) }
            let client = try harness.client()
            let token = try #require(UUID(uuidString: "660E8400-E29B-41D4-A716-446655440011"))
            let response = try await client.requestTransactionRefund(transactionId: "r1", request: AdvancedCommerceRequestRefundRequest(
                requestInfo: AdvancedCommerceRequestInfo(requestReferenceId: Self.reference, appAccountToken: token, consistencyToken: "ct"),
                items: [AdvancedCommerceRequestRefundItem(SKU: "sku", refundReason: .legal, refundType: .full, revoke: true),
                        AdvancedCommerceRequestRefundItem(SKU: "sku", refundReason: .other, refundType: .prorated, revoke: false)],
                refundRiskingPreference: true, currency: "USD", storefront: "USA"))
            // A one-time charge's refund has no renewal info.
            #expect(response.renewalInfo == nil)
            #expect(response.transaction.isVerified)
            let sent = try #require(harness.fake.requests.last?.body)
            try expectSameJSON(sent, """
                {"items":[{"SKU":"sku","refundReason":"LEGAL","refundType":"FULL","revoke":true},
                          {"SKU":"sku","refundReason":"OTHER","refundType":"PRORATED","revoke":false}],
                 "refundRiskingPreference":true,
                 "requestInfo":{"requestReferenceId":"550e8400-e29b-41d4-a716-446655440003",
                                "appAccountToken":"660e8400-e29b-41d4-a716-446655440011","consistencyToken":"ct"},
                 "currency":"USD","storefront":"USA"}
                """)
        }
    }

    @Test func aResponseWithoutItsSignedRenewalInfoIsMalformed() async throws {
        try await Harness.with { harness in
            let transaction = try harness.transaction("m1")
            harness.extra.update { $0.advancedCommerce.signedData["m1"] = (transaction, nil) }
            let client = try harness.client()
            let error = await apiError {
                _ = try await client.cancelSubscription(transactionId: "m1", request: AdvancedCommerceSubscriptionCancelRequest(requestInfo: Self.info))
            }
            #expect(error?.code == .malformedResponse)
            harness.extra.update { $0.advancedCommerce.signedData["m2"] = ("not a JWS", nil) }
            let notJWS = await apiError {
                _ = try await client.requestTransactionRefund(transactionId: "m2", request: AdvancedCommerceRequestRefundRequest(
                    requestInfo: Self.info, items: [AdvancedCommerceRequestRefundItem(SKU: "s", refundReason: .legal, refundType: .full, revoke: true)],
                    refundRiskingPreference: false))
            }
            #expect(notJWS?.code == .malformedResponse)
        }
    }

    @Test func aRequestThatBreaksApplesRulesIsNotSent() async throws {
        try await Harness.with { harness in
            let client = try harness.client()
            let longSKU = String(repeating: "s", count: 129)
            let calls: [(String, @Sendable () async throws -> Void)] = [
                ("storefront", { _ = try await client.cancelSubscription(transactionId: "1", request: AdvancedCommerceSubscriptionCancelRequest(requestInfo: Self.info, storefront: "us")) }),
                ("storefront", { _ = try await client.revokeSubscription(transactionId: "1", request: AdvancedCommerceSubscriptionRevokeRequest(
                    requestInfo: Self.info, refundReason: .legal, refundType: .full, refundRiskingPreference: false, storefront: "FRANCE")) }),
                ("items", { _ = try await client.requestTransactionRefund(transactionId: "1", request: AdvancedCommerceRequestRefundRequest(
                    requestInfo: Self.info, items: [], refundRiskingPreference: false)) }),
                ("items[0].displayName", { _ = try await client.changeSubscriptionMetadata(transactionId: "1", request: AdvancedCommerceSubscriptionChangeMetadataRequest(
                    requestInfo: Self.info, items: [AdvancedCommerceSubscriptionChangeMetadataItem(currentSKU: "a", effective: .immediately,
                                                                                                   displayName: String(repeating: "n", count: 31))])) }),
                ("renewalItems", { _ = try await client.migrateSubscriptionToAdvancedCommerceAPI(transactionId: "1", request: AdvancedCommerceSubscriptionMigrateRequest(
                    requestInfo: Self.info, descriptors: AdvancedCommerceSubscriptionMigrateDescriptors(description: "d", displayName: "n"),
                    items: [AdvancedCommerceSubscriptionMigrateItem(SKU: "s", description: "d", displayName: "n")], targetProductId: "p",
                    taxCode: "t", renewalItems: [])) }),
                ("items[0].dependentSKUs[1]", { _ = try await client.changeSubscriptionPrice(transactionId: "1", request: AdvancedCommerceSubscriptionPriceChangeRequest(
                    requestInfo: Self.info, items: [AdvancedCommerceSubscriptionPriceChangeItem(SKU: "s", price: 1, dependentSKUs: ["ok", longSKU])])) }),
            ]
            for (field, call) in calls {
                let error = await apiError(call)
                #expect(error?.code == .invalidRequest, "\(field)")
                #expect(error?.message.contains(field) == true, "\(String(describing: error?.message))")
            }
            #expect(harness.fake.requests.isEmpty)
        }
    }

    // MARK: - Models

    /// Apple's JSON for each server request and response (the resources of Apple's own tests,
    /// `Tests/AppStoreServerLibraryTests/resources/models/`): decoding it and encoding the model
    /// gives the same JSON back.
    @Test func modelsRoundTripApplesJSON() throws {
        try roundTrip(AdvancedCommerceSubscriptionCancelRequest.self, #"""
            {"requestInfo":{"requestReferenceId":"550e8400-e29b-41d4-a716-446655440003"},"storefront":"USA"}
            """#)
        try roundTrip(AdvancedCommerceSubscriptionRevokeRequest.self, #"""
            {"requestInfo":{"requestReferenceId":"550e8400-e29b-41d4-a716-446655440004"},"refundRiskingPreference":true,
             "refundReason":"LEGAL","refundType":"FULL","storefront":"USA"}
            """#)
        try roundTrip(AdvancedCommerceRequestRefundItem.self, #"""
            {"SKU":"sku","refundReason":"LEGAL","refundType":"FULL","revoke":true,"refundAmount":5000}
            """#)
        try roundTrip(AdvancedCommerceRequestRefundRequest.self, #"""
            {"items":[{"SKU":"sku","refundReason":"LEGAL","refundType":"FULL","revoke":true},
                      {"SKU":"sku","refundReason":"OTHER","refundType":"PRORATED","revoke":false}],
             "refundRiskingPreference":true,"requestInfo":{"requestReferenceId":"550e8400-e29b-41d4-a716-446655440002"},
             "currency":"USD","storefront":"USA"}
            """#)
        try roundTrip(AdvancedCommerceSubscriptionChangeMetadataDescriptors.self, #"""
            {"effective":"IMMEDIATELY","description":"description","displayName":"displayName"}
            """#)
        try roundTrip(AdvancedCommerceSubscriptionChangeMetadataItem.self, #"""
            {"currentSKU":"currentSku","effective":"NEXT_BILL_CYCLE","description":"description","displayName":"displayName","SKU":"sku"}
            """#)
        try roundTrip(AdvancedCommerceSubscriptionChangeMetadataRequest.self, #"""
            {"requestInfo":{"requestReferenceId":"550e8400-e29b-41d4-a716-446655440009"},
             "items":[{"currentSKU":"currentSKU","effective":"IMMEDIATELY","description":"description","displayName":"display name","SKU":"sku"}]}
            """#)
        try roundTrip(AdvancedCommerceSubscriptionMigrateDescriptors.self, #"{"description":"description","displayName":"displayName"}"#)
        try roundTrip(AdvancedCommerceSubscriptionMigrateItem.self, #"{"SKU":"sku","description":"description","displayName":"displayName"}"#)
        try roundTrip(AdvancedCommerceSubscriptionMigrateRenewalItem.self, #"{"SKU":"sku","description":"description","displayName":"displayName"}"#)
        try roundTrip(AdvancedCommerceSubscriptionMigrateRequest.self, #"""
            {"requestInfo":{"requestReferenceId":"550e8400-e29b-41d4-a716-446655440006"},
             "descriptors":{"description":"description","displayName":"display name"},
             "items":[{"SKU":"sku","description":"description","displayName":"display name"}],
             "targetProductId":"targetProductId","taxCode":"taxCode"}
            """#)
        try roundTrip(AdvancedCommerceSubscriptionPriceChangeItem.self, #"{"SKU":"sku","price":16000,"dependentSKUs":["dependentSKU"]}"#)
        try roundTrip(AdvancedCommerceSubscriptionPriceChangeRequest.self, #"""
            {"requestInfo":{"requestReferenceId":"550e8400-e29b-41d4-a716-446655440005"},"items":[{"SKU":"sku123","price":15000}],"currency":"USD"}
            """#)
        try roundTrip(AdvancedCommerceSubscriptionCancelResponse.self, #"{"signedRenewalInfo":"signed_renewal_info","signedTransactionInfo":"signed_transaction_info"}"#)
        try roundTrip(AdvancedCommerceSubscriptionRevokeResponse.self, #"{"signedRenewalInfo":"signed_renewal_info","signedTransactionInfo":"signed_transaction_info"}"#)
        try roundTrip(AdvancedCommerceSubscriptionChangeMetadataResponse.self, #"{"signedRenewalInfo":"signed_renewal_info","signedTransactionInfo":"signed_transaction_info"}"#)
        try roundTrip(AdvancedCommerceSubscriptionMigrateResponse.self, #"{"signedRenewalInfo":"signed_renewal_info_value","signedTransactionInfo":"signed_transaction_info_value"}"#)
        try roundTrip(AdvancedCommerceSubscriptionPriceChangeResponse.self, #"{"signedRenewalInfo":"signed_renewal_info","signedTransactionInfo":"signed_transaction_info"}"#)
        try roundTrip(AdvancedCommerceRequestRefundResponse.self, #"{"signedTransactionInfo":"signed_transaction_info_value"}"#)

        let response = try AppStoreJSON.decode(AdvancedCommerceRequestRefundResponse.self, from: Data(#"{"signedTransactionInfo":"t"}"#.utf8))
        #expect(response == AdvancedCommerceRequestRefundResponse(signedTransactionInfo: "t"))
        #expect(throws: DecodingError.self) {
            try AppStoreJSON.decode(AdvancedCommerceSubscriptionCancelResponse.self, from: Data(#"{"signedTransactionInfo":"t"}"#.utf8))
        }
    }

    @Test func unknownEnumerationValuesSurvive() throws {
        let json = #"""
            {"requestInfo":{"requestReferenceId":"550e8400-e29b-41d4-a716-446655440004"},"refundRiskingPreference":false,
             "refundReason":"SOME_NEW_REASON","refundType":"PARTIAL_NEW"}
            """#
        let request = try roundTrip(AdvancedCommerceSubscriptionRevokeRequest.self, json)
        #expect(request.refundReason.rawValue == "SOME_NEW_REASON")
        #expect(!request.refundReason.isDocumented)
        #expect(request.refundType == AdvancedCommerceRefundType(rawValue: "PARTIAL_NEW"))
        let item = try roundTrip(AdvancedCommerceSubscriptionChangeMetadataItem.self, #"{"currentSKU":"a","effective":"AT_MIDNIGHT"}"#)
        #expect(item.effective.rawValue == "AT_MIDNIGHT")
    }

    @Test func validationRules() throws {
        let ok = AdvancedCommerceSubscriptionMigrateRequest(
            requestInfo: Self.info, descriptors: AdvancedCommerceSubscriptionMigrateDescriptors(description: String(repeating: "d", count: 45),
                                                                                                displayName: String(repeating: "n", count: 30)),
            items: [AdvancedCommerceSubscriptionMigrateItem(SKU: String(repeating: "s", count: 128), description: "d", displayName: "n")],
            targetProductId: "p", taxCode: "t", renewalItems: [AdvancedCommerceSubscriptionMigrateRenewalItem(SKU: "s", description: "d", displayName: "n")],
            storefront: "USA")
        try ok.validate()
        func failure(_ change: (inout AdvancedCommerceSubscriptionMigrateRequest) -> Void) -> AdvancedCommerceValidationError? {
            var request = ok
            change(&request)
            do { try request.validate(); return nil } catch { return error }
        }
        #expect(failure { $0.descriptors.description = String(repeating: "d", count: 46) }.map { [$0.code.rawValue, $0.field] } == ["tooLong", "descriptors.description"])
        #expect(failure { $0.descriptors.displayName = String(repeating: "n", count: 31) }?.field == "descriptors.displayName")
        #expect(failure { $0.items[0].SKU = String(repeating: "s", count: 129) }?.field == "items[0].SKU")
        #expect(failure { $0.items = [] }?.code == .emptyList)
        #expect(failure { $0.renewalItems?[0].displayName = String(repeating: "n", count: 31) }?.field == "renewalItems[0].displayName")
        #expect(failure { $0.storefront = "usa" }?.code == .invalidFormat)
        #expect(failure { $0.renewalItems = nil; $0.storefront = nil } == nil)

        let refund = AdvancedCommerceRequestRefundRequest(requestInfo: Self.info, items: [
            AdvancedCommerceRequestRefundItem(SKU: "s", refundReason: .legal, refundType: .custom, revoke: false, refundAmount: -1),
        ], refundRiskingPreference: false)
        #expect(throws: AdvancedCommerceValidationError(.outOfRange, field: "items[0].refundAmount",
                                                        "items[0].refundAmount is -1; give an amount in milliunits of the currency, 0 or more")) {
            try refund.validate()
        }
        var badCurrency = refund
        badCurrency.items[0].refundAmount = 0
        badCurrency.currency = "US$"
        #expect(throws: AdvancedCommerceValidationError.self) { try badCurrency.validate() }
        let price = AdvancedCommerceSubscriptionPriceChangeRequest(requestInfo: Self.info, items: [AdvancedCommerceSubscriptionPriceChangeItem(SKU: "s", price: -5)])
        #expect((try? price.validate()) == nil)
        let metadata = AdvancedCommerceSubscriptionChangeMetadataRequest(requestInfo: Self.info, descriptors: AdvancedCommerceSubscriptionChangeMetadataDescriptors(
            effective: .immediately, description: String(repeating: "d", count: 46)))
        #expect(throws: AdvancedCommerceValidationError.self) { try metadata.validate() }
    }

    // MARK: - Helpers

    /// Decodes `json` as `Model` and checks that encoding it gives the same JSON.
    @discardableResult
    func roundTrip<Model: Codable & Equatable>(_ type: Model.Type, _ json: String) throws -> Model {
        let model = try AppStoreJSON.decode(type, from: Data(json.utf8))
        let encoded = try AppStoreJSON.encode(model)
        try expectSameJSON(encoded, json)
        #expect(try AppStoreJSON.decode(type, from: encoded) == model)
        return model
    }

    /// Expects `data` and `json` to be the same JSON value (member order and white space aside).
    func expectSameJSON(_ data: Data, _ json: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let actual = try JSONSerialization.jsonObject(with: data) as? NSDictionary
        let expected = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? NSDictionary
        #expect(actual != nil && actual == expected, "\(String(decoding: data, as: UTF8.self))", sourceLocation: sourceLocation)
    }
}
#endif
