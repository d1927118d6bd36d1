// The shapes of Hummingbird 2's and Vapor 4's route closures, declared here without depending on
// either framework, so that the README's and the DocC articles' route snippets are compiled inside
// a closure of the same type as in a real server: `@Sendable (Request, Context) async throws ->
// Response` (Hummingbird's `router.post(_:use:)`) and `@Sendable (Request) async throws -> Response`
// (Vapor's `app.post(_:use:)`). A closure does not infer typed throws, so a snippet whose `catch`
// pattern needs a typed error (`catch .decoding(let e)`) would not compile here, as it would not
// in a server. The request bodies are byte collections, as `ByteBuffer.readableBytesView` is.
import AppStoreVerification
import Foundation

/// What the route snippets' "your own code" does: nothing, here.
func grant(_ transaction: Transaction) async {}
func store(_ notification: ResponseBodyV2DecodedPayload) async {}

/// A logger with swift-log's call shape.
struct ShapeLogger: Sendable {
    func info(_ message: String) {}
    func warning(_ message: String) {}
}

/// The HTTP statuses the snippets answer.
enum ShapeStatus: Sendable, Hashable {
    case ok, badRequest, forbidden, serviceUnavailable
}

/// NIO's `ByteBuffer`, as far as the snippets use it.
struct ShapeByteBuffer: Sendable {
    var readableBytesView: [UInt8]
}

extension String {
    /// NIO's `String(buffer:)`: the buffer's readable bytes as UTF-8.
    init(buffer: ShapeByteBuffer) {
        self.init(decoding: buffer.readableBytesView, as: UTF8.self)
    }
}

/// A table of routes the tests can call.
final class ShapeRoutes<Handler>: @unchecked Sendable {
    private let lock = NSLock()
    private var handlers: [String: Handler] = [:]

    func add(_ path: String, _ handler: Handler) {
        lock.withLock { handlers[path] = handler }
    }

    func handler(_ path: String) -> Handler? {
        lock.withLock { handlers[path] }
    }
}

/// Hummingbird 2: `let router = Router()`, `router.post("/path") { request, context -> Response in ... }`.
enum HummingbirdShape {
    struct RequestBody: Sendable {
        var bytes: [UInt8]
        func collect(upTo maxSize: Int) async throws -> ShapeByteBuffer {
            guard bytes.count <= maxSize else { throw CancellationError() }
            return ShapeByteBuffer(readableBytesView: bytes)
        }
    }

    struct Request: Sendable {
        var body: RequestBody
    }

    struct Context: Sendable {
        var logger = ShapeLogger()
    }

    struct Response: Sendable {
        var status: ShapeStatus
    }

    typealias Handler = @Sendable (Request, Context) async throws -> Response

    final class Router: Sendable {
        let routes = ShapeRoutes<Handler>()

        func post(_ path: String, use handler: @escaping Handler) {
            routes.add(path, handler)
        }

        /// Calls the route with this body, as the framework would.
        func call(_ path: String, body: [UInt8]) async throws -> ShapeStatus {
            guard let handler = routes.handler(path) else { throw CancellationError() }
            return try await handler(Request(body: RequestBody(bytes: body)), Context()).status
        }
    }
}

/// Vapor 4: `app.post("path") { req async throws -> Response in ... }`, and
/// `app.on(.POST, "path", body: .collect(maxSize: "1mb")) { req async throws -> Response in ... }`.
enum VaporShape {
    /// Vapor's `HTTPMethod`, as far as the snippets use it.
    enum HTTPMethod: Sendable {
        case POST
    }

    /// Vapor's `ByteCount` (`"1mb"`), as far as the snippets use it.
    struct ByteCount: Sendable, ExpressibleByStringLiteral {
        let text: String
        init(stringLiteral value: String) { text = value }
    }

    /// Vapor's `HTTPBodyStreamStrategy`, as far as the snippets use it.
    enum HTTPBodyStreamStrategy: Sendable {
        case collect(maxSize: ByteCount?)
    }

    struct Body: Sendable {
        var data: ShapeByteBuffer?
    }

    struct Request: Sendable {
        var body: Body
        var logger = ShapeLogger()
    }

    struct Response: Sendable {
        var status: ShapeStatus
    }

    typealias Handler = @Sendable (Request) async throws -> Response

    final class Application: Sendable {
        let routes = ShapeRoutes<Handler>()

        func post(_ path: String, use handler: @escaping Handler) {
            routes.add(path, handler)
        }

        func on(_ method: HTTPMethod, _ path: String, body: HTTPBodyStreamStrategy, use handler: @escaping Handler) {
            routes.add(path, handler)
        }

        /// Calls the route with this body, as the framework would.
        func call(_ path: String, body: [UInt8]) async throws -> ShapeStatus {
            guard let handler = routes.handler(path) else { throw CancellationError() }
            return try await handler(Request(body: Body(data: ShapeByteBuffer(readableBytesView: body)))).status
        }
    }
}
