#if ServerAPIClient
import Foundation
import NIOCore
import NIOHTTP1

/// Reads one HTTP/1.1 request at a time on one connection and answers it with
/// ``FakeAppStoreState/handle(_:)`` (keep-alive as the client asks); an answer of `nil` is never
/// sent.
final class FakeAppStoreHTTPHandler: ChannelInboundHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    private let state: FakeAppStoreState
    private var head: HTTPRequestHead?
    private var body = ByteBuffer()

    init(state: FakeAppStoreState) {
        self.state = state
    }

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
            guard let response = state.handle(Self.request(head, body: body)) else { return }
            var headers = HTTPHeaders()
            for header in response.headers { headers.add(name: header.name, value: header.value) }
            headers.replaceOrAdd(name: "Content-Length", value: String(response.body.count))
            let responseHead = HTTPResponseHead(version: head.version, status: HTTPResponseStatus(statusCode: response.status), headers: headers)
            context.write(wrapOutboundOut(.head(responseHead)), promise: nil)
            context.write(wrapOutboundOut(.body(.byteBuffer(ByteBuffer(bytes: response.body)))), promise: nil)
            context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
        }
    }

    /// The request as the fake records it.
    static func request(_ head: HTTPRequestHead, body: ByteBuffer) -> FakeAppStoreServerAPI.Request {
        let components = URLComponents(string: head.uri)
        return FakeAppStoreServerAPI.Request(
            method: head.method.rawValue,
            path: components?.percentEncodedPath ?? head.uri,
            query: (components?.queryItems ?? []).map { FakeAppStoreServerAPI.Request.QueryItem(name: $0.name, value: $0.value ?? "") },
            headers: head.headers.map { FakeAppStoreServerAPI.Request.Header(name: $0.name, value: $0.value) },
            body: Data(body.readableBytesView),
            receivedAt: .now)
    }
}

/// The open connections of a fake, closed when it stops (a connection left unanswered stays open
/// until then).
final class OpenChannels: @unchecked Sendable {
    private let lock = NSLock()
    private var channels: [ObjectIdentifier: any Channel] = [:]
    private var closed = false

    /// Keeps `channel` until it closes; closes it at once when the fake stopped.
    func add(_ channel: any Channel) {
        let id = ObjectIdentifier(channel)
        let alreadyClosed = lock.withLock { () -> Bool in
            if !closed { channels[id] = channel }
            return closed
        }
        if alreadyClosed {
            channel.close(promise: nil)
            return
        }
        channel.closeFuture.whenComplete { [self] _ in
            _ = lock.withLock { channels.removeValue(forKey: id) }
        }
    }

    /// Closes every open connection, and every one added later.
    func closeAll() async {
        let open = lock.withLock { () -> [any Channel] in
            closed = true
            defer { channels = [:] }
            return Array(channels.values)
        }
        for channel in open { try? await channel.close() }
    }
}
#endif
