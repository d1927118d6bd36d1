#if ServerAPIClient
import AppStoreServerAPI
import AppStoreServerAPITesting
import AppStoreVerification
import Foundation
import Testing

/// Get Transaction History v1, Send Consumption Information V1 and Finish Transaction, over HTTP
/// against the fake App Store.
@Suite(.timeLimit(.minutes(1)))
struct TransactionEndpointTests {
    @Test func transactionHistoryVersion1IsVerifiedAcrossPages() async throws {
        try await Harness.with { harness in
            let items = try (1...3).map { try harness.transaction("h\($0)") }
            let tampered = try Harness.tampered(items[1])
            harness.fake.setTransactionHistory([items[0], tampered, items[2]], for: "h1")
            let client = try harness.client()
            let all = try await client.transactionHistory(transactionId: "h1", version: .v1).collect()
            #expect(all.map { $0.unsafePayloadValue.transactionId } == ["h1", "h2", "h3"])
            #expect(all.map(\.isVerified) == [true, false, true])
            let requests = harness.fake.requests
            #expect(requests.map(\.path) == ["/inApps/v1/history/h1", "/inApps/v1/history/h1"])
            #expect(requests.last?.queryValues("revision") == ["page-2"])

            let page = try await client.getTransactionHistory(transactionId: "h1", request: TransactionHistoryRequest(sort: .descending), version: .v1)
            #expect(page.transactions.count == 2)
            #expect(page.hasMore == true)
            #expect(harness.fake.requests.last?.queryValues("sort") == ["DESCENDING"])
            #expect(harness.fake.requests.last?.path == "/inApps/v1/history/h1")

            _ = try await client.getTransactionHistory(transactionId: "h1")
            #expect(harness.fake.requests.last?.path == "/inApps/v2/history/h1")
        }
    }

    @Test func sendConsumptionDataV1SendsEveryRequiredField() async throws {
        try await Harness.with { harness in
            let client = try harness.client()
            let token = try #require(UUID(uuidString: "7E3FB20B-4CDB-47CC-936D-99D65F608138"))
            try await client.sendConsumptionData(transactionId: "77", request: ConsumptionRequestV1(
                customerConsented: true, consumptionStatus: .partiallyConsumed, platform: .apple, sampleContentProvided: true,
                deliveryStatus: .deliveredAndWorkingProperly, appAccountToken: token, accountTenure: .thirtyDaysToNinetyDays,
                playTime: .oneToSixHours, lifetimeDollarsRefunded: .zeroDollars,
                lifetimeDollarsPurchased: .fiftyDollarsToNinetyNineDollarsAndNinetyNineCents, userStatus: .active, refundPreference: .preferDecline))
            #expect(harness.fake.requests.last.map { "\($0.method) \($0.path)" } == "PUT /inApps/v1/transactions/consumption/77")
            #expect(harness.fake.requests.last?.contentType == "application/json")
            let sent = try #require(harness.extra.read { $0.more.consumptionV1["77"] })
            #expect(sent["customerConsented"] as? Bool == true)
            #expect(sent["sampleContentProvided"] as? Bool == true)
            #expect(sent["appAccountToken"] as? String == "7e3fb20b-4cdb-47cc-936d-99d65f608138")
            let numbers = sent.filter { $0.key != "customerConsented" && $0.key != "sampleContentProvided" && $0.key != "appAccountToken" }
                .compactMapValues { ($0 as? NSNumber)?.intValue }
            #expect(numbers == ["consumptionStatus": 2, "platform": 1, "deliveryStatus": 0, "accountTenure": 4, "playTime": 3,
                                "lifetimeDollarsRefunded": 1, "lifetimeDollarsPurchased": 3, "userStatus": 1, "refundPreference": 2])

            // Unknown fields stay undeclared (0), a missing token is "" and no preference is left out.
            try await client.sendConsumptionData(transactionId: "78", request: ConsumptionRequestV1(
                customerConsented: true, sampleContentProvided: false, deliveryStatus: .didNotDeliverForOtherReason))
            let minimal = try #require(harness.extra.read { $0.more.consumptionV1["78"] })
            #expect(minimal["appAccountToken"] as? String == "")
            #expect(minimal["refundPreference"] == nil)
            #expect((minimal["deliveryStatus"] as? NSNumber)?.intValue == 5)
            #expect((minimal["userStatus"] as? NSNumber)?.intValue == 0)

            let refused = await apiError {
                try await client.sendConsumptionData(transactionId: "79", request: ConsumptionRequestV1(
                    customerConsented: false, sampleContentProvided: false, deliveryStatus: .deliveredWrongItem))
            }
            #expect(refused?.apiError == .invalidCustomerConsented)
        }
    }

    @Test func finishTransaction() async throws {
        try await Harness.with { harness in
            let jws = try harness.transaction("f1", type: .consumable)
            harness.fake.setTransactionInfo(jws, for: "f1")
            let client = try harness.client()
            try await client.finishTransaction(transactionId: "f1")
            #expect(harness.fake.requests.last.map { "\($0.method) \($0.path)" } == "POST /inApps/v1/transactions/f1/finish")
            #expect(harness.fake.requests.last?.body.isEmpty == true)
            #expect(harness.extra.read { $0.more.finished } == ["f1"])

            let unknown = await apiError { try await client.finishTransaction(transactionId: "nope") }
            #expect(unknown?.apiError == .transactionIdNotFound)
            #expect(unknown?.httpStatusCode == 404)
            #expect(harness.extra.read { $0.more.finished } == ["f1"])
        }
    }
}
#endif
