#if ServerAPIClient
import AppStoreServerAPI
import AppStoreServerAPITesting
import AppStoreVerification
import Foundation
import Testing

/// Extend Subscription Renewal Dates for All Active Subscribers and Get Status of Subscription
/// Renewal Date Extensions, over HTTP against the fake App Store.
@Suite(.timeLimit(.minutes(1)))
struct MassExtensionTests {
    @Test func extendForAllActiveSubscribersThenGetItsStatus() async throws {
        try await Harness.with { harness in
            let client = try harness.client()
            let request = MassExtendRenewalDateRequest(extendByDays: 7, extendReasonCode: .serviceIssueOrOutage, requestIdentifier: "mass-1",
                                                       storefrontCountryCodes: ["USA", "FRA"], productId: "com.example.monthly")
            let acknowledged = try await client.extendRenewalDateForAllActiveSubscribers(request: request)
            #expect(acknowledged.requestIdentifier == "mass-1")
            #expect(harness.fake.requests.last.map { "\($0.method) \($0.path)" } == "POST /inApps/v1/subscriptions/extend/mass")
            let sent = try #require(harness.extra.read { $0.more.massExtensions["mass-1"] })
            #expect((sent["extendByDays"] as? NSNumber)?.intValue == 7)
            #expect((sent["extendReasonCode"] as? NSNumber)?.intValue == 3)
            #expect(sent["requestIdentifier"] as? String == "mass-1")
            #expect(sent["productId"] as? String == "com.example.monthly")
            #expect(sent["storefrontCountryCodes"] as? [String] == ["USA", "FRA"])

            let status = try await client.getStatusOfSubscriptionRenewalDateExtensions(requestIdentifier: "mass-1", productId: "com.example.monthly")
            #expect(harness.fake.requests.last.map { "\($0.method) \($0.path)" } == "GET /inApps/v1/subscriptions/extend/mass/com.example.monthly/mass-1")
            #expect(status.requestIdentifier == "mass-1")
            #expect(status.complete == true)
            #expect(status.completeDate == Date(timeIntervalSince1970: 1_800_000_000))
            #expect(status.succeededCount == 30)
            #expect(status.failedCount == 2)
        }
    }

    @Test func storefrontsAreLeftOutWhenNotGivenAndApplesErrorsAreTyped() async throws {
        try await Harness.with { harness in
            let client = try harness.client()
            _ = try await client.extendRenewalDateForAllActiveSubscribers(
                request: MassExtendRenewalDateRequest(extendByDays: 1, extendReasonCode: .customerSatisfaction, requestIdentifier: "mass-2", productId: "p"))
            let sent = try #require(harness.extra.read { $0.more.massExtensions["mass-2"] })
            #expect(sent["storefrontCountryCodes"] == nil)
            #expect(Set(sent.keys) == ["extendByDays", "extendReasonCode", "requestIdentifier", "productId"])

            let tooLong = await apiError {
                _ = try await client.extendRenewalDateForAllActiveSubscribers(
                    request: MassExtendRenewalDateRequest(extendByDays: 91, extendReasonCode: .other, requestIdentifier: "mass-3", productId: "p"))
            }
            #expect(tooLong?.apiError == .invalidExtendByDays)
            #expect(tooLong?.httpStatusCode == 400)

            let unknown = await apiError {
                _ = try await client.getStatusOfSubscriptionRenewalDateExtensions(requestIdentifier: "mass-2", productId: "another.product")
            }
            #expect(unknown?.apiError == .statusRequestNotFound)
            #expect(unknown?.message.contains("GET /inApps/v1/subscriptions/extend/mass/another.product/mass-2") == true)

            let empty = await apiError { _ = try await client.getStatusOfSubscriptionRenewalDateExtensions(requestIdentifier: "", productId: "p") }
            #expect(empty?.code == .invalidRequest)
        }
    }
}
#endif
