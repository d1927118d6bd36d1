import Foundation

/// One OCSP request over a socket, start to end, on the calling (dedicated) thread: connect, send,
/// read the response through ``OCSPHTTPResponseParser``, close.
struct SocketOCSPExchange: Sendable {
    /// Where the request goes: the responder's URL.
    let endpoint: OCSPHTTPEndpoint
    /// The proxy the connection goes to instead, if any.
    let proxy: OCSPHTTPEndpoint?
    let body: Data
    let deadline: ContinuousClock.Instant
    let timeout: Duration
    let maximumResponseLength: Int

    /// The size of each read.
    static let readSize = 16_384

    /// Sends the request and returns the response; throws `URLError(.timedOut)` at the deadline,
    /// `CancellationError` once `cancellation` is set, ``OCSPTransportError`` (`responseTooLarge`) as
    /// soon as the body exceeds the limit, ``OCSPTransportError`` otherwise.
    func run(_ cancellation: CancellationFlag) throws -> OCSPHTTPResponse {
        let server = proxy ?? endpoint
        let connection = try SocketConnection.connect(host: server.host, port: server.port, deadline: deadline, timeout: timeout, cancellation: cancellation)
        try connection.send(OCSPHTTPRequest.bytes(posting: body, to: endpoint, throughProxy: proxy != nil))
        var parser = OCSPHTTPResponseParser(maximumBodyLength: maximumResponseLength)
        var buffer = [UInt8](repeating: 0, count: Self.readSize)
        let from = proxy == nil ? connection.peer : "\(connection.peer) (the proxy)"
        do {
            while true {
                let count = try connection.receive(into: &buffer)
                if count == 0 {
                    let response = try parser.finish()
                    return OCSPHTTPResponse(statusCode: response.status, body: Data(response.body))
                }
                if let response = try parser.consume(buffer[..<count]) {
                    return OCSPHTTPResponse(statusCode: response.status, body: Data(response.body))
                }
            }
        } catch let failure as OCSPHTTPResponseParser.Failure {
            switch failure {
            case .tooLarge(let limit):
                throw OCSPTransportError(.responseTooLarge, "the response body from \(from) exceeded \(limit) bytes")
            case .noResponse:
                throw OCSPTransportError(.unreachable, "\(from) closed the connection without sending a response")
            case .malformed(let problem):
                throw OCSPTransportError(.invalidResponse, "the HTTP response from \(from) is malformed: \(problem)")
            case .truncated(let problem):
                throw OCSPTransportError(.invalidResponse, "the HTTP response from \(from) is incomplete: \(problem)")
            }
        }
    }
}
