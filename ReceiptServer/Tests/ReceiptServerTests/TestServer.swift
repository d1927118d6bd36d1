import AppStoreVerification
import AppStoreVerificationTestSupport
import AsyncHTTPClient
import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import NIOCore
import NIOHTTP1
@testable import ReceiptServerCore
import ServiceLifecycle
import Testing

/// The repository's signed test data this package's tests read (found through ``TestPaths``).
enum TestData {
    /// A one-line JWS file of `TestVectors/`: its text.
    static func jws(_ path: String) throws -> String {
        try TestPaths.text(TestPaths.testVector(path))
    }

    /// The root of the PKI that signed TestVectors/histories/*.txt.
    static let historiesRoot = TestPaths.testVector("histories/pki/root.der")

    /// The lines of a history file (TestVectors/histories/NAME.txt), 1-based line N at index N - 1.
    static func historyLines(_ name: String) throws -> [String] {
        var lines = try String(contentsOf: TestPaths.testVector("histories/\(name).txt"), encoding: .utf8)
            .split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        while lines.last?.isEmpty == true { lines.removeLast() }
        return lines
    }

    /// A JWS payload's JSON object, read without verifying (the test only routes it, as an app knows
    /// what it sends).
    static func unverifiedPayload(_ jws: String) -> [String: Any] {
        let parts = jws.split(separator: ".")
        guard parts.count == 3, let data = base64URLDecoded(String(parts[1])) else { return [:] }
        return ((try? JSONSerialization.jsonObject(with: data)) as? [String: Any]) ?? [:]
    }

    /// 2026-03-01T12:00:00Z, the `signedDate` of TestVectors/jws/*.
    static let vectorsSignedDate = Date(timeIntervalSince1970: 1_772_366_400)
}

/// A fresh temporary directory for one test's database, removed by `remove()`.
struct TemporaryDirectory {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("receipt-server-tests-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    var databasePath: String { url.appendingPathComponent("receipts.sqlite").path }

    func remove() {
        try? FileManager.default.removeItem(at: url)
    }
}

/// Which store a test runs against.
enum StoreKind: String, CaseIterable, Sendable, CustomTestStringConvertible {
    /// A SQLite file in a temporary directory.
    case sqlite
    /// A fresh database in this process's throwaway PostgreSQL cluster (``PostgresCluster``).
    case postgres

    var testDescription: String { rawValue }
}

/// A fresh, empty database of one ``StoreKind`` for one test: `location` is what `--database` takes.
struct TestDatabase: Sendable {
    let kind: StoreKind
    /// The `--database` value.
    let location: String
    /// SQLite: the file's directory.
    let directory: TemporaryDirectory?

    /// PostgreSQL: the database's name.
    var postgresName: String {
        String(location.split(separator: "/").last?.split(separator: "?").first ?? "")
    }

    /// The same as ``location`` (the tests' old name for it).
    var databasePath: String { location }

    /// A new database. For PostgreSQL, when it cannot run here, prints why and skips the test (fails
    /// instead when `RECEIPT_SERVER_REQUIRE_POSTGRES=1`, as in CI).
    static func make(_ kind: StoreKind) async throws -> TestDatabase {
        switch kind {
        case .sqlite:
            let directory = try TemporaryDirectory()
            return TestDatabase(kind: kind, location: directory.databasePath, directory: directory)
        case .postgres:
            let cluster: PostgresCluster
            do {
                cluster = try await PostgresCluster.shared()
            } catch {
                // ci.sh installs PostgreSQL and sets this: there a missing server is a failure.
                if ProcessInfo.processInfo.environment["RECEIPT_SERVER_REQUIRE_POSTGRES"] == "1" { throw error }
                print("\(error)")
                try Test.cancel("\(error)")
            }
            return TestDatabase(kind: kind, location: cluster.url(database: try await cluster.createDatabase()), directory: nil)
        }
    }

    /// Removes the SQLite directory (a PostgreSQL database goes with the cluster when the tests end).
    func remove() {
        directory?.remove()
    }
}

/// A server running in this process, built by `buildReceiptServer`, either on 127.0.0.1 (a port
/// the system picks) with a real HTTP client, or on HummingbirdTesting's in-process router
/// (`app.test(.router)`: no socket; for tests of routes and answers).
final class TestServer: Sendable {
    /// How the tests reach the server.
    enum Testing: Sendable {
        /// A real listener on 127.0.0.1 and AsyncHTTPClient: for connection limits and timeouts,
        /// client addresses, the console's browser and whatever needs a socket.
        case live
        /// HummingbirdTesting's in-process router: requests go to the application's responder.
        case router
    }

    /// The route to the server.
    private enum Transport: Sendable {
        case live(HTTPClient, ServiceGroup)
        case router(any TestClientProtocol, finish: AsyncStream<Void>.Continuation)
    }

    /// The server's database.
    let store: ReceiptStore
    /// The server's metrics.
    let metrics: ServerMetrics
    /// The port it listens on (0 on the in-process router, which has none).
    let port: Int
    /// The server's access token, which the helpers below send as the backend would (`nil`: the
    /// server runs with `--allow-unauthenticated`).
    let bearerToken: String?
    private let transport: Transport
    private let task: Task<Void, any Error>

    /// The access token test servers have unless a test gives another rule.
    static let backendToken = "backend-token-for-tests-0123456789abcdef"
    /// ``backendToken`` as the access rule.
    static let backendAccess = AccessControl(bearerToken: backendToken)

    private init(store: ReceiptStore, metrics: ServerMetrics, port: Int, transport: Transport, task: Task<Void, any Error>, bearerToken: String?) {
        self.store = store
        self.metrics = metrics
        self.port = port
        self.transport = transport
        self.task = task
        self.bearerToken = bearerToken
    }

    /// The HTTP client of a live server (the tests that talk to it with AsyncHTTPClient directly).
    var client: HTTPClient {
        get throws {
            guard case .live(let client, _) = transport else { throw TestServerError("an in-process router server has no HTTP client") }
            return client
        }
    }

    /// `Authorization: Bearer <token>`, as the backend sends it (none without a token).
    var backendHeaders: [(String, String)] {
        bearerToken.map { [("Authorization", "Bearer \($0)")] } ?? []
    }

    /// Graceful shutdown: the server stops, the database closes; then the client shuts down.
    func stop() async throws {
        switch transport {
        case .live(let client, let group):
            await group.triggerGracefulShutdown()
            let result = await task.result
            try await client.shutdown()
            try result.get()
        case .router(_, let finish):
            // The router test ends: HummingbirdTesting shuts the application's services down.
            finish.finish()
            try await task.value
        }
    }

    /// An HTTP answer: the status and the body parsed as a JSON object.
    struct Answer {
        let status: Int
        let headers: [(String, String)]
        let body: Data
        var json: [String: Any] { ((try? JSONSerialization.jsonObject(with: body)) as? [String: Any]) ?? [:] }
        /// `error.code` of an error answer.
        var errorCode: String? { (json["error"] as? [String: Any])?["code"] as? String }
        /// `error.message` of an error answer.
        var errorMessage: String? { (json["error"] as? [String: Any])?["message"] as? String }
        /// The product IDs of the granted entitlements.
        var entitlements: [[String: Any]] { json["entitlements"] as? [[String: Any]] ?? [] }
        /// The statuses (granted or not).
        var statuses: [[String: Any]] { json["statuses"] as? [[String: Any]] ?? [] }
        func header(_ name: String) -> String? { headers.first { $0.0.lowercased() == name.lowercased() }?.1 }
        var text: String { String(decoding: body, as: UTF8.self) }
    }

    /// Sends a request over HTTP/1.1 to the server, as `caller`: the backend sends the access token,
    /// an anonymous caller (an app, Apple, a stranger) no `Authorization` header.
    func request(_ method: HTTPMethod, _ path: String, body: Data? = nil, as caller: Caller = .backend) async throws -> Answer {
        try await request(method, path, headers: caller == .backend ? backendHeaders : [], body: body)
    }

    /// Sends a request with `headers` (and `Content-Type: application/json` with a body), over
    /// HTTP/1.1 to a live server or to the in-process router.
    func request(_ method: HTTPMethod, _ path: String, headers: [(String, String)], body: Data? = nil) async throws -> Answer {
        switch transport {
        case .live(let client, _):
            var request = HTTPClientRequest(url: "http://127.0.0.1:\(port)\(path)")
            request.method = method
            for (name, value) in headers { request.headers.add(name: name, value: value) }
            if let body {
                request.headers.add(name: "Content-Type", value: "application/json")
                request.body = .bytes(ByteBuffer(bytes: body))
            }
            let response = try await client.execute(request, timeout: .seconds(30))
            let buffer = try await response.body.collect(upTo: 4 << 20)
            return Answer(status: Int(response.status.code), headers: response.headers.map { ($0.name, $0.value) }, body: Data(buffer.readableBytesView))
        case .router(let client, _):
            var fields = HTTPFields()
            for (name, value) in headers {
                guard let fieldName = HTTPFields.Element.Name(name) else { throw TestServerError("not a header name: \(name)") }
                fields.append(HTTPFields.Element(name: fieldName, value: value))
            }
            if body != nil { fields.append(HTTPFields.Element(name: .contentType, value: "application/json")) }
            guard let routerMethod = HTTPRequest.Method(method.rawValue) else { throw TestServerError("not a method: \(method)") }
            let response = try await client.executeRequest(uri: path, method: routerMethod, headers: fields, body: body.map { ByteBuffer(bytes: $0) })
            return Answer(status: Int(response.status.code), headers: response.headers.map { ($0.name.rawName, $0.value) },
                          body: Data(response.body.readableBytesView))
        }
    }

    /// `POST /transactions` with `{"signedTransaction": jws, "appAccountToken": token, "signedRenewalInfo": renewal}`.
    func postTransaction(_ jws: String, appAccountToken: String? = nil, signedRenewalInfo: String? = nil, as caller: Caller = .backend) async throws -> Answer {
        var object: [String: Any] = ["signedTransaction": jws]
        if let appAccountToken { object["appAccountToken"] = appAccountToken }
        if let signedRenewalInfo { object["signedRenewalInfo"] = signedRenewalInfo }
        return try await request(.POST, "/transactions", body: try JSONSerialization.data(withJSONObject: object), as: caller)
    }

    /// `POST /notifications` with `body` as it is.
    func postNotificationBody(_ body: String, as caller: Caller = .backend) async throws -> Answer {
        try await request(.POST, "/notifications", body: Data(body.utf8), as: caller)
    }

    /// `POST /notifications` with `{"signedPayload": jws}`.
    func postNotification(_ jws: String, as caller: Caller = .backend) async throws -> Answer {
        try await request(.POST, "/notifications", body: try JSONSerialization.data(withJSONObject: ["signedPayload": jws]), as: caller)
    }

    /// `GET /customers/{token}/entitlements?at=<ISO 8601>`.
    func entitlements(of token: String, atISO8601 at: String) async throws -> Answer {
        try await request(.GET, "/customers/\(token)/entitlements?at=\(at)")
    }

    /// `GET /customers/{token}/entitlements[?at=]`.
    func entitlements(of token: String, at: Date? = nil, as caller: Caller = .backend) async throws -> Answer {
        let query = at.map { "?at=\(Int64(($0.timeIntervalSince1970 * 1000).rounded(.down)))" } ?? ""
        return try await request(.GET, "/customers/\(token)/entitlements\(query)", as: caller)
    }
}

struct TestServerError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

extension TestServer {
    /// Starts the server `make` builds (with the port callback it is given) and waits until it
    /// listens (`.live`) or its services run on the in-process router (`.router`).
    static func start<App: ApplicationProtocol>(
        logger: Logger,
        bearerToken: String?,
        testing: Testing = .live,
        building make: (_ onServerRunning: @escaping @Sendable (Int) async -> Void) async throws -> ReceiptServerApplication<App>
    ) async throws -> TestServer {
        switch testing {
        case .live:
            let (ports, portContinuation) = AsyncStream<Int>.makeStream()
            let built = try await make { port in
                portContinuation.yield(port)
                portContinuation.finish()
            }
            let group = ServiceGroup(configuration: .init(services: [built.application], logger: logger))
            let task = Task {
                defer { portContinuation.finish() }
                try await group.run()
            }
            var iterator = ports.makeAsyncIterator()
            guard let port = await iterator.next(), port > 0 else {
                try await task.value
                throw TestServerError("the server stopped before it listened")
            }
            return TestServer(store: built.store, metrics: built.metrics, port: port, transport: .live(HTTPClient.forTests(), group),
                              task: task, bearerToken: bearerToken)
        case .router:
            let built = try await make { _ in }
            let application = built.application
            let (clients, clientContinuation) = AsyncStream<any TestClientProtocol>.makeStream()
            let (finished, finish) = AsyncStream<Void>.makeStream()
            // The router test lasts until stop() finishes `finished`; its client is handed out.
            let task = Task {
                defer { clientContinuation.finish() }
                try await application.test(.router) { client in
                    clientContinuation.yield(client)
                    for await _ in finished {}
                }
            }
            var iterator = clients.makeAsyncIterator()
            guard let client = await iterator.next() else {
                try await task.value
                throw TestServerError("the router test stopped before it ran")
            }
            return TestServer(store: built.store, metrics: built.metrics, port: 0, transport: .router(client, finish: finish),
                              task: task, bearerToken: bearerToken)
        }
    }
}

extension HTTPClient {
    /// A client for the tests: waiting for a pooled connection and for an answer may take up to a
    /// minute (AsyncHTTPClient's default connect timeout of 10 s fails tests that send many
    /// requests at once on a loaded CI machine; each test has its own time limit).
    static func forTests() -> HTTPClient {
        HTTPClient(configuration: .init(timeout: .init(connect: .seconds(60), read: .seconds(60))))
    }
}
