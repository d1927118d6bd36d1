#if ServerAPIClient
import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix

/// ``FakeAppStore`` served over HTTP/1.1 on 127.0.0.1 (a port the kernel picks), on SwiftNIO.
/// Close it with ``close()`` at the end of each test.
final class FakeAppStoreServer: Sendable {
    let store: FakeAppStore
    let channel: any Channel
    let port: Int

    /// `http://127.0.0.1:PORT`.
    var baseURL: String { "http://127.0.0.1:\(port)" }

    init(store: FakeAppStore) async throws {
        self.store = store
        let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.configureHTTPServerPipeline()
                    try channel.pipeline.syncOperations.addHandler(FakeAppStoreHandler(store: store))
                }
            }
            .bind(host: "127.0.0.1", port: 0)
            .get()
        self.channel = channel
        guard let port = channel.localAddress?.port else {
            try? await channel.close()
            throw POSIXError(.EADDRNOTAVAIL)
        }
        self.port = port
    }

    /// Stops listening.
    func close() async {
        try? await channel.close()
    }
}

/// Reads one request at a time and answers it with ``FakeAppStore/handle(_:)``.
private final class FakeAppStoreHandler: ChannelInboundHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    let store: FakeAppStore
    private var head: HTTPRequestHead?
    private var body = ByteBuffer()

    init(store: FakeAppStore) { self.store = store }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            self.head = head
            body.clear()
        case .body(var part):
            body.writeBuffer(&part)
        case .end:
            guard let head else { return }
            self.head = nil
            let components = URLComponents(string: head.uri)
            let request = FakeAppStore.Request(
                method: head.method.rawValue,
                path: components?.percentEncodedPath ?? head.uri,
                query: (components?.queryItems ?? []).map { (name: $0.name, value: $0.value ?? "") },
                authorization: head.headers.first(name: "Authorization"),
                contentType: head.headers.first(name: "Content-Type"),
                body: Data(body.readableBytesView),
                receivedAt: .now)
            let reply = store.handle(request)
            guard !reply.stall else { return }
            var headers = HTTPHeaders()
            for (name, value) in reply.headers { headers.add(name: name, value: value) }
            headers.replaceOrAdd(name: "Content-Length", value: String(reply.body.count))
            let responseHead = HTTPResponseHead(version: head.version, status: HTTPResponseStatus(statusCode: reply.status), headers: headers)
            context.write(wrapOutboundOut(.head(responseHead)), promise: nil)
            context.write(wrapOutboundOut(.body(.byteBuffer(ByteBuffer(bytes: reply.body)))), promise: nil)
            context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
        }
    }
}
#endif
