import AppStoreServerAPI
import AppStoreServerAPITesting
import AppStoreVerification
import AppStoreVerificationTestSupport
import AppStoreVerificationTesting
import Foundation
import Logging
import NIOConcurrencyHelpers
import ReceiptServerCore
import Testing
import AsyncHTTPClient

/// The red team's findings 1-3 (issue 30), reproduced: each fails closed.
///
/// 1. A stranger reconciling someone's transaction to take their purchases.
/// 2. A stranger re-posting a customer's signed transaction (or notification) to learn their ID and
///    entitlements, or a conflicting claim naming the customer.
/// 3. A `Postgres://` URL (upper-case scheme) taken for a SQLite path, its password printed.
@Suite("Closed by default: the red team's reproductions fail closed", .timeLimit(.minutes(3)))
struct ClosedByDefaultTests {
    static let customer = "5b0e7a1c-2d3f-4a5b-8c6d-7e8f9a0b1c2d"
    static let stranger = "9f8e7d6c-5b4a-4392-8170-6f5e4d3c2b1a"

    // MARK: 1. Taking purchases through reconcile

    /// A fake App Store whose history for every ID of the customer holds a purchase without
    /// `appAccountToken` (the case reconcile links to whoever names a customer).
    struct World {
        let pki: TestPKI
        let apiKey: SigningKey
        let unlinkedPurchase: String
        init() throws {
            pki = try TestPKI()
            apiKey = try SigningKey(pem: try TestPrivateKey(generating: .p256).pemEncoded)
            unlinkedPurchase = try SignedDataMinter(pki: pki).transaction(Transaction(
                transactionId: "5000000000000001", productId: "com.example.app.lifetime",
                purchaseDate: Date(timeIntervalSinceNow: -3600), type: .nonConsumable))
        }
    }

    static func withReconcilingServer(access: AccessControl, _ body: (TestServer, FakeAppStoreServerAPI, World) async throws -> Void) async throws {
        let world = try World()
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try await FakeAppStoreServerAPI.withServer(keyId: ReconcileTests.keyId, issuerId: ReconcileTests.issuerId, bundleId: "com.example.app",
                                                   publicKey: world.apiKey.publicKeyDER) { fake in
            fake.pageSize = 2
            fake.setTransactionHistory([world.unlinkedPurchase], for: "5000000000000001")
            let reconcile = ReconcileConfiguration(signingKey: world.apiKey, keyId: ReconcileTests.keyId, issuerId: ReconcileTests.issuerId,
                                                   environment: .sandbox, baseURL: fake.baseURL, options: ReconcileTests.options)
            let server = try await TestServer.start(databasePath: directory.databasePath, roots: [world.pki.trustedRoot], access: access, reconcile: reconcile, testing: .router)
            try await server.stopping { try await body(server, fake, world) }
        }
    }

    @Test("Red team 1: a stranger's reconcile is refused (401) before Apple is asked; nothing is linked; the customer's own purchase then succeeds")
    func strangerCannotReconcile() async throws {
        try await Self.withReconcilingServer(access: TestServer.backendAccess) { server, fake, world in
            let claim = try JSONSerialization.data(withJSONObject: ["appAccountToken": Self.stranger])
            for headers in [[], [("Authorization", "Bearer not-the-token-0123456789")]] {
                let answer = try await server.request(.POST, "/transactions/5000000000000001/reconcile", headers: headers, body: claim)
                #expect(answer.status == 401, "\(answer.text)")
                #expect(answer.errorCode == "unauthorized")
                #expect(!answer.text.contains(Self.customer))
            }
            #expect(fake.requests.isEmpty, "Apple was not asked: no quota spent")
            #expect(try await server.store.count() == 0)
            #expect(try await server.entitlements(of: Self.stranger).statuses.isEmpty)
            // The rightful customer's app sends the purchase: it is theirs.
            let own = try await server.postTransaction(world.unlinkedPurchase, appAccountToken: Self.customer, as: .anonymous)
            #expect(own.status == 200, "\(own.text)")
            #expect(own.json["stored"] as? Bool == true)
        }
    }

    @Test("Red team 1: on a server without a token (--allow-unauthenticated) nobody may reconcile (403), whatever they send")
    func noReconcileWithoutToken() async throws {
        try await Self.withReconcilingServer(access: .allowUnauthenticated) { server, fake, _ in
            let claim = try JSONSerialization.data(withJSONObject: ["appAccountToken": Self.stranger])
            for headers in [[], [("Authorization", "Bearer \(TestServer.backendToken)")]] {
                let answer = try await server.request(.POST, "/transactions/5000000000000001/reconcile", headers: headers, body: claim)
                #expect(answer.status == 403, "\(answer.text)")
                #expect(answer.errorCode == "accessTokenRequired")
            }
            #expect(fake.requests.isEmpty)
            #expect(try await server.store.count() == 0)
        }
    }

    // MARK: 2. What the open routes tell

    @Test("Red team 2: re-posting a customer's transaction tells a stranger only about what was posted: no customer ID, no other purchase", arguments: StoreKind.allCases)
    func openRoutesTellOnlyWhatWasPosted(store: StoreKind) async throws {
        let database = try await TestDatabase.make(store)
        defer { database.remove() }
        let minted = try MintedData()
        defer { minted.remove() }
        // Purchase A carries no appAccountToken (the app named the customer in the body); B does.
        let purchaseA = try minted.purchase(transactionId: "6000001", productId: "com.example.app.lifetime", customer: nil)
        let purchaseB = try minted.purchase(transactionId: "6000002", productId: "com.example.app.secret.product", customer: Self.customer)
        let refundA = try minted.refund(transactionId: "6000001", productId: "com.example.app.lifetime", customer: nil)
        let server = try await TestServer.start(databasePath: database.location, root: minted.rootFile, now: Date(timeIntervalSince1970: 1_800_000_000), testing: .router)
        try await server.stopping {
            let first = try await server.postTransaction(purchaseA, appAccountToken: Self.customer, as: .anonymous)
            #expect(first.status == 200, "\(first.text)")
            #expect(try await server.postTransaction(purchaseB, as: .anonymous).status == 200)

            // A stranger re-posts A: stored or not, and the verdict, about A alone.
            let replay = try await server.postTransaction(purchaseA, as: .anonymous)
            #expect(replay.status == 200, "\(replay.text)")
            #expect(Set(replay.json.keys) == ["stored", "verified", "transactionId", "originalTransactionId"], "\(replay.text)")
            #expect(replay.json["stored"] as? Bool == false)
            #expect(replay.json["verified"] as? Bool == true)
            #expect(replay.json["transactionId"] as? String == "6000001")
            for secret in [Self.customer, "6000002", "com.example.app.secret.product"] {
                #expect(!replay.text.contains(secret), "the answer leaks \(secret): \(replay.text)")
            }

            // A conflicting claim is refused without naming the customer.
            let claim = try await server.postTransaction(purchaseA, appAccountToken: Self.stranger, as: .anonymous)
            #expect(claim.status == 409, "\(claim.text)")
            #expect(claim.errorCode == "customerConflict")
            #expect(!claim.text.contains(Self.customer), "\(claim.text)")

            // A notification without appAccountToken of a linked purchase: the customer is not named.
            let notification = try await server.postNotification(refundA, as: .anonymous)
            #expect(notification.status == 200, "\(notification.text)")
            #expect(notification.json["stored"] as? Bool == true)
            #expect(!notification.text.contains(Self.customer), "\(notification.text)")

            // The backend (the access token) is told everything, as GET would tell it.
            let backend = try await server.postTransaction(purchaseA)
            #expect(backend.status == 200)
            #expect(backend.json["appAccountToken"] as? String == Self.customer)
            #expect(Set(backend.statuses.compactMap { $0["productId"] as? String }) == ["com.example.app.lifetime", "com.example.app.secret.product"])
            let backendConflict = try await server.postTransaction(purchaseA, appAccountToken: Self.stranger)
            #expect(backendConflict.status == 409)
            #expect(backendConflict.text.contains(Self.customer))
            let backendNotification = try await server.postNotification(refundA)
            #expect(backendNotification.json["appAccountToken"] as? String == Self.customer)
            #expect(try await server.store.count() == 3, "A, B and the refund; the refused claim stored nothing")
        }
    }

    @Test("Without a token, customer data needs --allow-unauthenticated: 401 on a server with a token, open on one started without")
    func entitlementsAccess() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let closed = try await TestServer.start(databasePath: directory.databasePath, now: Date(), testing: .router)
        try await closed.stopping { () async throws in
            #expect(try await closed.entitlements(of: Self.customer, as: .anonymous).status == 401)
        }
        let open = try await TestServer.start(databasePath: directory.databasePath, now: Date(), access: .allowUnauthenticated, testing: .router)
        try await open.stopping { () async throws in
            #expect(try await open.entitlements(of: Self.customer, as: .anonymous).status == 200)
        }
    }

    // MARK: 3. Database URLs

    @Test("Red team 3: upper- and mixed-case PostgreSQL schemes are PostgreSQL; no message carries the password")
    func databaseSchemes() throws {
        for url in ["Postgres://receipts:s3cr3t-pw@127.0.0.1:5433/receipts", "POSTGRESQL://receipts:s3cr3t-pw@127.0.0.1:5433/receipts",
                    "postgres://receipts:s3cr3t-pw@127.0.0.1:5433/receipts"] {
            guard case .postgres(let location) = try StoreLocation(url) else {
                Issue.record("\(url) is not taken for PostgreSQL")
                continue
            }
            #expect(location.host == "127.0.0.1")
            #expect(location.port == 5433)
            #expect(location.password == "s3cr3t-pw")
            #expect(!location.description.contains("s3cr3t"))
        }
        #expect(try StoreLocation("SQLite:/tmp/receipts.sqlite") == .sqlite(path: "/tmp/receipts.sqlite"))
        for bad in ["MySQL://receipts:s3cr3t-pw@127.0.0.1/receipts", "Postgres://receipts:s3cr3t-pw@127.0.0.1:5433/",
                    "postgres://receipts:s3cr3t-pw@127.0.0.1/receipts?sslmode=sometimes",
                    "sqlite://receipts:s3cr3t-pw@x/y"] {
            do {
                let location = try StoreLocation(bad)
                Issue.record("\(bad) was accepted as \(location)")
            } catch {
                #expect(!error.description.contains("s3cr"), "\(error)")
                #expect(!error.description.isEmpty)
            }
        }
    }

    @Test("Red team 3: a server pointed at an unreachable Postgres:// URL fails to start with PostgreSQL's reason and without the password")
    func unreachablePostgresIsRedacted() async throws {
        let port = try FreePorts.one()
        let verifier = SignedDataVerifier.Configuration(trustedRoots: try TrustedRoot.roots(contentsOf: TestPaths.testVector("pki/root.der")),
                                                        bundleId: "com.example.app", environment: .sandbox)
        let (logger, lines) = CapturingLogHandler.logger(level: .trace)
        do {
            let server = try await buildApplication(ReceiptServerConfiguration(
                server: ServerConfiguration(port: 0, databasePath: "POSTGRES://receipts:s3cr3t-pw@127.0.0.1:\(port)/receipts?sslmode=disable",
                                            verifier: verifier, busyTimeoutMilliseconds: 1000),
                access: TestServer.backendAccess, logger: logger))
            Issue.record("the server opened an unreachable database: \(server)")
        } catch {
            let text = "\(error) \(String(reflecting: error))"
            #expect(text.contains("postgres://receipts@127.0.0.1:\(port)/receipts"), "\(text)")
            #expect(!text.contains("s3cr3t"), "\(text)")
            #expect(!text.lowercased().contains("sqlite"), "\(text)")
        }
        let logged = lines.withLockedValue { $0 }.map { "\($0.message) \($0.metadata)" }.joined(separator: "\n")
        #expect(!logged.contains("s3cr3t"), "\(logged)")
    }

    // MARK: The command: no token, no start

    @Test("The ReceiptServer command refuses to start without an access token unless --allow-unauthenticated, then warns")
    func commandRefusesWithoutToken() async throws {
        let executable = try ServerProcess.requireExecutable()
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        func arguments(database: String) -> [String] {
            ["--host", "127.0.0.1", "--port", "0", "--database", database, "--bundle-id", "com.example.app"]
        }

        let refused = try await ServerProcess.runToExit(executable, arguments: arguments(database: directory.databasePath), environment: [:])
        #expect(refused.status != 0)
        #expect(refused.output.contains("RECEIPT_SERVER_ACCESS_TOKEN"), "\(refused.output)")
        #expect(refused.output.contains("--allow-unauthenticated"), "\(refused.output)")
        #expect(!FileManager.default.fileExists(atPath: directory.databasePath), "refused before opening the database")

        let url = "Postgres://receipts:s3cr3t-pw@127.0.0.1:\(try FreePorts.one())/receipts?sslmode=disable"
        let secret = try await ServerProcess.runToExit(executable, arguments: arguments(database: url),
                                                       environment: ["RECEIPT_SERVER_ACCESS_TOKEN": TestServer.backendToken])
        #expect(secret.status != 0)
        #expect(secret.output.contains("postgres://receipts@127.0.0.1"), "\(secret.output)")
        #expect(!secret.output.contains("s3cr3t"), "\(secret.output)")

        for (flags, environment) in [(["--allow-unauthenticated"], [String: String]()), ([], ["RECEIPT_SERVER_ALLOW_UNAUTHENTICATED": "1"])] {
            let server = try await ServerProcess.start(executable: executable, database: directory.databasePath, roots: [TestPaths.testVector("pki/root.der")],
                                                       arguments: flags, accessToken: nil, environment: environment)
            await server.stop()
            #expect(server.log.contains("WITHOUT an access token"), "\(server.log)")
        }
    }
}
