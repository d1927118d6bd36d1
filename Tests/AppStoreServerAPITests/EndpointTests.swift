#if ServerAPIClient
import AppStoreServerAPI
import AppStoreServerAPITesting
import AppStoreVerification
import AppStoreVerificationTesting
import Foundation
import Testing

@Suite(.timeLimit(.minutes(1)))
struct EndpointTests {
    @Test func subscriptionStatusesVerifyTransactionAndRenewalInfo() async throws {
        try await Harness.with { harness in
            let transaction = try harness.transaction("11", originalTransactionId: "10", type: .autoRenewableSubscription,
                                                      expiresDate: Date(timeIntervalSinceNow: 86_400), groupId: "g1")
            let renewal = try harness.minter.renewalInfo(RenewalInfo(originalTransactionId: "10", productId: "com.example.pro"))
            let tampered = try Harness.tampered(try harness.transaction("21", originalTransactionId: "20", type: .autoRenewableSubscription, groupId: "g1"))
            harness.fake.setSubscriptionStatuses([FakeAppStoreServerAPI.SubscriptionGroupStatus(subscriptionGroupIdentifier: "g1", lastTransactions: [
                FakeAppStoreServerAPI.LastTransaction(status: .active, originalTransactionId: "10", signedTransactionInfo: transaction, signedRenewalInfo: renewal),
                FakeAppStoreServerAPI.LastTransaction(status: .expired, originalTransactionId: "20", signedTransactionInfo: tampered, signedRenewalInfo: nil),
            ])], for: "11")
            let client = try harness.client()
            let response = try await client.getAllSubscriptionStatuses(transactionId: "11")
            #expect(response.environment == .sandbox)
            #expect(response.bundleId == Harness.bundleId)
            #expect(response.appAppleId == 1234)
            let group = try #require(response.data.first)
            #expect(group.subscriptionGroupIdentifier == "g1")
            #expect(group.lastTransactions.count == 2)
            let active = group.lastTransactions[0]
            #expect(active.status == .active)
            #expect(active.originalTransactionId == "10")
            #expect(active.transaction?.isVerified == true)
            #expect(active.renewalInfo?.isVerified == true)
            #expect(active.renewalInfo?.unsafePayloadValue.originalTransactionId == "10")
            #expect(group.lastTransactions[1].transaction?.isVerified == false)
            #expect(group.lastTransactions[1].renewalInfo == nil)

            let onlyActive = try await client.getAllSubscriptionStatuses(transactionId: "11", status: [.active])
            #expect(onlyActive.data.first?.lastTransactions.count == 1)
            #expect(harness.fake.requests.last?.queryValues("status") == ["1"])
        }
    }

    @Test func transactionInfoAndAppTransactionInfo() async throws {
        try await Harness.with { harness in
            let jws = try harness.transaction("42")
            let app = try harness.minter.appTransaction(AppTransaction())
            harness.fake.setTransactionInfo(jws, for: "42")
            harness.fake.setAppTransactionInfo(app, for: "42")
            let client = try harness.client()
            let transaction = try await client.getTransactionInfo(transactionId: "42")
            #expect(transaction.isVerified)
            #expect(transaction.jwsRepresentation == jws)
            #expect(harness.fake.requests.last?.path == "/inApps/v1/transactions/42")
            let appTransaction = try await client.getAppTransactionInfo(transactionId: "42")
            #expect(appTransaction.isVerified, "\(String(describing: appTransaction.verificationError))")
            #expect(harness.fake.requests.last?.path == "/inApps/v1/transactions/appTransactions/42")
        }
    }

    @Test func notFoundIsATypedAPIError() async throws {
        try await Harness.with { harness in
            let client = try harness.client()
            do {
                _ = try await client.getTransactionInfo(transactionId: "404")
                Issue.record("expected an error")
            } catch let error as AppStoreServerAPIError {
                #expect(error.code == .apiError)
                #expect(error.httpStatusCode == 404)
                #expect(error.apiError == .transactionIdNotFound)
                #expect(error.apiError?.isDocumented == true)
                #expect(error.apiErrorMessage == "Transaction id not found.")
                #expect(error.message.contains("GET /inApps/v1/transactions/404"))
                #expect(!error.isRetryable)
            }
            #expect(harness.fake.requests.count == 1)
        }
    }

    @Test func anUndocumentedErrorCodeIsKeptRaw() async throws {
        try await Harness.with { harness in
            harness.fake.enqueue(.apiError(status: 400, code: APIErrorCode(rawValue: 4009999), message: "Something new."))
            do {
                _ = try await harness.client().getTransactionInfo(transactionId: "1")
                Issue.record("expected an error")
            } catch let error as AppStoreServerAPIError {
                #expect(error.apiError?.rawValue == 4009999)
                #expect(error.apiError?.isDocumented == false)
            }
        }
    }

    @Test func identifiersArePercentEncodedAndEmptyOnesRefused() async throws {
        try await Harness.with { harness in
            let client = try harness.client()
            await #expect {
                _ = try await client.getTransactionInfo(transactionId: "a/b?c")
            } throws: { error in (error as? AppStoreServerAPIError)?.httpStatusCode == 404 }
            #expect(harness.fake.requests.last?.path == "/inApps/v1/transactions/a%2Fb%3Fc")
            await #expect {
                _ = try await client.getTransactionInfo(transactionId: "")
            } throws: { error in (error as? AppStoreServerAPIError)?.code == .invalidRequest }
            #expect(harness.fake.requests.count == 1)
        }
    }

    @Test func lookUpOrderId() async throws {
        try await Harness.with { harness in
            let items = try [harness.transaction("o1"), harness.transaction("o2")]
            harness.fake.setOrder(items, for: "MK5TTTVWJH")
            let client = try harness.client()
            let valid = try await client.lookUpOrderId(orderId: "MK5TTTVWJH")
            #expect(valid.status == .valid)
            #expect(valid.transactions.map { $0.unsafePayloadValue.transactionId } == ["o1", "o2"])
            #expect(valid.transactions.allSatisfy { $0.isVerified })
            #expect(harness.fake.requests.last?.path == "/inApps/v1/lookup/MK5TTTVWJH")
            let invalid = try await client.lookUpOrderId(orderId: "NOPE")
            #expect(invalid.status == .invalid)
            #expect(invalid.transactions.isEmpty)
        }
    }

    @Test func testNotificationRequestAndStatus() async throws {
        try await Harness.with { harness in
            let payload = try harness.minter.notification(ResponseBodyV2DecodedPayload(notificationType: .test,
                                                                                       data: NotificationData(environment: .sandbox, bundleId: Harness.bundleId)))
            harness.fake.setTestNotification(token: "test-token-1", FakeAppStoreServerAPI.NotificationHistoryEntry(
                signedPayload: payload, sendAttempts: [FakeAppStoreServerAPI.SendAttempt(date: Date(timeIntervalSince1970: 1_700_000_000), result: .noResponse)]))
            let client = try harness.client()
            let token = try await client.requestTestNotification()
            #expect(token == "test-token-1")
            #expect(harness.fake.requests.last.map { "\($0.method) \($0.path)" } == "POST /inApps/v1/notifications/test")
            let status = try await client.getTestNotificationStatus(testNotificationToken: token)
            #expect(status.notification?.isVerified == true)
            #expect(status.notification?.unsafePayloadValue.notificationType == .test)
            #expect(status.sendAttempts.first?.sendAttemptResult == .noResponse)
            #expect(harness.fake.requests.last?.path == "/inApps/v1/notifications/test/test-token-1")
        }
    }

    @Test func extendRenewalDateAndSetAppAccountToken() async throws {
        try await Harness.with { harness in
            let client = try harness.client()
            let response = try await client.extendSubscriptionRenewalDate(
                originalTransactionId: "10", request: ExtendRenewalDateRequest(extendByDays: 30, extendReasonCode: .serviceIssueOrOutage, requestIdentifier: "req-1"))
            #expect(response.success == true)
            #expect(response.originalTransactionId == "10")
            #expect(response.webOrderLineItemId == "wo-10")
            #expect(response.effectiveDate == Date(timeIntervalSince1970: 1_800_000_000))
            let sent = try #require(harness.extra.read { $0.extensions["10"] })
            #expect((sent["extendByDays"] as? NSNumber)?.intValue == 30)
            #expect((sent["extendReasonCode"] as? NSNumber)?.intValue == 3)
            #expect(sent["requestIdentifier"] as? String == "req-1")
            #expect(harness.fake.requests.last.map { "\($0.method) \($0.path)" } == "PUT /inApps/v1/subscriptions/extend/10")

            await #expect {
                _ = try await client.extendSubscriptionRenewalDate(
                    originalTransactionId: "10", request: ExtendRenewalDateRequest(extendByDays: 91, extendReasonCode: .other, requestIdentifier: "req-2"))
            } throws: { error in (error as? AppStoreServerAPIError)?.apiError == .invalidExtendByDays }

            let token = try #require(UUID(uuidString: "7E3FB20B-4CDB-47CC-936D-99D65F608138"))
            try await client.setAppAccountToken(originalTransactionId: "10", appAccountToken: token)
            #expect(harness.extra.read { $0.appAccountTokens["10"] } == "7e3fb20b-4cdb-47cc-936d-99d65f608138")
            #expect(harness.fake.requests.last.map { "\($0.method) \($0.path)" } == "PUT /inApps/v1/transactions/10/appAccountToken")
        }
    }

    @Test func sendConsumptionInformation() async throws {
        try await Harness.with { harness in
            let client = try harness.client()
            try await client.sendConsumptionInformation(
                transactionId: "55", request: ConsumptionRequest(customerConsented: true, sampleContentProvided: false, deliveryStatus: .delivered,
                                                                 consumptionPercentage: 25000, refundPreference: .grantProrated))
            // The fake's own route answered 202 and recorded the request.
            #expect(harness.fake.consumptionRequests == [FakeAppStoreServerAPI.ReceivedConsumptionRequest(
                transactionId: "55", customerConsented: true, sampleContentProvided: false, deliveryStatus: "DELIVERED",
                consumptionPercentage: 25000, refundPreference: "GRANT_PRORATED")])
            #expect(harness.fake.requests.last.map { "\($0.method) \($0.path)" } == "PUT /inApps/v2/transactions/consumption/55")

            // Without consent nothing is sent: the request breaks Apple's rule, and the error names
            // the code Apple would have answered.
            let sentBefore = harness.fake.requests.count
            let error = await apiError {
                try await client.sendConsumptionInformation(transactionId: "55", request: ConsumptionRequest(customerConsented: false, sampleContentProvided: false, deliveryStatus: .undeliveredOther))
            }
            #expect(error?.code == .invalidRequest)
            #expect(error?.apiError == .invalidCustomerConsented)
            #expect(harness.fake.requests.count == sentBefore)
        }
    }

    /// Apple's documented rules for `consumptionPercentage`, checked before anything is sent.
    @Test(arguments: [
        (ConsumptionRequest(customerConsented: true, sampleContentProvided: false, deliveryStatus: .delivered, consumptionPercentage: 100_001), ProductType?.none, "outside 0...100000"),
        (ConsumptionRequest(customerConsented: true, sampleContentProvided: false, deliveryStatus: .delivered, consumptionPercentage: -1), nil, "outside 0...100000"),
        (ConsumptionRequest(customerConsented: true, sampleContentProvided: false, deliveryStatus: .undeliveredServerOutage, consumptionPercentage: 500), nil, "requires 0"),
        (ConsumptionRequest(customerConsented: true, sampleContentProvided: false, deliveryStatus: .delivered, consumptionPercentage: 500), .autoRenewableSubscription, "auto-renewable"),
        (ConsumptionRequest(customerConsented: true, sampleContentProvided: true, deliveryStatus: .delivered, refundPreference: .grantProrated), nil, "GRANT_PRORATED"),
        (ConsumptionRequest(customerConsented: true, sampleContentProvided: true, deliveryStatus: .delivered, consumptionPercentage: 100_000, refundPreference: .grantProrated), nil, "GRANT_PRORATED"),
    ])
    func consumptionRulesAreCheckedBeforeSending(request: ConsumptionRequest, type: ProductType?, says: String) async throws {
        try await Harness.with { harness in
            let error = await apiError { try await harness.client().sendConsumptionInformation(transactionId: "55", request: request, productType: type) }
            #expect(error?.code == .invalidRequest)
            #expect(error?.message.contains(says) == true, "\(error?.message ?? "no error")")
            #expect(harness.fake.requests.isEmpty)
        }
    }

    /// What the rules allow goes out: a percentage of 0 for an undelivered item, none for an
    /// auto-renewable subscription.
    @Test func consumptionRequestsWithinTheRulesAreSent() async throws {
        try await Harness.with { harness in
            let client = try harness.client()
            try await client.sendConsumptionInformation(transactionId: "55", request: ConsumptionRequest(
                customerConsented: true, sampleContentProvided: false, deliveryStatus: .undeliveredOther, consumptionPercentage: 0))
            try await client.sendConsumptionInformation(transactionId: "56", request: ConsumptionRequest(
                customerConsented: true, sampleContentProvided: true, deliveryStatus: .delivered, refundPreference: .grantProrated),
                productType: .autoRenewableSubscription)
            #expect(harness.fake.requests.count == 2)
        }
    }
}
#endif
