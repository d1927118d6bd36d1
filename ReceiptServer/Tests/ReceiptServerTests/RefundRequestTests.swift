import AppStoreServerAPI
import AppStoreServerAPITesting
import AppStoreVerification
import AppStoreVerificationTesting
import AsyncHTTPClient
import Foundation
import NIOCore
import ReceiptServerCore
import Testing

/// Refund requests answered: a verified `CONSUMPTION_REQUEST` makes the server send Send
/// Consumption Information v2 to the library's fake App Store (which records what it receives),
/// built from the consent and facts the backend stored, once, durably, within Apple's 12 hours.
@Suite("Refund requests: CONSUMPTION_REQUEST answered with consumption information", .timeLimit(.minutes(3)))
struct RefundRequestTests {
    typealias AppleFake = AppStoreServerAPITesting.FakeAppStoreServerAPI
    static let customer = BackfillTests.customer
    static let hour: TimeInterval = 3600

    /// A consumable bought an hour before the world's `now`, its CONSUMPTION_REQUEST, and a second
    /// purchase of the same customer (a marker that the sender has got past the first).
    struct World {
        let inner: BackfillTests.World

        init() throws { inner = try BackfillTests.World() }

        var now: Date { inner.now }

        func purchase(_ transactionId: String, type: ProductType = .consumable) -> Transaction {
            Transaction(transactionId: transactionId, productId: "com.example.app.gems", purchaseDate: now.addingTimeInterval(-2 * RefundRequestTests.hour),
                        type: type, appAccountToken: RefundRequestTests.customer, signedDate: now.addingTimeInterval(-2 * RefundRequestTests.hour))
        }

        func consumptionRequest(_ transaction: Transaction, signed ago: TimeInterval = 60) throws -> String {
            try inner.notification(.consumptionRequest, signed: ago, transaction: transaction)
        }

        func signedTransaction(_ transaction: Transaction) throws -> String {
            try inner.minter.transaction(transaction)
        }
    }

    static func reconcile(_ world: World, _ fake: AppleFake, options: AppStoreServerAPIClient.Options = ReconcileTests.options) -> ReconcileConfiguration {
        ReconcileConfiguration(signingKey: world.inner.apiKey, keyId: ReconcileTests.keyId, issuerId: ReconcileTests.issuerId,
                               environment: .sandbox, baseURL: fake.baseURL, options: options)
    }

    static func json(_ object: [String: Any]) throws -> Data {
        try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
    }

    /// Runs `body` with a fake App Store and a server answering refund requests on a fresh database.
    static func with(_ store: StoreKind = .sqlite, now: Date? = nil, answers: RefundAnswerConfiguration = RefundAnswerConfiguration(refundPreference: .decline),
                     options: AppStoreServerAPIClient.Options = ReconcileTests.options, testing: TestServer.Testing = .router,
                     _ body: (TestServer, AppleFake, World) async throws -> Void) async throws {
        let world = try World()
        let database = try await TestDatabase.make(store)
        defer { database.remove() }
        try await AppleFake.withServer(keyId: ReconcileTests.keyId, issuerId: ReconcileTests.issuerId, bundleId: "com.example.app",
                                       publicKey: world.inner.apiKey.publicKeyDER) { fake in
            let server = try await TestServer.start(databasePath: database.location, roots: [world.inner.pki.trustedRoot], now: now ?? world.now,
                                                    reconcile: reconcile(world, fake, options: options), refundAnswers: answers, testing: testing)
            try await server.stopping { try await body(server, fake, world) }
        }
    }

    static func consumptionPuts(_ fake: AppleFake) -> [AppleFake.Request] {
        fake.requests.filter { $0.method == "PUT" && $0.path.hasPrefix("/inApps/v2/transactions/consumption/") }
    }

    @Test("Consent and facts give exactly the expected request; the same notification twice is answered once", arguments: StoreKind.allCases)
    func consentAndFactsAnswered(store: StoreKind) async throws {
        try await Self.with(store) { server, fake, world in
            let gems = world.purchase("9100000000000001")
            #expect(try await server.postTransaction(try world.signedTransaction(gems), as: .anonymous).status == 200)
            let consent = try await server.request(.PUT, "/customers/\(Self.customer)/consumption-consent", body: try Self.json(["consented": true]))
            #expect(consent.status == 200, "\(consent.text)")
            let facts = try await server.request(.PUT, "/transactions/9100000000000001/consumption",
                                                 body: try Self.json(["consumptionPercentage": 25000, "sampleContentProvided": true]))
            #expect(facts.status == 200, "\(facts.text)")
            // Only the backend may tell the server these facts.
            #expect(try await server.request(.PUT, "/customers/\(Self.customer)/consumption-consent", body: try Self.json(["consented": true]), as: .anonymous).status == 401)
            #expect(try await server.request(.PUT, "/transactions/9100000000000001/consumption", body: try Self.json(["consumptionPercentage": 100001])).status == 400)

            let request = try world.consumptionRequest(gems)
            #expect(try await server.postNotification(request, as: .anonymous).status == 200)
            try await fake.waitUntil("the answer") { fake.consumptionRequests.count == 1 }
            // Apple retries the same notification: stored once, answered once. A second request (another
            // purchase) afterwards shows the sender went past the first.
            let again = try await server.postNotification(request, as: .anonymous)
            #expect(again.status == 200 && again.json["stored"] as? Bool == false, "\(again.text)")
            let other = world.purchase("9100000000000002")
            #expect(try await server.postTransaction(try world.signedTransaction(other), as: .anonymous).status == 200)
            #expect(try await server.postNotification(try world.consumptionRequest(other), as: .anonymous).status == 200)
            try await fake.waitUntil("the second answer") { fake.consumptionRequests.count == 2 }

            let sent = fake.consumptionRequests
            // The app sent the purchase: delivered. The backend's percentage and sample; the server's default preference.
            #expect(sent[0] == AppleFake.ReceivedConsumptionRequest(
                transactionId: "9100000000000001", customerConsented: true, sampleContentProvided: true, deliveryStatus: "DELIVERED",
                consumptionPercentage: 25000, refundPreference: "DECLINE"), "\(sent)")
            #expect(sent[1] == AppleFake.ReceivedConsumptionRequest(
                transactionId: "9100000000000002", customerConsented: true, sampleContentProvided: false, deliveryStatus: "DELIVERED",
                refundPreference: "DECLINE"), "\(sent)")
            #expect(Self.consumptionPuts(fake).count == 2)
            // Apple has the request before the sender reads Apple's 202 and counts it.
            try await server.waitUntilMetrics("both answers counted") { $0.metric(#"receipt_server_refund_requests_total{result="answered"}"#) == 2 }
        }
    }

    @Test("The console's refund page shows the consent, the facts, what was sent and Apple's answer")
    func consolePageShowsTheAnswer() async throws {
        try await Self.with(testing: .live) { server, fake, world in
            let gems = world.purchase("9400000000000001")
            #expect(try await server.postTransaction(try world.signedTransaction(gems), as: .anonymous).status == 200)
            #expect(try await server.request(.PUT, "/customers/\(Self.customer)/consumption-consent", body: try Self.json(["consented": true])).status == 200)
            #expect(try await server.request(.PUT, "/transactions/9400000000000001/consumption",
                                             body: try Self.json(["consumptionPercentage": 25000, "sampleContentProvided": true])).status == 200)
            #expect(try await server.postNotification(try world.consumptionRequest(gems), as: .anonymous).status == 200)
            try await server.waitUntilMetrics("the answer counted") { $0.metric(#"receipt_server_refund_requests_total{result="answered"}"#) == 1 }
            try await ConsoleBrowser.using(port: server.port) { browser in
                try await browser.signIn(token: TestServer.backendToken)
                let path = "/console/customers/\(Self.customer)/refunds"
                #expect(try await browser.get("/console/customers/\(Self.customer)").body.contains(path))
                let page = try await browser.get(path)
                #expect(page.status == 200)
                #expect(page.body.contains("<strong>given</strong>"), "\(page.body)")
                #expect(page.body.contains("9400000000000001"))
                #expect(page.body.contains("answered"))
                #expect(page.body.contains("25.000 %"))
                // What was sent, escaped (the JSON's quotes), with the server's default preference.
                #expect(page.body.contains("DECLINE"))
                #expect(page.body.contains("&quot;deliveryStatus&quot;"), "\(page.body)")
            }
            #expect(fake.consumptionRequests.count == 1)
        }
    }

    @Test("Without the customer's consent nothing is sent, and the metric says why", arguments: StoreKind.allCases)
    func noConsentSendsNothing(store: StoreKind) async throws {
        try await Self.with(store) { server, fake, world in
            let gems = world.purchase("9200000000000001")
            #expect(try await server.postTransaction(try world.signedTransaction(gems), as: .anonymous).status == 200)
            #expect(try await server.request(.PUT, "/customers/\(Self.customer)/consumption-consent", body: try Self.json(["consented": false])).status == 200)
            #expect(try await server.postNotification(try world.consumptionRequest(gems), as: .anonymous).status == 200)
            try await server.waitUntilMetrics("the skip") { $0.metric(#"receipt_server_refund_requests_total{result="skippedNoConsent"}"#) == 1 }
            #expect(Self.consumptionPuts(fake).isEmpty)
            #expect(fake.consumptionRequests.isEmpty)
        }
    }

    @Test("Apple's 429 with Retry-After: the answer waits for Apple's instant, then is sent")
    func rateLimitedThenSent() async throws {
        // One attempt per try, so the sender's own schedule meets Apple's Retry-After.
        let options = AppStoreServerAPIClient.Options(deadline: .seconds(20), requestTimeout: .seconds(10), maximumAttempts: 1,
                                                      initialBackoff: .milliseconds(50), maximumBackoff: .milliseconds(200))
        let answers = RefundAnswerConfiguration(refundPreference: .grantFull, initialBackoff: .milliseconds(10), maximumBackoff: .milliseconds(20))
        try await Self.with(answers: answers, options: options) { server, fake, world in
            let gems = world.purchase("9300000000000001")
            #expect(try await server.postTransaction(try world.signedTransaction(gems), as: .anonymous).status == 200)
            #expect(try await server.request(.PUT, "/customers/\(Self.customer)/consumption-consent", body: try Self.json(["consented": true])).status == 200)
            fake.enqueue(.rateLimited(retryAfter: 1))
            #expect(try await server.postNotification(try world.consumptionRequest(gems), as: .anonymous).status == 200)
            try await fake.waitUntil("the answer after the 429") { fake.consumptionRequests.count == 1 }
            let puts = Self.consumptionPuts(fake)
            #expect(puts.count == 2)
            if puts.count == 2 {
                // Apple asked for a second (as a UNIX time in milliseconds); the backoff alone was 10 ms.
                #expect(puts[1].receivedAt - puts[0].receivedAt >= .milliseconds(900))
            }
            #expect(fake.consumptionRequests.first?.refundPreference == "GRANT_FULL")
            try await server.waitUntilMetrics("the answer counted") { $0.metric(#"receipt_server_refund_requests_total{result="answered"}"#) == 1 }
            #expect(server.metric(#"receipt_server_refund_answer_retries_total"#) == 1)
        }
    }

    @Test("A request whose 12 hours are over is recorded as missed, not sent")
    func pastTwelveHoursMissed() async throws {
        try await Self.with { server, fake, world in
            let gems = world.purchase("9400000000000001")
            #expect(try await server.postTransaction(try world.signedTransaction(gems), as: .anonymous).status == 200)
            #expect(try await server.request(.PUT, "/customers/\(Self.customer)/consumption-consent", body: try Self.json(["consented": true])).status == 200)
            // Signed 13 hours before the server's now (the backfill finds such ones, or a server that was down).
            #expect(try await server.postNotification(try world.consumptionRequest(gems, signed: 13 * Self.hour), as: .anonymous).status == 200)
            try await server.waitUntilMetrics("the miss") { $0.metric(#"receipt_server_refund_requests_total{result="missed"}"#) == 1 }
            #expect(Self.consumptionPuts(fake).isEmpty)
        }
    }

    /// The files a ReceiptServer process reads: the test PKI's root, and a new In-App Purchase key
    /// as a .p8 file (with the key itself, for the fake App Store).
    static func processFiles(_ world: World, in directory: TemporaryDirectory) throws -> (root: URL, key: URL, apiKey: SigningKey) {
        let rootFile = directory.url.appendingPathComponent("root.der")
        try world.inner.pki.rootDER.write(to: rootFile)
        let privateKey = try TestPrivateKey(generating: .p256)
        let keyFile = directory.url.appendingPathComponent("api-key.p8")
        try Data(privateKey.pemEncoded.utf8).write(to: keyFile)
        return (rootFile, keyFile, try SigningKey(pem: privateKey.pemEncoded))
    }

    @Test("kill -9 after the acknowledgment: the restarted process sends the answer")
    func killedAfterAcknowledgment() async throws {
        let executable = try ServerProcess.requireExecutable()
        let world = try World()
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let (rootFile, keyFile, apiKey) = try Self.processFiles(world, in: directory)
        let client = HTTPClient.forTests()
        do {
            try await killAndRestart(executable: executable, world: world, directory: directory, rootFile: rootFile, keyFile: keyFile, apiKey: apiKey, client: client)
        } catch {
            try? await client.shutdown()
            throw error
        }
        try await client.shutdown()
    }

    private func killAndRestart(executable: URL, world: World, directory: TemporaryDirectory, rootFile: URL, keyFile: URL, apiKey: SigningKey,
                                client: HTTPClient) async throws {
        try await AppleFake.withServer(keyId: ReconcileTests.keyId, issuerId: ReconcileTests.issuerId, bundleId: "com.example.app",
                                       publicKey: apiKey.publicKeyDER) { fake in
            let environment = [
                "RECEIPT_SERVER_API_KEY_FILE": keyFile.path, "RECEIPT_SERVER_API_KEY_ID": ReconcileTests.keyId,
                "RECEIPT_SERVER_API_ISSUER_ID": ReconcileTests.issuerId, "RECEIPT_SERVER_API_BASE_URL": fake.baseURL,
                "RECEIPT_SERVER_BACKFILL_INTERVAL_MINUTES": "0", "RECEIPT_SERVER_ANSWER_CONSUMPTION_REQUESTS": "1",
                "RECEIPT_SERVER_REFUND_ANSWER_LEASE_SECONDS": "2",
            ]
            // The first process's answer gets no answer from Apple: it is in flight when the process dies.
            fake.enqueue(.noAnswer)
            let victim = try await ServerProcess.start(executable: executable, database: directory.databasePath, roots: [rootFile],
                                                       environment: environment)
            let gems = world.purchase("9500000000000001")
            let bearer = [("Authorization", "Bearer \(TestServer.backendToken)"), ("Content-Type", "application/json")]
            #expect(try await Self.send(client, victim.port, "POST", "/transactions", body: try Self.json(["signedTransaction": try world.signedTransaction(gems)])) == 200)
            #expect(try await Self.send(client, victim.port, "PUT", "/customers/\(Self.customer)/consumption-consent", headers: bearer,
                                        body: try Self.json(["consented": true])) == 200)
            #expect(try await Self.send(client, victim.port, "POST", "/notifications",
                                        body: try Self.json(["signedPayload": try world.consumptionRequest(gems)])) == 200)
            try await fake.waitUntil("the first process's attempt") { Self.consumptionPuts(fake).count == 1 }
            await victim.kill()
            #expect(fake.consumptionRequests.isEmpty)

            let restarted = try await ServerProcess.start(executable: executable, database: directory.databasePath, roots: [rootFile],
                                                          environment: environment)
            try await fake.waitUntil("the restarted process's answer") { fake.consumptionRequests.count == 1 }
            await restarted.stop()
            #expect(fake.consumptionRequests == [AppleFake.ReceivedConsumptionRequest(
                transactionId: "9500000000000001", customerConsented: true, sampleContentProvided: false, deliveryStatus: "DELIVERED")])
        }
    }

    @Test("A CONSUMPTION_REQUEST the backfill fetches (never POSTed) is answered too", arguments: StoreKind.allCases)
    func backfilledRequestAnswered(store: StoreKind) async throws {
        let world = try World()
        let database = try await TestDatabase.make(store)
        defer { database.remove() }
        let gems = world.purchase("9600000000000001")
        // Before: the app sent the purchase and the backend the customer's consent and facts.
        let before = try await TestServer.start(databasePath: database.location, roots: [world.inner.pki.trustedRoot], now: world.now, testing: .router)
        try await before.stopping { () async throws in
            #expect(try await before.postTransaction(try world.signedTransaction(gems), as: .anonymous).status == 200)
            #expect(try await before.request(.PUT, "/customers/\(Self.customer)/consumption-consent", body: try Self.json(["consented": true])).status == 200)
            #expect(try await before.request(.PUT, "/transactions/9600000000000001/consumption",
                                             body: try Self.json(["consumptionPercentage": 50000])).status == 200)
        }
        // While the server was down, Apple sent the refund request: only Get Notification History has it.
        let request = try world.consumptionRequest(gems)
        try await AppleFake.withServer(keyId: ReconcileTests.keyId, issuerId: ReconcileTests.issuerId, bundleId: "com.example.app",
                                       publicKey: world.inner.apiKey.publicKeyDER) { fake in
            fake.setNotificationHistory([.init(signedPayload: request)])
            let reports = BackfillTests.Reports()
            let server = try await TestServer.start(
                databasePath: database.location, roots: [world.inner.pki.trustedRoot], now: world.now, reconcile: Self.reconcile(world, fake),
                backfill: BackfillConfiguration(interval: .seconds(3600), margin: .seconds(3600), initialWindow: .seconds(86_400)),
                refundAnswers: RefundAnswerConfiguration(refundPreference: .decline), onBackfill: { reports.continuation.yield($0) }, testing: .router)
            try await server.stopping {
                let report = try await reports.next()
                #expect(report.failure == nil, "\(report)")
                #expect(report.stored == 1)
                try await fake.waitUntil("the backfilled request's answer") { fake.consumptionRequests.count == 1 }
                #expect(fake.consumptionRequests == [AppleFake.ReceivedConsumptionRequest(
                    transactionId: "9600000000000001", customerConsented: true, sampleContentProvided: false, deliveryStatus: "DELIVERED",
                    consumptionPercentage: 50000, refundPreference: "DECLINE")])
                try await server.waitUntilMetrics("the answer counted") { $0.metric(#"receipt_server_refund_requests_total{result="answered"}"#) == 1 }
                // Apple sends it again later (a retry reaching the server): stored once, answered once.
                let again = try await server.postNotification(request, as: .anonymous)
                #expect(again.status == 200 && again.json["stored"] as? Bool == false, "\(again.text)")
                #expect(Self.consumptionPuts(fake).count == 1)
            }
        }
    }

    @Test("Two processes on one PostgreSQL send each answer once")
    func twoProcessesAnswerOnce() async throws {
        let executable = try ServerProcess.requireExecutable()
        let world = try World()
        let database = try await TestDatabase.make(.postgres)
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let (rootFile, keyFile, apiKey) = try Self.processFiles(world, in: directory)
        let client = HTTPClient.forTests()
        do {
            try await AppleFake.withServer(keyId: ReconcileTests.keyId, issuerId: ReconcileTests.issuerId, bundleId: "com.example.app",
                                           publicKey: apiKey.publicKeyDER) { fake in
                let environment = [
                    "RECEIPT_SERVER_API_KEY_FILE": keyFile.path, "RECEIPT_SERVER_API_KEY_ID": ReconcileTests.keyId,
                    "RECEIPT_SERVER_API_ISSUER_ID": ReconcileTests.issuerId, "RECEIPT_SERVER_API_BASE_URL": fake.baseURL,
                    "RECEIPT_SERVER_BACKFILL_INTERVAL_MINUTES": "0", "RECEIPT_SERVER_ANSWER_CONSUMPTION_REQUESTS": "1",
                    "RECEIPT_SERVER_REFUND_PREFERENCE": "DECLINE",
                ]
                let servers = [
                    try await ServerProcess.start(executable: executable, database: database.location, roots: [rootFile], environment: environment),
                    try await ServerProcess.start(executable: executable, database: database.location, roots: [rootFile], environment: environment),
                ]
                do {
                    try await Self.answerOnce(servers: servers, world: world, fake: fake, client: client)
                } catch {
                    for server in servers { print(server.log.suffix(2000)) }
                    for server in servers { await server.stop() }
                    throw error
                }
            }
        } catch {
            try? await client.shutdown()
            throw error
        }
        try await client.shutdown()
    }

    private static func answerOnce(servers: [ServerProcess], world: World, fake: AppleFake, client: HTTPClient) async throws {
        let bearer = [("Authorization", "Bearer \(TestServer.backendToken)"), ("Content-Type", "application/json")]
        let ids = (1...8).map { String(9_700_000_000_000_000 + $0) }
        let purchases = ids.map { world.purchase($0) }
        for (index, gems) in purchases.enumerated() {
            #expect(try await Self.send(client, servers[index % 2].port, "POST", "/transactions",
                                        body: try Self.json(["signedTransaction": try world.signedTransaction(gems)])) == 200)
        }
        #expect(try await Self.send(client, servers[0].port, "PUT", "/customers/\(Self.customer)/consumption-consent", headers: bearer,
                                    body: try Self.json(["consented": true])) == 200)
        // Every request reaches one process or the other, all at once: each process's sender, woken
        // by its own, leases whatever is due in the shared table, the other's included.
        let requests = try purchases.map { try Self.json(["signedPayload": try world.consumptionRequest($0)]) }
        let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
            for (index, body) in requests.enumerated() {
                let port = servers[index % 2].port
                group.addTask { try await Self.send(client, port, "POST", "/notifications", body: body) }
            }
            return try await group.reduce(into: [Int]()) { $0.append($1) }
        }
        #expect(statuses == Array(repeating: 200, count: ids.count))
        try await fake.waitUntil("every answer") { Set(fake.consumptionRequests.map(\.transactionId)) == Set(ids) }
        // Each process counts what it sent once Apple answered 202, then logs it: together, each
        // request once.
        let answered = "refund request answered"
        try await ServerProcess.waitUntil(servers, "both processes' answers logged") {
            servers.reduce(0) { $0 + $1.linesLogged(containing: answered) } >= ids.count
        }
        let series = #"receipt_server_refund_requests_total{result="answered"}"#
        var counted: [Double] = []
        for server in servers {
            let count = try await Self.processMetric(client, server.port, series) ?? 0
            #expect(count == Double(server.linesLogged(containing: answered)), "the count and the log agree")
            counted.append(count)
        }
        #expect(counted.reduce(0, +) == Double(ids.count), "answered per process: \(counted)")
        // Both stop gracefully (nothing in flight is sent twice after this) before counting.
        for server in servers { await server.stop() }
        let sent = fake.consumptionRequests
        #expect(sent.count == ids.count, "each answer sent once: \(sent.map(\.transactionId).sorted())")
        #expect(Self.consumptionPuts(fake).count == ids.count)
        #expect(Set(sent) == Set(ids.map {
            AppleFake.ReceivedConsumptionRequest(transactionId: $0, customerConsented: true, sampleContentProvided: false, deliveryStatus: "DELIVERED",
                                                 refundPreference: "DECLINE")
        }))
    }

    /// One series of a server process's `GET /metrics` (read with the access token), or `nil` when absent.
    static func processMetric(_ client: HTTPClient, _ port: Int, _ series: String) async throws -> Double? {
        var request = HTTPClientRequest(url: "http://127.0.0.1:\(port)/metrics")
        request.headers.add(name: "Authorization", value: "Bearer \(TestServer.backendToken)")
        let response = try await client.execute(request, timeout: .seconds(30))
        let text = String(buffer: try await response.body.collect(upTo: 4 << 20))
        guard response.status.code == 200 else { throw TestServerError("GET /metrics answered \(response.status.code): \(text.prefix(200))") }
        for line in text.split(separator: "\n") where line.hasPrefix(series + " ") {
            return Double(line.dropFirst(series.count + 1))
        }
        return nil
    }

    /// One request to a server process; its status.
    static func send(_ client: HTTPClient, _ port: Int, _ method: String, _ path: String, headers: [(String, String)] = [("Content-Type", "application/json")],
                     body: Data) async throws -> Int {
        var request = HTTPClientRequest(url: "http://127.0.0.1:\(port)\(path)")
        request.method = .init(rawValue: method)
        for (name, value) in headers { request.headers.add(name: name, value: value) }
        request.body = .bytes(body)
        let response = try await client.execute(request, timeout: .seconds(30))
        _ = try await response.body.collect(upTo: 1 << 20)
        return Int(response.status.code)
    }
}
