import AppStoreVerificationTestSupport
import Foundation
import Testing
import AppStoreVerification

/// The Advanced Commerce in-app request models: Apple's JSON, Apple's validation rules, and the
/// typed signature creator overload that checks them.
@Suite("Advanced Commerce in-app requests")
struct AdvancedCommerceInAppRequestTests {
    static let reference = UUID(uuidString: "550E8400-E29B-41D4-A716-446655440000") ?? UUID()
    static let info = AdvancedCommerceRequestInfo(requestReferenceId: reference)

    static let offer = AdvancedCommerceOffer(periodCount: 3, price: 5_000, period: .oneWeek, reason: .winBack)

    static let oneTimeCharge = AdvancedCommerceOneTimeChargeCreateRequest(
        currency: "USD", item: AdvancedCommerceOneTimeChargeItem(SKU: "sku", description: "description", displayName: "display name", price: 10_000),
        requestInfo: info, taxCode: "taxCode", storefront: "USA")

    static let subscription = AdvancedCommerceSubscriptionCreateRequest(
        currency: "USD", descriptors: AdvancedCommerceDescriptors(description: "description", displayName: "display name"),
        items: [AdvancedCommerceSubscriptionCreateItem(SKU: "sku", description: "description", displayName: "display name", price: 20_000),
                AdvancedCommerceSubscriptionCreateItem(SKU: "sku", description: "description", displayName: "display name", price: 30_000, offer: offer)],
        period: .oneMonth, requestInfo: info, taxCode: "taxCode", previousTransactionId: "transactionId", storefront: "USA")

    static let modify = AdvancedCommerceSubscriptionModifyInAppRequest(
        requestInfo: info, transactionId: "transactionId", retainBillingCycle: true,
        addItems: [AdvancedCommerceSubscriptionModifyAddItem(SKU: "sku", description: "description", displayName: "displayName", price: 12_000,
                                                             proratedPrice: 6_000)],
        changeItems: [AdvancedCommerceSubscriptionModifyChangeItem(currentSKU: "currentSku", SKU: "sku", description: "description",
                                                                   displayName: "displayName", effective: .immediately, price: 13_000, reason: .upgrade,
                                                                   offer: offer)],
        removeItems: [AdvancedCommerceSubscriptionModifyRemoveItem(SKU: "old")], currency: "USD",
        descriptors: AdvancedCommerceSubscriptionModifyDescriptors(effective: .immediately, description: "description", displayName: "display name"),
        periodChange: AdvancedCommerceSubscriptionModifyPeriodChange(effective: .nextBillCycle, period: .threeMonths), storefront: "USA",
        taxCode: "taxCode")

    static let reactivate = AdvancedCommerceSubscriptionReactivateInAppRequest(
        requestInfo: info, transactionId: "transactionId", items: [AdvancedCommerceSubscriptionReactivateItem(SKU: "sku")], storefront: "USA")

    // MARK: - JSON

    @Test("each request encodes Apple's member names, with its operation and version")
    func encodesApplesJSON() throws {
        try expectJSON(Self.oneTimeCharge, """
            {"currency":"USD","item":{"description":"description","displayName":"display name","SKU":"sku","price":10000},
             "operation":"CREATE_ONE_TIME_CHARGE","requestInfo":{"requestReferenceId":"550e8400-e29b-41d4-a716-446655440000"},
             "storefront":"USA","taxCode":"taxCode","version":"1"}
            """)
        try expectJSON(Self.subscription, """
            {"currency":"USD","descriptors":{"description":"description","displayName":"display name"},
             "items":[{"SKU":"sku","description":"description","displayName":"display name","price":20000},
                      {"SKU":"sku","description":"description","displayName":"display name","price":30000,
                       "offer":{"period":"P1W","periodCount":3,"price":5000,"reason":"WIN_BACK"}}],
             "operation":"CREATE_SUBSCRIPTION","period":"P1M","previousTransactionId":"transactionId",
             "requestInfo":{"requestReferenceId":"550e8400-e29b-41d4-a716-446655440000"},"storefront":"USA","taxCode":"taxCode","version":"1"}
            """)
        try expectJSON(Self.modify, """
            {"addItems":[{"SKU":"sku","description":"description","displayName":"displayName","price":12000,"proratedPrice":6000}],
             "changeItems":[{"currentSKU":"currentSku","SKU":"sku","description":"description","displayName":"displayName","effective":"IMMEDIATELY",
                             "price":13000,"reason":"UPGRADE","offer":{"period":"P1W","periodCount":3,"price":5000,"reason":"WIN_BACK"}}],
             "currency":"USD","descriptors":{"effective":"IMMEDIATELY","description":"description","displayName":"display name"},
             "operation":"MODIFY_SUBSCRIPTION","periodChange":{"effective":"NEXT_BILL_CYCLE","period":"P3M"},"removeItems":[{"SKU":"old"}],
             "requestInfo":{"requestReferenceId":"550e8400-e29b-41d4-a716-446655440000"},"retainBillingCycle":true,"storefront":"USA",
             "taxCode":"taxCode","transactionId":"transactionId","version":"1"}
            """)
        try expectJSON(Self.reactivate, """
            {"items":[{"SKU":"sku"}],"operation":"REACTIVATE_SUBSCRIPTION","requestInfo":{"requestReferenceId":"550e8400-e29b-41d4-a716-446655440000"},
             "storefront":"USA","transactionId":"transactionId","version":"1"}
            """)
        // Absent optional members are left out; request info writes identifiers in lowercase.
        let minimal = AdvancedCommerceSubscriptionReactivateInAppRequest(
            requestInfo: AdvancedCommerceRequestInfo(requestReferenceId: Self.reference, appAccountToken: UUID(uuidString: "660E8400-E29B-41D4-A716-446655440011"),
                                                     consistencyToken: "consistency_token_value"),
            transactionId: "t")
        try expectJSON(minimal, """
            {"operation":"REACTIVATE_SUBSCRIPTION","requestInfo":{"requestReferenceId":"550e8400-e29b-41d4-a716-446655440000",
             "appAccountToken":"660e8400-e29b-41d4-a716-446655440011","consistencyToken":"consistency_token_value"},"transactionId":"t","version":"1"}
            """)
        // JSONEncoder (which the signature creator uses) writes the same members.
        let foundation = try JSONSerialization.jsonObject(with: JSONEncoder().encode(Self.modify)) as? NSDictionary
        let ours = try JSONSerialization.jsonObject(with: AppStoreJSON.encode(Self.modify)) as? NSDictionary
        #expect(foundation != nil && foundation == ours)
    }

    /// The request JSON of Apple's own tests (`Tests/AppStoreServerLibraryTests/resources/models/`),
    /// which carries no `operation` or `version`, decodes and round-trips.
    @Test("Apple's JSON decodes and round-trips")
    func decodesApplesJSON() throws {
        let oneTime = try decode(AdvancedCommerceOneTimeChargeCreateRequest.self, #"""
            {"currency":"USD","item":{"description":"description","displayName":"display name","SKU":"sku","price":10000},
             "requestInfo":{"requestReferenceId":"550e8400-e29b-41d4-a716-446655440000"},"taxCode":"taxCode","storefront":"USA"}
            """#)
        #expect(oneTime == Self.oneTimeCharge)
        let create = try decode(AdvancedCommerceSubscriptionCreateRequest.self, #"""
            {"currency":"USD","descriptors":{"description":"description","displayName":"display name"},
             "items":[{"SKU":"sku","description":"description","displayName":"display name","price":20000},
                      {"SKU":"sku","description":"description","displayName":"display name","price":30000}],
             "period":"P1M","requestInfo":{"requestReferenceId":"550e8400-e29b-41d4-a716-446655440001"},"taxCode":"taxCode","storefront":"USA",
             "previousTransactionId":"transactionId"}
            """#)
        #expect(create.items.map(\.price) == [20_000, 30_000])
        #expect(create.period == .oneMonth)
        #expect(create.previousTransactionId == "transactionId")
        let modify = try decode(AdvancedCommerceSubscriptionModifyInAppRequest.self, #"""
            {"requestInfo":{"requestReferenceId":"550e8400-e29b-41d4-a716-446655440007"},"transactionId":"transactionId","retainBillingCycle":true,
             "descriptors":{"effective":"IMMEDIATELY","description":"description","displayName":"display name"},"taxCode":"taxCode","currency":"USD"}
            """#)
        #expect(modify.retainBillingCycle)
        #expect(modify.descriptors?.effective == .immediately)
        #expect(modify.addItems == nil && modify.changeItems == nil && modify.removeItems == nil && modify.periodChange == nil)
        let reactivate = try decode(AdvancedCommerceSubscriptionReactivateInAppRequest.self, #"""
            {"requestInfo":{"requestReferenceId":"550e8400-e29b-41d4-a716-446655440008"},"transactionId":"transactionId","items":[{"SKU":"sku"}]}
            """#)
        #expect(reactivate.items == [AdvancedCommerceSubscriptionReactivateItem(SKU: "sku")])
        let info = try decode(AdvancedCommerceRequestInfo.self, #"""
            {"requestReferenceId":"550e8400-e29b-41d4-a716-446655440010","appAccountToken":"660e8400-e29b-41d4-a716-446655440011",
             "consistencyToken":"consistency_token_value"}
            """#)
        #expect(info.appAccountToken == UUID(uuidString: "660e8400-e29b-41d4-a716-446655440011"))
        let change = try decode(AdvancedCommerceSubscriptionModifyChangeItem.self, #"""
            {"currentSKU":"currentSku","description":"description","displayName":"displayName","effective":"IMMEDIATELY","price":13000,
             "reason":"UPGRADE","SKU":"sku"}
            """#)
        #expect(change.reason == .upgrade && change.currentSKU == "currentSku")
        _ = try decode(AdvancedCommerceSubscriptionModifyAddItem.self, #"{"SKU":"sku","description":"description","displayName":"displayName","price":12000}"#)
        _ = try decode(AdvancedCommerceSubscriptionModifyPeriodChange.self, #"{"effective":"IMMEDIATELY","period":"P3M"}"#)
        _ = try decode(AdvancedCommerceSubscriptionModifyRemoveItem.self, #"{"SKU":"sku"}"#)
        _ = try decode(AdvancedCommerceOneTimeChargeItem.self, #"{"description":"description","displayName":"display name","SKU":"sku","price":15000}"#)
        _ = try decode(AdvancedCommerceSubscriptionCreateItem.self, #"{"description":"description","displayName":"display name","SKU":"sku","price":20000}"#)

        // Every model survives encoding and decoding.
        for request in [Self.oneTimeCharge] { #expect(try roundTrip(request) == request) }
        #expect(try roundTrip(Self.subscription) == Self.subscription)
        #expect(try roundTrip(Self.modify) == Self.modify)
        #expect(try roundTrip(Self.reactivate) == Self.reactivate)
    }

    @Test("a request of another operation, or an identifier that is no UUID, does not decode")
    func wrongOperationOrIdentifier() throws {
        let json = try AppStoreJSON.encode(Self.subscription)
        #expect(throws: DecodingError.self) { try AppStoreJSON.decode(AdvancedCommerceOneTimeChargeCreateRequest.self, from: json) }
        let modify = try AppStoreJSON.encode(Self.modify)
        #expect(throws: DecodingError.self) { try AppStoreJSON.decode(AdvancedCommerceSubscriptionReactivateInAppRequest.self, from: modify) }
        #expect(throws: DecodingError.self) {
            try AppStoreJSON.decode(AdvancedCommerceRequestInfo.self, from: Data(#"{"requestReferenceId":"not-a-uuid"}"#.utf8))
        }
        #expect(throws: DecodingError.self) {
            try AppStoreJSON.decode(AdvancedCommerceRequestInfo.self, from: Data(#"{"requestReferenceId":"550e8400-e29b-41d4-a716-446655440010","appAccountToken":"x"}"#.utf8))
        }
    }

    @Test("enumeration values Apple adds later survive decoding and encoding")
    func unknownEnumerationValues() throws {
        let json = #"""
            {"requestInfo":{"requestReferenceId":"550e8400-e29b-41d4-a716-446655440007"},"transactionId":"t","retainBillingCycle":false,
             "changeItems":[{"currentSKU":"a","SKU":"b","description":"d","displayName":"n","effective":"AT_MIDNIGHT","price":1,"reason":"CROSSGRADE",
                             "offer":{"period":"P5D","periodCount":2,"price":0,"reason":"LOYALTY"}}],
             "periodChange":{"effective":"IMMEDIATELY","period":"P4M"},"operation":"MODIFY_SUBSCRIPTION","version":"2"}
            """#
        let request = try decode(AdvancedCommerceSubscriptionModifyInAppRequest.self, json)
        let item = try #require(request.changeItems?.first)
        #expect(item.effective.rawValue == "AT_MIDNIGHT" && !item.effective.isDocumented)
        #expect(item.reason == AdvancedCommerceReason(rawValue: "CROSSGRADE"))
        #expect(item.offer?.period?.rawValue == "P5D" && item.offer?.reason?.rawValue == "LOYALTY")
        #expect(request.periodChange?.period.rawValue == "P4M")
        let again = try JSONSerialization.jsonObject(with: AppStoreJSON.encode(request)) as? [String: Any]
        let changed = try #require((again?["changeItems"] as? [[String: Any]])?.first)
        #expect(changed["effective"] as? String == "AT_MIDNIGHT")
        #expect(changed["reason"] as? String == "CROSSGRADE")
        // The request is written as this library's version of the operation.
        #expect(again?["version"] as? String == "1")
        #expect(AdvancedCommerceEffective.documentedValues.map(\.rawValue) == ["IMMEDIATELY", "NEXT_BILL_CYCLE"])
        #expect(AdvancedCommerceReason.documentedValues.map(\.rawValue) == ["UPGRADE", "DOWNGRADE", "APPLY_OFFER"])
    }

    // MARK: - Validation

    @Test("valid requests pass, at each limit")
    func validRequests() throws {
        try Self.oneTimeCharge.validate()
        try Self.subscription.validate()
        try Self.modify.validate()
        try Self.reactivate.validate()
        var atLimits = Self.oneTimeCharge
        atLimits.item = AdvancedCommerceOneTimeChargeItem(SKU: String(repeating: "s", count: 128), description: String(repeating: "d", count: 45),
                                                          displayName: String(repeating: "n", count: 30), price: 0)
        try atLimits.validate()
        // Lengths count characters, not bytes or UTF-16 units.
        atLimits.item.displayName = String(repeating: "👍🏽", count: 30)
        atLimits.item.description = String(repeating: "é", count: 45)
        try atLimits.validate()
        var offers = Self.subscription
        offers.items[1].offer = AdvancedCommerceOffer(periodCount: 1, price: 0, period: .threeDays, reason: .acquisition)
        try offers.validate()
        offers.items[1].offer = AdvancedCommerceOffer(periodCount: 12, price: 1, period: .oneYear, reason: .retention)
        try offers.validate()
        // A modification may carry nothing but what it must.
        try AdvancedCommerceSubscriptionModifyInAppRequest(requestInfo: Self.info, transactionId: "t", retainBillingCycle: false).validate()
        try AdvancedCommerceSubscriptionReactivateInAppRequest(requestInfo: Self.info, transactionId: "t", items: []).validate()
    }

    /// One broken rule: the request, the field the error names and its code.
    struct Broken: Sendable, CustomTestStringConvertible {
        let request: any AdvancedCommerceInAppRequest
        let field: String
        let code: AdvancedCommerceValidationError.Code
        var testDescription: String { "\(field) \(code)" }
    }

    static let broken: [Broken] = {
        let long = { (count: Int) in String(repeating: "x", count: count) }
        func charge(_ change: (inout AdvancedCommerceOneTimeChargeCreateRequest) -> Void) -> AdvancedCommerceOneTimeChargeCreateRequest {
            var request = oneTimeCharge
            change(&request)
            return request
        }
        func create(_ change: (inout AdvancedCommerceSubscriptionCreateRequest) -> Void) -> AdvancedCommerceSubscriptionCreateRequest {
            var request = subscription
            change(&request)
            return request
        }
        func modified(_ change: (inout AdvancedCommerceSubscriptionModifyInAppRequest) -> Void) -> AdvancedCommerceSubscriptionModifyInAppRequest {
            var request = modify
            change(&request)
            return request
        }
        return [
            Broken(request: charge { $0.item.SKU = long(129) }, field: "item.SKU", code: .tooLong),
            Broken(request: charge { $0.item.description = long(46) }, field: "item.description", code: .tooLong),
            Broken(request: charge { $0.item.displayName = long(31) }, field: "item.displayName", code: .tooLong),
            Broken(request: charge { $0.item.price = -1 }, field: "item.price", code: .outOfRange),
            Broken(request: charge { $0.currency = "usd" }, field: "currency", code: .invalidFormat),
            Broken(request: charge { $0.currency = "US" }, field: "currency", code: .invalidFormat),
            Broken(request: charge { $0.currency = "USDX" }, field: "currency", code: .invalidFormat),
            Broken(request: charge { $0.currency = "ÜSD" }, field: "currency", code: .invalidFormat),
            Broken(request: charge { $0.storefront = "US" }, field: "storefront", code: .invalidFormat),
            Broken(request: create { $0.items = [] }, field: "items", code: .emptyList),
            Broken(request: create { $0.descriptors = AdvancedCommerceDescriptors(displayName: "n") }, field: "descriptors.description", code: .missingMember),
            Broken(request: create { $0.descriptors = AdvancedCommerceDescriptors(description: "d") }, field: "descriptors.displayName", code: .missingMember),
            Broken(request: create { $0.descriptors = AdvancedCommerceDescriptors(description: long(46), displayName: "n") },
                   field: "descriptors.description", code: .tooLong),
            Broken(request: create { $0.descriptors = AdvancedCommerceDescriptors(description: "d", displayName: long(31)) },
                   field: "descriptors.displayName", code: .tooLong),
            Broken(request: create { $0.items[1].SKU = long(129) }, field: "items[1].SKU", code: .tooLong),
            Broken(request: create { $0.items[0].price = -20_000 }, field: "items[0].price", code: .outOfRange),
            Broken(request: create { $0.items[1].offer = AdvancedCommerceOffer(periodCount: 0, price: 1, period: .oneWeek, reason: .winBack) },
                   field: "items[1].offer.periodCount", code: .outOfRange),
            Broken(request: create { $0.items[1].offer = AdvancedCommerceOffer(periodCount: 13, price: 1, period: .oneWeek, reason: .winBack) },
                   field: "items[1].offer.periodCount", code: .outOfRange),
            Broken(request: create { $0.items[1].offer = AdvancedCommerceOffer(periodCount: 2, price: -1, period: .oneWeek, reason: .winBack) },
                   field: "items[1].offer.price", code: .outOfRange),
            Broken(request: create { $0.items[1].offer = AdvancedCommerceOffer(periodCount: 2, price: 1, reason: .winBack) },
                   field: "items[1].offer.period", code: .missingMember),
            Broken(request: create { $0.items[1].offer = AdvancedCommerceOffer(price: 1, period: .oneWeek, reason: .winBack) },
                   field: "items[1].offer.periodCount", code: .missingMember),
            Broken(request: create { $0.items[1].offer = AdvancedCommerceOffer(periodCount: 2, period: .oneWeek, reason: .winBack) },
                   field: "items[1].offer.price", code: .missingMember),
            Broken(request: create { $0.items[1].offer = AdvancedCommerceOffer(periodCount: 2, price: 1, period: .oneWeek) },
                   field: "items[1].offer.reason", code: .missingMember),
            Broken(request: create { $0.currency = "" }, field: "currency", code: .invalidFormat),
            Broken(request: modified { $0.addItems = [] }, field: "addItems", code: .emptyList),
            Broken(request: modified { $0.changeItems = [] }, field: "changeItems", code: .emptyList),
            Broken(request: modified { $0.removeItems = [] }, field: "removeItems", code: .emptyList),
            Broken(request: modified { $0.addItems?[0].proratedPrice = -1 }, field: "addItems[0].proratedPrice", code: .outOfRange),
            Broken(request: modified { $0.addItems?[0].displayName = long(31) }, field: "addItems[0].displayName", code: .tooLong),
            Broken(request: modified { $0.changeItems?[0].currentSKU = long(129) }, field: "changeItems[0].currentSKU", code: .tooLong),
            Broken(request: modified { $0.changeItems?[0].SKU = long(129) }, field: "changeItems[0].SKU", code: .tooLong),
            Broken(request: modified { $0.changeItems?[0].proratedPrice = -5 }, field: "changeItems[0].proratedPrice", code: .outOfRange),
            Broken(request: modified { $0.changeItems?[0].offer = AdvancedCommerceOffer() }, field: "changeItems[0].offer.period", code: .missingMember),
            Broken(request: modified { $0.removeItems?[0].SKU = long(129) }, field: "removeItems[0].SKU", code: .tooLong),
            Broken(request: modified { $0.descriptors?.description = long(46) }, field: "descriptors.description", code: .tooLong),
            Broken(request: modified { $0.descriptors?.displayName = long(31) }, field: "descriptors.displayName", code: .tooLong),
            Broken(request: modified { $0.currency = "eur" }, field: "currency", code: .invalidFormat),
            Broken(request: modified { $0.storefront = "usa" }, field: "storefront", code: .invalidFormat),
            Broken(request: AdvancedCommerceSubscriptionReactivateInAppRequest(requestInfo: info, transactionId: "t",
                                                                               items: [AdvancedCommerceSubscriptionReactivateItem(SKU: "a"),
                                                                                       AdvancedCommerceSubscriptionReactivateItem(SKU: long(129))]),
                   field: "items[1].SKU", code: .tooLong),
            Broken(request: AdvancedCommerceSubscriptionReactivateInAppRequest(requestInfo: info, transactionId: "t", storefront: "FR"),
                   field: "storefront", code: .invalidFormat),
        ]
    }()

    @Test("each broken rule is refused, naming its field", arguments: broken)
    func brokenRule(_ broken: Broken) throws {
        let error = try #require(throws: AdvancedCommerceValidationError.self) { try broken.request.validate() }
        #expect(error.field == broken.field)
        #expect(error.code == broken.code)
        #expect(error.message.hasPrefix(broken.field + " "), "\(error.message)")
        #expect(!error.message.contains("xxxx"), "messages quote no input")
        #expect(error.description == "\(broken.code): \(error.message)")
    }

    @Test("the limits are Apple's")
    func limits() {
        #expect(AdvancedCommerceValidation.maximumSKULength == 128)
        #expect(AdvancedCommerceValidation.maximumDescriptionLength == 45)
        #expect(AdvancedCommerceValidation.maximumDisplayNameLength == 30)
        #expect(AdvancedCommerceValidation.periodCountRange == 1...12)
    }

    // MARK: - Helpers

    func decode<Model: Decodable>(_ type: Model.Type, _ json: String) throws -> Model {
        try AppStoreJSON.decode(type, from: Data(json.utf8))
    }

    func roundTrip<Model: Codable>(_ model: Model) throws -> Model {
        try AppStoreJSON.decode(Model.self, from: try AppStoreJSON.encode(model))
    }

    func expectJSON(_ model: some Encodable, _ json: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let data = try AppStoreJSON.encode(model)
        let actual = try JSONSerialization.jsonObject(with: data) as? NSDictionary
        let expected = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? NSDictionary
        #expect(actual != nil && actual == expected, "\(String(decoding: data, as: UTF8.self))", sourceLocation: sourceLocation)
    }
}

@Suite("Advanced Commerce in-app request signatures", .enabled(if: SigningTestKeys.isAvailable, "needs the openssl command to make test keys"))
struct AdvancedCommerceInAppSignatureTests {
    static let nonce = UUID(uuidString: "A1B2C3D4-E5F6-4789-8ABC-DEF012345678") ?? UUID()
    static let issuedAt = Date(timeIntervalSince1970: 1_700_000_000)

    func creator() throws -> (AdvancedCommerceInAppSignatureCreator, SigningKey) {
        let key = try SigningKey(contentsOf: SigningTestKeys.require().pkcs8)
        return (AdvancedCommerceInAppSignatureCreator(signingKey: key, keyId: "KEYID", issuerId: "issuer", bundleId: "com.example.app"), key)
    }

    /// The `request` claim of `jws`, decoded, after checking the signature.
    func requestClaim(_ jws: String, key: SigningKey) throws -> Data {
        let parts = jws.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        try #require(parts.count == 3)
        let signature = try #require(base64URLDecoded(parts[2]))
        try PublicKey(subjectPublicKeyInfo: key.publicKeyDER).verifyES256(signature: signature, over: Array((parts[0] + "." + parts[1]).utf8))
        let payload = try #require(base64URLDecoded(parts[1]))
        let claims = try #require(try JSONSerialization.jsonObject(with: payload) as? [String: Any])
        #expect(claims["aud"] as? String == "advanced-commerce-api")
        let request = try #require(claims["request"] as? String)
        return try #require(Data(base64Encoded: request))
    }

    @Test("a valid request is signed: the claim is its JSON with operation and version")
    func signsAValidRequest() throws {
        let (creator, key) = try creator()
        let jws = try creator.createSignature(advancedCommerceInAppRequest: AdvancedCommerceInAppRequestTests.subscription,
                                              nonce: Self.nonce, issuedAt: Self.issuedAt)
        let request = try requestClaim(jws, key: key)
        let object = try #require(try JSONSerialization.jsonObject(with: request) as? [String: Any])
        #expect(object["operation"] as? String == "CREATE_SUBSCRIPTION")
        #expect(object["version"] as? String == "1")
        #expect((object["requestInfo"] as? [String: String])?["requestReferenceId"] == "550e8400-e29b-41d4-a716-446655440000")
        let decoded = try AppStoreJSON.decode(AdvancedCommerceSubscriptionCreateRequest.self, from: request)
        #expect(decoded == AdvancedCommerceInAppRequestTests.subscription)
        // The same request and claims give the same JWS (keys sorted); ECDSA aside, the claims match.
        let again = try creator.createSignature(advancedCommerceInAppRequest: AdvancedCommerceInAppRequestTests.subscription,
                                                nonce: Self.nonce, issuedAt: Self.issuedAt)
        #expect(try requestClaim(again, key: key) == request)
    }

    @Test("an invalid request is refused before signing, with the validation message")
    func refusesAnInvalidRequest() throws {
        let (creator, _) = try creator()
        var request = AdvancedCommerceInAppRequestTests.oneTimeCharge
        request.item.SKU = String(repeating: "s", count: 129)
        let error = try #require(throws: SignatureCreationError.self) {
            try creator.createSignature(advancedCommerceInAppRequest: request, nonce: Self.nonce, issuedAt: Self.issuedAt)
        }
        #expect(error.code == .invalidRequest)
        #expect(error.message.contains("item.SKU is 129 characters long; Apple allows at most 128"), "\(error.message)")
        var modify = AdvancedCommerceInAppRequestTests.modify
        modify.removeItems = []
        #expect(throws: SignatureCreationError(.invalidRequest, "the Advanced Commerce request breaks Apple's rules: removeItems is empty; give at least one item, or leave the list out where Apple allows it")) {
            try creator.createSignature(advancedCommerceInAppRequest: modify)
        }
        // Given as a plain Encodable value, the request is signed as it is: no rule is checked.
        let plain: any Encodable = request
        #expect(try !creator.createSignature(advancedCommerceInAppRequest: plain).isEmpty)
    }
}
