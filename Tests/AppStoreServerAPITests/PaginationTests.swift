#if ServerAPIClient
import AppStoreServerAPI
import AppStoreServerAPITesting
import AppStoreVerification
import AppStoreVerificationTesting
import Foundation
import Testing

@Suite(.timeLimit(.minutes(1)))
struct PaginationTests {
    @Test func wholeHistoryAcrossPagesFeedsTheEntitlementEngine() async throws {
        try await Harness.with { harness in
            let items = try (1...5).map { try harness.transaction("\($0)", productId: $0 == 3 ? "com.example.pro" : "com.example.coins\($0)", type: $0 == 3 ? .nonConsumable : .consumable) }
            harness.fake.setTransactionHistory(items, for: "1")
            let client = try harness.client()

            var engine = EntitlementEngine()
            var seen: [String] = []
            for try await transaction in client.transactionHistory(transactionId: "1") {
                #expect(transaction.isVerified, "\(String(describing: transaction.verificationError))")
                seen.append(transaction.unsafePayloadValue.transactionId)
                engine.ingest(transaction)
            }
            #expect(seen == ["1", "2", "3", "4", "5"])
            #expect(engine.currentEntitlements(at: Date()).map(\.productId) == ["com.example.pro"])

            let requests = harness.fake.requests
            #expect(requests.count == 3)
            #expect(requests.map { $0.queryValues("revision") } == [[], ["page-2"], ["page-4"]])
            #expect(requests.allSatisfy { $0.path == "/inApps/v2/history/1" && $0.method == "GET" })
        }
    }

    @Test func filtersAreSentWithEveryPage() async throws {
        try await Harness.with { harness in
            harness.fake.setTransactionHistory([], for: "9")
            let request = TransactionHistoryRequest(startDate: Date(timeIntervalSince1970: 1_700_000_000), endDate: Date(timeIntervalSince1970: 1_700_000_100.5),
                                                    productIds: ["a", "b c"], productTypes: [.autoRenewable, .consumable], sort: .descending,
                                                    subscriptionGroupIdentifiers: ["g1"], inAppOwnershipType: .familyShared, revoked: false)
            let page = try await harness.client().getTransactionHistory(transactionId: "9", request: request)
            #expect(page.transactions.isEmpty)
            #expect(page.hasMore == false)
            #expect(page.bundleId == Harness.bundleId)
            #expect(page.environment == .sandbox)
            let sent = try #require(harness.fake.requests.first)
            #expect(sent.queryValues("startDate") == ["1700000000000"])
            #expect(sent.queryValues("endDate") == ["1700000100500"])
            #expect(sent.queryValues("productId") == ["a", "b c"])
            #expect(sent.queryValues("productType") == ["AUTO_RENEWABLE", "CONSUMABLE"])
            #expect(sent.queryValues("sort") == ["DESCENDING"])
            #expect(sent.queryValues("subscriptionGroupIdentifier") == ["g1"])
            #expect(sent.queryValues("inAppOwnershipType") == ["FAMILY_SHARED"])
            #expect(sent.queryValues("revoked") == ["false"])
        }
    }

    @Test func aTamperedItemIsUnverifiedAndTheRestStillReturned() async throws {
        try await Harness.with { harness in
            var items = try (1...5).map { try harness.transaction("\($0)") }
            items[2] = try Harness.tampered(items[2])
            harness.fake.setTransactionHistory(items, for: "1")
            let all = try await harness.client().transactionHistory(transactionId: "1").collect()
            #expect(all.count == 5)
            #expect(all.map(\.isVerified) == [true, true, false, true, true])
            let rejected = all[2]
            #expect(rejected.unsafePayloadValue.productId == "com.example.gold")
            #expect(rejected.verificationError != nil)

            var engine = EntitlementEngine()
            let report = engine.ingest(rejected)
            #expect(report.rejections.count == 1)
        }
    }

    @Test func aStringThatIsNotSignedDataMakesThePageMalformed() async throws {
        try await Harness.with { harness in
            harness.fake.setTransactionHistory(["not-a-jws"], for: "1")
            await #expect {
                _ = try await harness.client().getTransactionHistory(transactionId: "1")
            } throws: { error in
                (error as? AppStoreServerAPIError)?.code == .malformedResponse
                    && (error as? AppStoreServerAPIError)?.message.contains("signedTransactions[0]") == true
            }
        }
    }

    @Test func aFailedPageEndsTheLoopAfterTheItemsAlreadyYielded() async throws {
        try await Harness.with { harness in
            let items = try (1...4).map { try harness.transaction("\($0)") }
            harness.fake.setTransactionHistory(items, for: "1")
            let client = try harness.client()
            var seen = 0
            var iterator = client.transactionHistory(transactionId: "1").makeAsyncIterator()
            _ = try await iterator.next()
            _ = try await iterator.next()
            seen = 2
            harness.fake.enqueue(.apiError(status: 400, code: .invalidRequestRevision, message: "Invalid request revision."))
            await #expect {
                _ = try await iterator.next()
            } throws: { error in
                (error as? AppStoreServerAPIError)?.apiError == .invalidRequestRevision
            }
            #expect(seen == 2)
            #expect(try await iterator.next() == nil)
        }
    }

    @Test func refundHistoryAcrossPages() async throws {
        try await Harness.with { harness in
            let items = try (1...3).map { try harness.transaction("r\($0)") }
            harness.fake.setRefundHistory(items, for: "7")
            let all = try await harness.client().refundHistory(transactionId: "7").collect()
            #expect(all.map { $0.unsafePayloadValue.transactionId } == ["r1", "r2", "r3"])
            #expect(all.allSatisfy { $0.isVerified })
            #expect(harness.fake.requests.map(\.path) == ["/inApps/v2/refund/lookup/7", "/inApps/v2/refund/lookup/7"])
            #expect(harness.fake.requests.last?.queryValues("revision") == ["page-2"])
        }
    }

    @Test func notificationHistoryPostsTheRequestAndFollowsThePaginationToken() async throws {
        try await Harness.with { harness in
            let notifications = try (1...3).map { index in
                try harness.minter.notification(ResponseBodyV2DecodedPayload(notificationType: .didRenew),
                                                transaction: Transaction(transactionId: "n\(index)", productId: "com.example.pro"))
            }
            harness.fake.setNotificationHistory(notifications.map { payload in
                FakeAppStoreServerAPI.NotificationHistoryEntry(
                    signedPayload: payload, sendAttempts: [FakeAppStoreServerAPI.SendAttempt(date: Date(timeIntervalSince1970: 1_700_000_000), result: .success)])
            })
            // A range holding the notifications' signedDate (now): the fake, as Apple, serves only those.
            let startMilliseconds = Int64(Date().timeIntervalSince1970 * 1000) - 86_400_000
            let endMilliseconds = startMilliseconds + 2 * 86_400_000
            let request = NotificationHistoryRequest(startDate: Date(timeIntervalSince1970: Double(startMilliseconds) / 1000),
                                                     endDate: Date(timeIntervalSince1970: Double(endMilliseconds) / 1000),
                                                     notificationType: .didRenew, onlyFailures: true)
            let all = try await harness.client().notificationHistory(request: request).collect()
            #expect(all.count == 3)
            for item in all {
                #expect(item.notification.isVerified)
                let nested = try #require(try item.notification.unsafePayloadValue.transactionInfo?.get())
                #expect(nested.isVerified)
                #expect(item.sendAttempts.first?.sendAttemptResult == .success)
                #expect(item.sendAttempts.first?.attemptDate == Date(timeIntervalSince1970: 1_700_000_000))
            }
            let requests = harness.fake.requests
            #expect(requests.map(\.method) == ["POST", "POST"])
            #expect(requests.map { $0.queryValues("paginationToken") } == [[], ["page-2"]])
            let body = try #require(try JSONSerialization.jsonObject(with: requests[0].body) as? [String: Any])
            #expect((body["startDate"] as? NSNumber)?.int64Value == startMilliseconds)
            #expect((body["endDate"] as? NSNumber)?.int64Value == endMilliseconds)
            #expect(body["notificationType"] as? String == "DID_RENEW")
            #expect(body["onlyFailures"] as? Bool == true)
            #expect(body["transactionId"] == nil)
        }
    }
}
#endif
