import Hummingbird
import NIOCore

/// `GET /metrics`: the server's ``ServerMetrics`` in Prometheus's text exposition format. Open to
/// everyone (it names routes and counts, never customers); bind it elsewhere with a proxy if you
/// want it private.
struct MetricsRoute: Sendable {
    let metrics: ServerMetrics

    func handle(_ request: Request, context: some RequestContext) async throws -> Response {
        var buffer: [UInt8] = []
        metrics.registry.emit(into: &buffer)
        return Response(status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
                        body: .init(byteBuffer: ByteBuffer(bytes: buffer)))
    }
}
