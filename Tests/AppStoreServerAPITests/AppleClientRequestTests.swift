#if ServerAPIClient
import AppStoreServerAPI
import AppStoreVerification
import Foundation
import Testing

/// The request assertions of Apple's own App Store Server API client tests
/// (`AppStoreServerAPIClientTests.swift` of Apple's Swift library 6.0.0), ported: for each of
/// Apple's cases, the same call with Apple's inputs sends the method, path, query and JSON body
/// Apple's test expects. The fake App Store records the request; whatever it answers (a route it
/// does not serve answers 404) does not matter here, the answers are tested elsewhere.
///
/// One deliberate difference: UUIDs are compared without regard to case (Apple's Swift client
/// writes them in upper case, this one in lower case; Apple's API accepts both).
@Suite(.timeLimit(.minutes(2)))
struct AppleClientRequestTests {
    /// What Apple's test asserts about one request.
    struct Expected: Sendable, CustomTestStringConvertible {
        let name: String
        let method: String
        let path: String
        var query: [String: [String]] = [:]
        /// Members of the JSON body and their values (numbers, strings, booleans, arrays of strings).
        var body: [String: String]? = nil
        /// Body members that must be absent.
        var absent: [String] = []
        let call: @Sendable (AppStoreServerAPIClient) async -> Void

        var testDescription: String { name }
    }

    static let uuid = UUID(uuidString: "a1b2c3d4-e5f6-7890-a1b2-c3d4e5f67890") ?? UUID()
    static let uuidText = "A1B2C3D4-E5F6-7890-A1B2-C3D4E5F67890"
    static let accountToken = UUID(uuidString: "7389A31A-FB6D-4569-A2A6-DB7D85D84813") ?? UUID()

    static let cases: [Expected] = [
        Expected(name: "testExtendRenewalDateForAllActiveSubscribers", method: "POST", path: "/inApps/v1/subscriptions/extend/mass",
                 body: ["extendByDays": "45", "extendReasonCode": "1", "requestIdentifier": "fdf964a4-233b-486c-aac1-97d8d52688ac",
                        "storefrontCountryCodes": "USA,MEX", "productId": "com.example.productId"]) { client in
            _ = try? await client.extendRenewalDateForAllActiveSubscribers(request: MassExtendRenewalDateRequest(
                extendByDays: 45, extendReasonCode: ExtendReasonCode(rawValue: 1), requestIdentifier: "fdf964a4-233b-486c-aac1-97d8d52688ac",
                storefrontCountryCodes: ["USA", "MEX"], productId: "com.example.productId"))
        },
        Expected(name: "testExtendSubscriptionRenewalDate", method: "PUT", path: "/inApps/v1/subscriptions/extend/4124214",
                 body: ["extendByDays": "45", "extendReasonCode": "1", "requestIdentifier": "fdf964a4-233b-486c-aac1-97d8d52688ac"]) { client in
            _ = try? await client.extendSubscriptionRenewalDate(originalTransactionId: "4124214", request: ExtendRenewalDateRequest(
                extendByDays: 45, extendReasonCode: ExtendReasonCode(rawValue: 1), requestIdentifier: "fdf964a4-233b-486c-aac1-97d8d52688ac"))
        },
        Expected(name: "testGetAllSubscriptionStatuses", method: "GET", path: "/inApps/v1/subscriptions/4321", query: ["status": ["2", "1"]]) { client in
            _ = try? await client.getAllSubscriptionStatuses(transactionId: "4321", status: [.expired, .active])
        },
        Expected(name: "testGetRefundHistory", method: "GET", path: "/inApps/v2/refund/lookup/555555", query: ["revision": ["revision_input"]]) { client in
            _ = try? await client.getRefundHistory(transactionId: "555555", revision: "revision_input")
        },
        Expected(name: "testGetStatusOfSubscriptionRenewalDateExtensions", method: "GET",
                 path: "/inApps/v1/subscriptions/extend/mass/20fba8a0-2b80-4a7d-a17f-85c1854727f8/com.example.product") { client in
            _ = try? await client.getStatusOfSubscriptionRenewalDateExtensions(requestIdentifier: "com.example.product", productId: "20fba8a0-2b80-4a7d-a17f-85c1854727f8")
        },
        Expected(name: "testGetTestNotificationStatus", method: "GET", path: "/inApps/v1/notifications/test/8cd2974c-f905-492a-bf9a-b2f47c791d19") { client in
            _ = try? await client.getTestNotificationStatus(testNotificationToken: "8cd2974c-f905-492a-bf9a-b2f47c791d19")
        },
        Expected(name: "testGetNotificationHistory", method: "POST", path: "/inApps/v1/notifications/history",
                 query: ["paginationToken": ["a036bc0e-52b8-4bee-82fc-8c24cb6715d6"]],
                 body: ["startDate": "1698148900000", "endDate": "1698148950000", "notificationType": "SUBSCRIBED",
                        "notificationSubtype": "INITIAL_BUY", "transactionId": "999733843", "onlyFailures": "true"]) { client in
            _ = try? await client.getNotificationHistory(request: NotificationHistoryRequest(
                startDate: Date(timeIntervalSince1970: 1_698_148_900), endDate: Date(timeIntervalSince1970: 1_698_148_950),
                notificationType: .subscribed, notificationSubtype: .initialBuy, transactionId: "999733843", onlyFailures: true),
                paginationToken: "a036bc0e-52b8-4bee-82fc-8c24cb6715d6")
        },
        Expected(name: "testGetNotificationHistoryWithMicrosecondValues", method: "POST", path: "/inApps/v1/notifications/history",
                 query: ["paginationToken": ["a036bc0e-52b8-4bee-82fc-8c24cb6715d6"]],
                 body: ["startDate": "1698148900000", "endDate": "1698148950000"]) { client in
            _ = try? await client.getNotificationHistory(request: NotificationHistoryRequest(
                // Apple's values: 900 µs past the start's millisecond, 1 µs past the end's; bodies truncate.
                startDate: Date(timeIntervalSince1970: 1_698_148_900).advanced(by: 0.000_9), endDate: Date(timeIntervalSince1970: 1_698_148_950).advanced(by: 0.000_001),
                notificationType: .subscribed, notificationSubtype: .initialBuy, transactionId: "999733843", onlyFailures: true),
                paginationToken: "a036bc0e-52b8-4bee-82fc-8c24cb6715d6")
        },
        Expected(name: "testGetTransactionHistoryV1", method: "GET", path: "/inApps/v1/history/1234", query: historyQuery) { client in
            _ = try? await client.getTransactionHistory(transactionId: "1234", revision: "revision_input", request: historyRequest, version: .v1)
        },
        Expected(name: "testGetTransactionHistoryV2", method: "GET", path: "/inApps/v2/history/1234", query: historyQuery) { client in
            _ = try? await client.getTransactionHistory(transactionId: "1234", revision: "revision_input", request: historyRequest, version: .v2)
        },
        Expected(name: "testGetTransactionInfo", method: "GET", path: "/inApps/v1/transactions/1234") { client in
            _ = try? await client.getTransactionInfo(transactionId: "1234")
        },
        Expected(name: "testGetAppTransactionInfo", method: "GET", path: "/inApps/v1/transactions/appTransactions/1234") { client in
            _ = try? await client.getAppTransactionInfo(transactionId: "1234")
        },
        Expected(name: "testLookUpOrderId", method: "GET", path: "/inApps/v1/lookup/W002182") { client in
            _ = try? await client.lookUpOrderId(orderId: "W002182")
        },
        Expected(name: "testRequestTestNotification", method: "POST", path: "/inApps/v1/notifications/test") { client in
            _ = try? await client.requestTestNotification()
        },
        Expected(name: "testSendConsumptionData", method: "PUT", path: "/inApps/v1/transactions/consumption/49571273",
                 body: ["customerConsented": "true", "consumptionStatus": "1", "platform": "2", "sampleContentProvided": "false",
                        "deliveryStatus": "3", "appAccountToken": "7389A31A-FB6D-4569-A2A6-DB7D85D84813", "accountTenure": "4",
                        "playTime": "5", "lifetimeDollarsRefunded": "6", "lifetimeDollarsPurchased": "7", "userStatus": "4",
                        "refundPreference": "3"]) { client in
            try? await client.sendConsumptionData(transactionId: "49571273", request: ConsumptionRequestV1(
                customerConsented: true, consumptionStatus: ConsumptionStatus(rawValue: 1), platform: Platform(rawValue: 2),
                sampleContentProvided: false, deliveryStatus: DeliveryStatusV1(rawValue: 3), appAccountToken: accountToken,
                accountTenure: AccountTenure(rawValue: 4), playTime: PlayTime(rawValue: 5),
                lifetimeDollarsRefunded: LifetimeDollarsRefunded(rawValue: 6), lifetimeDollarsPurchased: LifetimeDollarsPurchased(rawValue: 7),
                userStatus: UserStatus(rawValue: 4), refundPreference: RefundPreferenceV1(rawValue: 3)))
        },
        Expected(name: "testSendConsumptionInformation", method: "PUT", path: "/inApps/v2/transactions/consumption/49571273",
                 body: ["customerConsented": "true", "sampleContentProvided": "false", "deliveryStatus": "DELIVERED",
                        "consumptionPercentage": "50000", "refundPreference": "GRANT_FULL"]) { client in
            try? await client.sendConsumptionInformation(transactionId: "49571273", request: ConsumptionRequest(
                customerConsented: true, sampleContentProvided: false, deliveryStatus: .delivered, consumptionPercentage: 50_000,
                refundPreference: .grantFull))
        },
        Expected(name: "testSendConsumptionInformationWithMinimalFields", method: "PUT", path: "/inApps/v2/transactions/consumption/49571273",
                 body: ["customerConsented": "true", "sampleContentProvided": "false", "deliveryStatus": "UNDELIVERED_QUALITY_ISSUE"],
                 absent: ["consumptionPercentage", "refundPreference"]) { client in
            try? await client.sendConsumptionInformation(transactionId: "49571273", request: ConsumptionRequest(
                customerConsented: true, sampleContentProvided: false, deliveryStatus: .undeliveredQualityIssue))
        },
        Expected(name: "testSetAppAccountToken", method: "PUT", path: "/inApps/v1/transactions/49571273/appAccountToken",
                 body: ["appAccountToken": "7389A31A-FB6D-4569-A2A6-DB7D85D84813"]) { client in
            try? await client.setAppAccountToken(originalTransactionId: "49571273", appAccountToken: accountToken)
        },
        Expected(name: "testUploadImage", method: "PUT", path: "/inApps/v1/messaging/image/\(uuidText)") { client in
            try? await client.uploadImage(imageIdentifier: uuid, image: Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]))
        },
        Expected(name: "testUploadImageWithImageSize", method: "PUT", path: "/inApps/v1/messaging/image/\(uuidText)", query: ["imageSize": ["FULL_SIZE"]]) { client in
            try? await client.uploadImage(imageIdentifier: uuid, image: Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]), imageSize: .fullSize)
        },
        Expected(name: "testDeleteImage", method: "DELETE", path: "/inApps/v1/messaging/image/\(uuidText)") { client in
            try? await client.deleteImage(imageIdentifier: uuid)
        },
        Expected(name: "testGetImageList", method: "GET", path: "/inApps/v1/messaging/image/list") { client in
            _ = try? await client.getImageList()
        },
        Expected(name: "testUploadMessage", method: "PUT", path: "/inApps/v1/messaging/message/\(uuidText)",
                 body: ["header": "Header text", "body": "Body text"]) { client in
            try? await client.uploadMessage(messageIdentifier: uuid, request: UploadMessageRequestBody(header: "Header text", body: "Body text"))
        },
        Expected(name: "testUploadMessageWithBulletPoints", method: "PUT", path: "/inApps/v1/messaging/message/\(uuidText)",
                 body: ["header": "Header text", "body": "Body text", "headerPosition": "ABOVE_IMAGE"]) { client in
            try? await client.uploadMessage(messageIdentifier: uuid, request: UploadMessageRequestBody(
                header: "Header text", body: "Body text", image: UploadMessageImage(imageIdentifier: uuid, altText: "Alt text"),
                headerPosition: .aboveImage, bulletPoints: [BulletPoint(text: "Point", imageIdentifier: uuid, altText: "Alt")]))
        },
        Expected(name: "testDeleteMessage", method: "DELETE", path: "/inApps/v1/messaging/message/\(uuidText)") { client in
            try? await client.deleteMessage(messageIdentifier: uuid)
        },
        Expected(name: "testGetMessageList", method: "GET", path: "/inApps/v1/messaging/message/list") { client in
            _ = try? await client.getMessageList()
        },
        Expected(name: "testConfigureDefaultMessage", method: "PUT", path: "/inApps/v1/messaging/default/com.example.product/en-US",
                 body: ["messageIdentifier": uuidText]) { client in
            try? await client.configureDefaultMessage(productId: "com.example.product", locale: "en-US", request: DefaultConfigurationRequest(messageIdentifier: uuid))
        },
        Expected(name: "testDeleteDefaultMessage", method: "DELETE", path: "/inApps/v1/messaging/default/com.example.product/en-US") { client in
            try? await client.deleteDefaultMessage(productId: "com.example.product", locale: "en-US")
        },
        Expected(name: "testGetDefaultMessage", method: "GET", path: "/inApps/v1/messaging/default/com.example.product/en-US") { client in
            _ = try? await client.getDefaultMessage(productId: "com.example.product", locale: "en-US")
        },
        Expected(name: "testConfigureRealtimeURL", method: "PUT", path: "/inApps/v1/messaging/realtime/url",
                 body: ["realtimeURL": "https://example.com/realtime"]) { client in
            try? await client.configureRealtimeUrl(request: RealtimeUrlRequest(realtimeURL: "https://example.com/realtime"))
        },
        Expected(name: "testDeleteRealtimeURL", method: "DELETE", path: "/inApps/v1/messaging/realtime/url") { client in
            try? await client.deleteRealtimeUrl()
        },
        Expected(name: "testGetRealtimeURL", method: "GET", path: "/inApps/v1/messaging/realtime/url") { client in
            _ = try? await client.getRealtimeUrl()
        },
        Expected(name: "testInitiatePerformanceTest", method: "POST", path: "/inApps/v1/messaging/performanceTest",
                 body: ["originalTransactionId": "70000500092808"]) { client in
            _ = try? await client.initiatePerformanceTest(request: PerformanceTestRequest(originalTransactionId: "70000500092808"))
        },
        Expected(name: "testGetPerformanceTestResults", method: "GET", path: "/inApps/v1/messaging/performanceTest/result/c4b87a1d-2e3f-4a5b-9c6d-7e8f9a0b1c2d") { client in
            _ = try? await client.getPerformanceTestResults(requestId: "c4b87a1d-2e3f-4a5b-9c6d-7e8f9a0b1c2d")
        },
    ]

    /// Apple's history filters: `Date(timeIntervalSince1970: 123.455)` (stored as 123.45499...) and
    /// 123.456 (stored as 123.45599...) go out as 123455 and 123456.
    static let historyRequest = TransactionHistoryRequest(
        startDate: Date(timeIntervalSince1970: 123.455), endDate: Date(timeIntervalSince1970: 123.456),
        productIds: ["com.example.1", "com.example.2"], productTypes: [.consumable, .autoRenewable], sort: .ascending,
        subscriptionGroupIdentifiers: ["sub_group_id", "sub_group_id_2"], inAppOwnershipType: .familyShared, revoked: false)

    static let historyQuery: [String: [String]] = [
        "revision": ["revision_input"], "startDate": ["123455"], "endDate": ["123456"], "productId": ["com.example.1", "com.example.2"],
        "productType": ["CONSUMABLE", "AUTO_RENEWABLE"], "sort": ["ASCENDING"], "subscriptionGroupIdentifier": ["sub_group_id", "sub_group_id_2"],
        "inAppOwnershipType": ["FAMILY_SHARED"], "revoked": ["false"],
    ]

    /// A JSON value as Apple's assertion compares it: numbers and booleans as text, arrays joined
    /// with commas, UUID-shaped strings in upper case.
    enum JSONText: Decodable {
        case text(String)
        case array([JSONText])
        case object

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let bool = try? container.decode(Bool.self) {
                self = .text(bool ? "true" : "false")
            } else if let integer = try? container.decode(Int64.self) {
                self = .text(String(integer))
            } else if let string = try? container.decode(String.self) {
                self = .text(UUID(uuidString: string) != nil ? string.uppercased() : string)
            } else if let array = try? container.decode([JSONText].self) {
                self = .array(array)
            } else {
                self = .object
            }
        }

        var text: String {
            switch self {
            case .text(let text): text
            case .array(let items): items.map(\.text).joined(separator: ",")
            case .object: "{...}"
            }
        }
    }

    /// `path` with every UUID segment in upper case.
    static func uuidsUppercased(_ path: String) -> String {
        path.split(separator: "/", omittingEmptySubsequences: false)
            .map { UUID(uuidString: String($0)) != nil ? $0.uppercased() : String($0) }
            .joined(separator: "/")
    }

    @Test(arguments: cases)
    func sendsWhatApplesTestExpects(_ expected: Expected) async throws {
        try await Harness.with { harness in
            let client = try harness.client()
            await expected.call(client)
            let request = try #require(harness.fake.requests.last, "\(expected.name): no request was sent")
            #expect(request.method == expected.method, "\(expected.name)")
            #expect(Self.uuidsUppercased(request.path) == Self.uuidsUppercased(expected.path), "\(expected.name)")
            var query: [String: [String]] = [:]
            for item in request.query { query[item.name, default: []].append(item.value) }
            #expect(query == expected.query, "\(expected.name)")
            if let body = expected.body {
                let object = try JSONDecoder().decode([String: JSONText].self, from: request.body)
                for (name, value) in body {
                    let sent = try #require(object[name], "\(expected.name): no \(name) in the body")
                    #expect(sent.text == (UUID(uuidString: value) != nil ? value.uppercased() : value), "\(expected.name): \(name)")
                }
                for name in expected.absent { #expect(object[name] == nil, "\(expected.name): \(name) was sent") }
            } else if request.method == "GET" || request.method == "DELETE" {
                #expect(request.body.isEmpty, "\(expected.name): a body was sent")
            }
        }
    }
}
#endif
