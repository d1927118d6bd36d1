import Foundation
import Hummingbird
import NIOCore

/// The console's "Reconcile with Apple": the service's own reconcile route
/// (`POST /transactions/{transactionId}/reconcile`, ``ReconcileController``) run for the console's
/// request, without a body, its JSON answer read back.
struct ConsoleReconciliation: Sendable {
    let route: ReconcileController
    /// Whether the server has App Store Server API credentials (the button shows only then).
    let isConfigured: Bool

    /// Runs the route for `transactionId`, which `context`'s parameters must name as the route's
    /// own path does (`:transactionId`).
    ///
    /// - Throws: the route's ``APIError`` (Apple refused, failed, the database failed, …).
    func run(context: some RequestContext) async throws -> ConsoleReconcileAnswer {
        let transactionId = context.parameters.get("transactionId") ?? ""
        let head = HTTPRequest(method: .post, scheme: "http", authority: "console", path: "/transactions/\(transactionId)/reconcile")
        let response = try await route.handle(Request(head: head, body: RequestBody(buffer: ByteBuffer())), context: context)
        let collector = Collector(limit: 4 << 20)
        try await response.body.write(CollectingWriter(collector: collector))
        return try JSONDecoder().decode(ConsoleReconcileAnswer.self, from: Data(collector.buffer.readableBytesView))
    }

    /// The bytes of a response body, up to a limit.
    private final class Collector {
        let limit: Int
        var buffer = ByteBuffer()
        init(limit: Int) { self.limit = limit }
    }

    private struct CollectingWriter: ResponseBodyWriter {
        let collector: Collector

        mutating func write(_ buffer: ByteBuffer) async throws {
            guard collector.buffer.readableBytes + buffer.readableBytes <= collector.limit else {
                throw APIError(.badGateway, code: "reconcileAnswerTooLarge", "The reconcile answer is larger than \(collector.limit) bytes.")
            }
            var copy = buffer
            collector.buffer.writeBuffer(&copy)
        }

        consuming func finish(_ trailingHeaders: HTTPFields?) async throws {}
    }
}
