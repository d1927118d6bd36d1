import AppStoreVerification
import AppStoreVerificationTestSupport
import AsyncHTTPClient
import Foundation
import ReceiptServerCore
import Testing

/// Every signed history of TestVectors/histories sent to the server as an app and Apple would send
/// it, then sent again in reverse order: the server's answers at each check instant must be the
/// states the manifest lists, both times, and the second pass must store nothing. Each answer (from
/// stored records, verifying nothing) must also equal the answer recomputed from scratch by
/// verifying every stored JWS of the customer again, and the stored history the recomputed one.
/// On both stores.
@Suite("Signed histories replayed over HTTP", .timeLimit(.minutes(3)))
struct HistoryReplayTests {
    static let historyNames: [String] = SignedHistory.all.map(\.name)

    @Test("The manifest lists histories")
    func manifestIsPresent() throws {
        #expect(SignedHistory.all.count >= 10)
    }

    @Test("Replay matches the manifest and recomputation from scratch", arguments: historyNames, StoreKind.allCases)
    func replay(name: String, store: StoreKind) async throws {
        let history = try #require(SignedHistory.all.first { $0.name == name })
        let lines = try TestData.historyLines(name)
        let customer = UUID().uuidString.lowercased()
        let directory = try await TestDatabase.make(store)
        defer { directory.remove() }
        let server = try await TestServer.start(
            databasePath: directory.databasePath, root: TestData.historiesRoot,
            now: Date(timeIntervalSince1970: 0), nonRenewingDurations: history.configuration.nonRenewingDurations, testing: .router)
        do {
            try await send(lines, in: Array(lines.indices), to: server, customer: customer, history: history)
            try await check(history, server: server, customer: customer)
            try await checkRecomputation(history, server: server, customer: customer)
            let stored = try await server.store.count()

            try await send(lines, in: lines.indices.reversed(), to: server, customer: customer, history: history)
            try await check(history, server: server, customer: customer)
            try await checkRecomputation(history, server: server, customer: customer)
            #expect(try await server.store.count() == stored, "the second pass stores nothing new")
        } catch {
            try await server.stop()
            throw error
        }
        try await server.stop()
    }

    /// Sends lines as the app (transactions, renewal info with a transaction of its purchase) and
    /// Apple (notifications) would.
    func send(_ lines: [String], in order: [Int], to server: TestServer, customer: String, history: SignedHistory) async throws {
        for index in order {
            let line = lines[index]
            let answer: TestServer.Answer
            if line.hasPrefix("{") {
                answer = try await server.postNotificationBody(line)
            } else {
                let payload = TestData.unverifiedPayload(line)
                if payload["notificationType"] != nil {
                    answer = try await server.postNotification(line)
                    try await sendPurchaseTheAppWouldSend(of: payload, lines: lines, to: server, customer: customer, history: history)
                } else if payload["transactionId"] != nil {
                    answer = try await server.postTransaction(line, appAccountToken: customer)
                } else {
                    // Renewal info: the app sends it with a transaction of the same purchase.
                    let purchase = payload["originalTransactionId"] as? String
                    let transaction = try #require(lines.first { candidate in
                        let other = TestData.unverifiedPayload(candidate)
                        return other["transactionId"] != nil && other["originalTransactionId"] as? String == purchase
                    }, "\(history.name) line \(index + 1): no transaction of purchase \(purchase ?? "?") to send the renewal info with")
                    answer = try await server.postTransaction(transaction, appAccountToken: customer, signedRenewalInfo: line)
                }
            }
            if let rejected = history.rejected.first(where: { $0.line == index + 1 }) {
                #expect(answer.status == 422, "\(history.name) line \(index + 1): \(answer.text)")
                #expect(answer.errorMessage?.contains(rejected.code) == true, "\(history.name) line \(index + 1): \(answer.text)")
            } else {
                #expect(answer.status == 200, "\(history.name) line \(index + 1): \(answer.text)")
            }
        }
    }

    /// The histories carry no appAccountToken, and some purchases appear only inside notifications.
    /// A real app sends each of its purchases once (`Transaction.updates`); do that here with the
    /// notification's signedTransactionInfo, so the purchase is linked to the customer.
    func sendPurchaseTheAppWouldSend(of notification: [String: Any], lines: [String], to server: TestServer, customer: String, history: SignedHistory) async throws {
        guard let inner = (notification["data"] as? [String: Any])?["signedTransactionInfo"] as? String else { return }
        let purchase = TestData.unverifiedPayload(inner)["originalTransactionId"] as? String
        let appSendsIt = lines.contains { line in
            let payload = TestData.unverifiedPayload(line)
            return payload["transactionId"] != nil && payload["originalTransactionId"] as? String == purchase
        }
        guard !appSendsIt else { return }
        let answer = try await server.postTransaction(inner, appAccountToken: customer)
        #expect(answer.status == 200, "\(history.name): the app sending purchase \(purchase ?? "?"): \(answer.text)")
    }

    /// Every check of the manifest against `GET /customers/{customer}/entitlements?at=`.
    func check(_ history: SignedHistory, server: TestServer, customer: String) async throws {
        for check in history.checks {
            let answer = try await server.entitlements(of: customer, atISO8601: check.at)
            #expect(answer.status == 200)
            let actual = answer.statuses.map { "\($0["productId"] as? String ?? "?") \($0["transactionId"] as? String ?? "?") \($0["state"] as? String ?? "?")" }.sorted()
            let expected = check.statuses.map { "\($0.productId) \($0.transactionId) \($0.state)" }.sorted()
            #expect(actual == expected, "\(history.name) at \(check.at)")
            let granted = answer.entitlements.map { "\($0["productId"] as? String ?? "?") \($0["transactionId"] as? String ?? "?") \($0["state"] as? String ?? "?")" }.sorted()
            let expectedGranted = check.statuses.filter { ["purchased", "subscribed", "inGracePeriod"].contains($0.state) }
                .map { "\($0.productId) \($0.transactionId) \($0.state)" }.sorted()
            #expect(granted == expectedGranted, "\(history.name) at \(check.at): granted")
        }
    }

    /// The server's answer at every check instant equals the one recomputed from scratch (every
    /// stored JWS of the customer verified again), and the stored history equals the recomputed one.
    func checkRecomputation(_ history: SignedHistory, server: TestServer, customer: String) async throws {
        let verifier = try SignedDataVerifier(configuration: .init(
            trustedRoots: try TrustedRoot.roots(contentsOf: TestData.historiesRoot), bundleId: "com.example.app", environment: .sandbox))
        let configuration = EntitlementEngine.Configuration(nonRenewingDurations: history.configuration.nonRenewingDurations)
        let rows = try await server.store.signedData(forCustomer: customer)
        #expect(!rows.isEmpty, "\(history.name): the customer has stored data")
        let (recomputed, rejected) = Recomputation.engine(rows: rows, verifier: verifier, configuration: configuration)
        #expect(rejected.isEmpty, "\(history.name): every stored JWS verifies again")
        #expect(try await server.store.history(forCustomer: customer) == recomputed.history, "\(history.name): stored history")
        for check in history.checks {
            let answer = try await server.entitlements(of: customer, atISO8601: check.at)
            let served = try JSONDecoder().decode(EntitlementsAnswer.self, from: answer.body)
            let expected = Recomputation.answer(
                rows: rows, customer: customer, at: Date(timeIntervalSince1970: Double(served.at) / 1000),
                verifier: verifier, configuration: configuration)
            #expect(served == expected, "\(history.name) at \(check.at): served answer equals recomputation from scratch")
        }
    }
}
