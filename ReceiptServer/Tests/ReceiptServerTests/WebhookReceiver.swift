import AppStoreVerificationTestSupport
import Foundation
import Hummingbird
import Logging
import NIOCore
import ServiceLifecycle
import Synchronization

/// A real HTTP receiver of outbound events on 127.0.0.1: records every request (its Standard
/// Webhooks headers and raw body) and answers with the status `respond` picks from the attempt
/// number of that `webhook-id` (1 for the first). Signatures are checked afterwards by the
/// independent Python implementation (``verifySignatures(secret:)``).
final class WebhookReceiver: Sendable {
    struct Received: Sendable {
        let id: String
        let timestamp: String
        let signature: String
        let body: String
        /// The body's JSON object.
        var json: [String: Any] { ((try? JSONSerialization.jsonObject(with: Data(body.utf8))) as? [String: Any]) ?? [:] }
        var type: String { json["type"] as? String ?? "" }
        var data: [String: Any] { json["data"] as? [String: Any] ?? [:] }
        var customer: String? { data["appAccountToken"] as? String }
        var sequence: Int? { (data["sequence"] as? NSNumber)?.intValue }
        var cause: [String: Any] { data["cause"] as? [String: Any] ?? [:] }
        /// The granted products of an `entitlements.changed`.
        var grantedProducts: [String] {
            (((data["entitlements"] as? [String: Any])?["entitlements"] as? [[String: Any]]) ?? []).compactMap { $0["productId"] as? String }.sorted()
        }
    }

    let port: Int
    private let box: Box
    private let group: ServiceGroup
    private let task: Task<Void, any Error>

    private init(port: Int, box: Box, group: ServiceGroup, task: Task<Void, any Error>) {
        self.port = port
        self.box = box
        self.group = group
        self.task = task
    }

    /// Starts a receiver on `port` (0: the system picks one).
    static func start(port: Int = 0, respond: @escaping @Sendable (_ attempt: Int, _ received: Received) -> Int = { _, _ in 204 }) async throws -> WebhookReceiver {
        let box = Box()
        let router = Router()
        router.post("hooks") { request, context -> Response in
            let buffer = try await request.body.collect(upTo: 4 << 20)
            func header(_ name: String) -> String { request.headers.first { $0.name.canonicalName == name }?.value ?? "" }
            let received = Received(id: header("webhook-id"), timestamp: header("webhook-timestamp"), signature: header("webhook-signature"),
                                    body: String(buffer: buffer))
            let attempt = box.requests.withLock { requests in
                requests.append(received)
                return requests.filter { $0.id == received.id }.count
            }
            box.arrivals.changed()
            return Response(status: .init(code: respond(attempt, received)))
        }
        var logger = Logger(label: "WebhookReceiver")
        logger.logLevel = .warning
        let (ports, portContinuation) = AsyncStream<Int>.makeStream()
        let app = Application(
            router: router, configuration: .init(address: .hostname("127.0.0.1", port: port), serverName: "WebhookReceiver"),
            onServerRunning: { channel in
                portContinuation.yield(channel.localAddress?.port ?? 0)
                portContinuation.finish()
            },
            logger: logger)
        let group = ServiceGroup(configuration: .init(services: [app], logger: logger))
        let task = Task {
            defer { portContinuation.finish() }
            try await group.run()
        }
        var iterator = ports.makeAsyncIterator()
        guard let bound = await iterator.next(), bound > 0 else {
            try await task.value
            throw TestServerError("the webhook receiver stopped before it listened")
        }
        return WebhookReceiver(port: bound, box: box, group: group, task: task)
    }

    /// Shares the request list between the route and the receiver.
    private final class Box: Sendable {
        let requests = Mutex<[Received]>([])
        /// Signalled at each request.
        let arrivals = ChangeSignal()
    }

    var url: String { "http://127.0.0.1:\(port)/hooks" }

    /// Every request so far, in arrival order.
    var received: [Received] { box.requests.withLock { $0 } }

    /// The first request of each `webhook-id`, in arrival order.
    var firstDeliveries: [Received] {
        var seen = Set<String>()
        return received.filter { seen.insert($0.id).inserted }
    }

    /// Waits (at most `limit`) until `condition` holds for the requests received, checking it at
    /// each request's arrival.
    func waitUntil(_ what: String, limit: Duration = .seconds(60), _ condition: @escaping @Sendable ([Received]) -> Bool) async throws {
        try await within(limit, what) {
            await self.box.arrivals.waitUntil { condition(self.received) }
        }
    }

    func stop() async {
        await group.triggerGracefulShutdown()
        _ = await task.result
    }

    /// Runs Tests/Webhooks/verify_webhooks.py (Python's hmac and hashlib, not this package's code)
    /// over every request received: exit status 0 when each signature verifies with `secret`.
    func verifySignatures(secret: String) throws -> (status: Int32, output: String) {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let file = directory.url.appendingPathComponent("requests.json")
        let document: [String: Any] = [
            "secret": secret,
            "requests": received.map { ["id": $0.id, "timestamp": $0.timestamp, "signature": $0.signature, "body": $0.body] },
        ]
        try JSONSerialization.data(withJSONObject: document).write(to: file)
        let script = TestPaths.repositoryRoot.appendingPathComponent("ReceiptServer/Tests/Webhooks/verify_webhooks.py")
        let result = try ProcessRunner.run("/usr/bin/env", ["python3", script.path, file.path])
        return (result.status, result.output)
    }
}
