import AppStoreVerificationTestSupport
import Foundation
import Testing
@testable import AppStoreVerification

/// SocketOCSPTransport against loopback servers (127.0.0.1, and ::1 where it exists) that answer
/// with exact bytes: framing, limits, malformed and cut-short responses, timeouts, cancellation,
/// refused URLs, and a proxy. The outcomes asserted do not depend on timing: the only short timeout
/// is the one the timeout case is about.
@Suite("SocketOCSPTransport")
struct SocketOCSPTransportTests {
    /// No proxy, whatever the environment says.
    private let transport = SocketOCSPTransport(proxy: nil)
    private let request = Data("an OCSP request".utf8)

    /// POSTs the request to `server` (at `path`) and returns the response or the error thrown.
    private func post(_ server: OCSPTestServer, path: String = "/", limit: Int = 65_536, timeout: Duration = OCSPTestPKI.patientTimeout, through transport: SocketOCSPTransport? = nil) async -> Result<OCSPHTTPResponse, any Error> {
        guard let url = URL(string: "http://127.0.0.1:\(server.port)\(path)") else { return .failure(FixtureError("bad URL")) }
        do {
            return .success(try await (transport ?? self.transport).post(request, to: url, timeout: timeout, maximumResponseLength: limit))
        } catch {
            return .failure(error)
        }
    }

    private func server(_ raw: String) throws -> OCSPTestServer {
        try OCSPTestServer(behaviour: .raw(Data(raw.utf8)))
    }

    /// The transport error thrown, or a recorded issue.
    private func transportError(_ outcome: Result<OCSPHTTPResponse, any Error>, sourceLocation: SourceLocation = #_sourceLocation) -> OCSPTransportError? {
        guard case .failure(let error) = outcome, let transportError = error as? OCSPTransportError else {
            Issue.record("expected an OCSPTransportError, got \(outcome)", sourceLocation: sourceLocation)
            return nil
        }
        return transportError
    }

    private func isTooLarge(_ outcome: Result<OCSPHTTPResponse, any Error>) -> Bool {
        guard case .failure(let error) = outcome else { return false }
        guard let error = error as? OCSPTransportError else { return false }
        return error.code == .responseTooLarge && error.message.contains("exceeded 100 bytes")
    }

    @Test("the request: POST to the path and query, Host with the port, the OCSP media types, Content-Length, Connection: close, the body")
    func requestFormat() async throws {
        let server = try OCSPTestServer(behaviour: .respond(status: 200, body: Data("answer".utf8)))
        let response = try await post(server, path: "/ocsp03-wwdrg602?a=1").get()
        #expect(response == OCSPHTTPResponse(statusCode: 200, body: Data("answer".utf8)))
        let lines = server.lastRequestHead.components(separatedBy: "\r\n")
        #expect(lines.first == "POST /ocsp03-wwdrg602?a=1 HTTP/1.1")
        #expect(Set(lines.dropFirst()) == [
            "Host: 127.0.0.1:\(server.port)", "Content-Type: application/ocsp-request", "Accept: application/ocsp-response",
            "Content-Length: \(request.count)", "Connection: close",
        ])
        #expect(server.lastRequestBody == request)
    }

    @Test("a Content-Length body; with no path, the target is /")
    func contentLength() async throws {
        let server = try server("HTTP/1.1 200 OK\r\nContent-Type: application/ocsp-response\r\nContent-Length: 5\r\n\r\nhello")
        guard let url = URL(string: "http://127.0.0.1:\(server.port)") else { return }
        let response = try await transport.post(request, to: url, timeout: OCSPTestPKI.patientTimeout, maximumResponseLength: 100)
        #expect(response == OCSPHTTPResponse(statusCode: 200, body: Data("hello".utf8)))
        #expect(server.lastRequestHead.hasPrefix("POST / HTTP/1.1\r\n"))
    }

    @Test("a chunked body: several chunks, chunk extensions, upper-case sizes, trailers")
    func chunked() async throws {
        let server = try server("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5;name=value\r\nhello\r\n1 ; ext\r\n,\r\nA\r\n0123456789\r\n0\r\nX-Trailer: yes\r\nAnother: one\r\n\r\n")
        let response = try await post(server).get()
        #expect(response == OCSPHTTPResponse(statusCode: 200, body: Data("hello,0123456789".utf8)))
    }

    @Test("an HTTP/1.0 body without length: read until the server closes")
    func bodyUntilClose() async throws {
        let server = try server("HTTP/1.0 200 OK\r\nContent-Type: application/ocsp-response\r\n\r\nuntil the end")
        let response = try await post(server).get()
        #expect(response == OCSPHTTPResponse(statusCode: 200, body: Data("until the end".utf8)))
    }

    @Test("interim 1xx responses, then the final 200")
    func interimResponses() async throws {
        let server = try server("HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 103 Early Hints\r\nLink: </x>\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok")
        #expect(try await post(server).get() == OCSPHTTPResponse(statusCode: 200, body: Data("ok".utf8)))
    }

    @Test("a 302 is returned, not followed")
    func redirectReturned() async throws {
        let target = try OCSPTestServer(behaviour: .respond(status: 200, body: Data("followed".utf8)))
        let server = try OCSPTestServer(behaviour: .redirect(location: "http://127.0.0.1:\(target.port)/"))
        let response = try await post(server).get()
        #expect(response.statusCode == 302)
        #expect(response.body.isEmpty)
        #expect(target.requestCount == 0)
    }

    @Test("a 500 is returned with its body")
    func serverError() async throws {
        let server = try OCSPTestServer(behaviour: .respond(status: 500, body: Data("internal error".utf8)))
        #expect(try await post(server).get() == OCSPHTTPResponse(statusCode: 500, body: Data("internal error".utf8)))
    }

    @Test("a Content-Length over the limit: OCSPTransportError, responseTooLarge, before any body byte is read")
    func contentLengthOverLimit() async throws {
        // The server announces 101 bytes, sends none and closes: read on, this would be a
        // truncated body; the transport refuses on the header alone.
        let server = try server("HTTP/1.1 200 OK\r\nContent-Length: 101\r\n\r\n")
        #expect(isTooLarge(await post(server, limit: 100)))
        let huge = try self.server("HTTP/1.1 200 OK\r\nContent-Length: 99999999999999999999999999\r\n\r\n")
        #expect(isTooLarge(await post(huge, limit: 100)))
    }

    @Test("a chunked body over the limit: OCSPTransportError, responseTooLarge (a chunk size beyond it is refused at once)")
    func chunkedOverLimit() async throws {
        let chunks = String(repeating: "32\r\n" + String(repeating: "x", count: 50) + "\r\n", count: 3)
        let server = try server("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n" + chunks + "0\r\n\r\n")
        #expect(isTooLarge(await post(server, limit: 100)))
        let announced = try self.server("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nFFFFFFFFFFFFFFFFFFFFFFFF\r\n")
        #expect(isTooLarge(await post(announced, limit: 100)))
    }

    @Test("a body without length over the limit: OCSPTransportError, responseTooLarge")
    func untilCloseOverLimit() async throws {
        let server = try OCSPTestServer(behaviour: .raw(Data("HTTP/1.0 200 OK\r\n\r\n".utf8) + Data(repeating: 0x30, count: 1 << 20)))
        #expect(isTooLarge(await post(server, limit: 100)))
    }

    @Test("a body shorter than its Content-Length: invalidResponse, incomplete")
    func truncatedContentLength() async throws {
        let server = try server("HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nshort")
        let error = transportError(await post(server))
        #expect(error?.code == .invalidResponse)
        #expect(error?.message.contains("incomplete") == true, "\(String(describing: error))")
        #expect(error?.message.contains("5 of the 10 body bytes") == true, "\(String(describing: error))")
    }

    @Test("the connection closed inside a chunk: invalidResponse, incomplete")
    func truncatedChunk() async throws {
        let server = try server("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n10\r\nonly part")
        let error = transportError(await post(server))
        #expect(error?.code == .invalidResponse)
        #expect(error?.message.contains("inside a chunk") == true, "\(String(describing: error))")
    }

    @Test("malformed status lines: invalidResponse, saying what is wrong", arguments: [
        ("SSH-2.0-OpenSSH_9.6\r\n\r\n", "does not start with an HTTP/1.x status line"),
        ("HTTP/2 200\r\n\r\n", "does not start with an HTTP/1.x status line"),
        ("HTTP/1.1 2x0 OK\r\n\r\n", "no three-digit status code"),
        ("HTTP/1.1 200 OK\nContent-Length: 0\n\n", "bare LF"),
    ])
    func malformedStatusLine(raw: String, expected: String) async throws {
        let error = transportError(await post(try server(raw)))
        #expect(error?.code == .invalidResponse)
        #expect(error?.message.contains("malformed") == true, "\(String(describing: error))")
        #expect(error?.message.contains(expected) == true, "\(String(describing: error))")
    }

    @Test("malformed framing: a chunk size that is not hexadecimal, a chunk longer than its size, two Content-Lengths, a signed Content-Length, another transfer coding")
    func malformedFraming() async throws {
        let cases = [
            ("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\nhello\r\n0\r\n\r\n", "does not start with a hexadecimal size"),
            ("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nhello\r\n0\r\n\r\n", "longer than its size"),
            ("HTTP/1.1 200 OK\r\nContent-Length: 2\r\nContent-Length: 2\r\n\r\nok", "more than one Content-Length"),
            ("HTTP/1.1 200 OK\r\nContent-Length: +2\r\n\r\nok", "digits only"),
            ("HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip\r\n\r\nok", "only chunked"),
            ("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nContent-Length: 2\r\n\r\n2\r\nok\r\n0\r\n\r\n", "both Transfer-Encoding and Content-Length"),
        ]
        for (raw, expected) in cases {
            let error = transportError(await post(try server(raw)))
            #expect(error?.code == .invalidResponse)
            #expect(error?.message.contains(expected) == true, "\(String(describing: error))")
        }
    }

    @Test("headers over 16 KiB: invalidResponse")
    func oversizedHeaders() async throws {
        let header = "X-Filler: " + String(repeating: "a", count: 1_000) + "\r\n"
        let server = try server("HTTP/1.1 200 OK\r\n" + String(repeating: header, count: 20) + "Content-Length: 0\r\n\r\n")
        let error = transportError(await post(server))
        #expect(error?.code == .invalidResponse)
        #expect(error?.message.contains("exceeds 16384 bytes") == true, "\(String(describing: error))")
    }

    @Test("a server that closes without a response: unreachable")
    func emptyReply() async throws {
        let error = transportError(await post(try server("")))
        #expect(error?.code == .unreachable)
        #expect(error?.message.contains("without sending a response") == true, "\(String(describing: error))")
    }

    @Test("connection refused: unreachable, naming the address")
    func connectionRefused() async throws {
        let port = try FreePorts.take(1)[0]
        guard let url = URL(string: "http://127.0.0.1:\(port)/") else { return }
        do {
            _ = try await transport.post(request, to: url, timeout: OCSPTestPKI.patientTimeout, maximumResponseLength: 100)
            Issue.record("expected a failure")
        } catch let error as OCSPTransportError {
            #expect(error.code == .unreachable)
            #expect(error.message.contains("127.0.0.1"), "\(error)")
            #expect(error.message.lowercased().contains("refused"), "\(error)")
        }
    }

    @Test("a host name (localhost, from /etc/hosts): resolved with getaddrinfo, its addresses tried in turn")
    func hostName() async throws {
        let server = try OCSPTestServer(behaviour: .respond(status: 200, body: Data("by name".utf8)))
        guard let url = URL(string: "http://localhost:\(server.port)/") else { return }
        let response = try await transport.post(request, to: url, timeout: OCSPTestPKI.patientTimeout, maximumResponseLength: 100)
        #expect(response == OCSPHTTPResponse(statusCode: 200, body: Data("by name".utf8)))
        #expect(server.lastRequestHead.components(separatedBy: "\r\n").contains("Host: localhost:\(server.port)"))
    }

    @Test("a server that never answers: URLError(.timedOut) at the deadline")
    func neverAnswers() async throws {
        let server = try OCSPTestServer(behaviour: .silent)
        let outcome = await post(server, timeout: .milliseconds(300))
        guard case .failure(let error) = outcome, let urlError = error as? URLError else {
            Issue.record("expected URLError, got \(outcome)")
            return
        }
        #expect(urlError.code == .timedOut)
        #expect(urlError.localizedDescription.contains("no response within 0.3 s"), "\(urlError.localizedDescription)")
        #expect(server.requestCount == 1)
    }

    @Test("cancelling the calling task ends a request waiting on a silent server: CancellationError", .timeLimit(.minutes(1)))
    func cancellation() async throws {
        let server = try OCSPTestServer(behaviour: .silent)
        let transport = self.transport
        let request = self.request
        guard let url = URL(string: "http://127.0.0.1:\(server.port)/") else { return }
        let task = Task {
            try await transport.post(request, to: url, timeout: .seconds(600), maximumResponseLength: 100)
        }
        // Cancel once the request has arrived (so that the transport is waiting for the answer).
        await server.firstRequest()
        #expect(server.requestCount == 1)
        task.cancel()
        let outcome = await task.result
        guard case .failure(let error) = outcome else {
            Issue.record("expected CancellationError, got \(outcome)")
            return
        }
        #expect(error is CancellationError, "\(error)")
        #expect(TransportFailure(error).cancelled)
    }

    @Test("a task cancelled before the call: CancellationError, nothing sent")
    func cancelledBefore() async throws {
        let server = try OCSPTestServer(behaviour: .respond(status: 200, body: Data()))
        let transport = self.transport
        let request = self.request
        guard let url = URL(string: "http://127.0.0.1:\(server.port)/") else { return }
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await transport.post(request, to: url, timeout: .seconds(600), maximumResponseLength: 100)
        }
        let outcome = await task.result
        guard case .failure(let error) = outcome else {
            Issue.record("expected CancellationError, got \(outcome)")
            return
        }
        #expect(error is CancellationError, "\(error)")
        #expect(server.requestCount == 0)
    }

    @Test("https://, other schemes, URLs with credentials: unsupportedURL, before any connection")
    func refusedURLs() async throws {
        let server = try OCSPTestServer(behaviour: .respond(status: 200, body: Data()))
        for text in ["https://127.0.0.1:\(server.port)/", "ftp://127.0.0.1:\(server.port)/", "file:///etc/passwd", "http://user:secret@127.0.0.1:\(server.port)/", "HTTPS://127.0.0.1:\(server.port)/"] {
            guard let url = URL(string: text) else { continue }
            do {
                _ = try await transport.post(request, to: url, timeout: OCSPTestPKI.patientTimeout, maximumResponseLength: 100)
                Issue.record("\(text): expected a refusal")
            } catch let error as OCSPTransportError {
                #expect(error.code == .unsupportedURL, "\(text): \(error)")
            }
        }
        #expect(server.requestCount == 0)
    }

    @Test("IPv6: http://[::1]:port/, Host in brackets", .enabled(if: OCSPTestServer.canListenOnIPv6Loopback, "no IPv6 loopback (::1) here"))
    func ipv6() async throws {
        let server = try OCSPTestServer(behaviour: .respond(status: 200, body: Data("over IPv6".utf8)), ipv6: true)
        guard let url = URL(string: "http://[::1]:\(server.port)/ocsp") else { return }
        let response = try await transport.post(request, to: url, timeout: OCSPTestPKI.patientTimeout, maximumResponseLength: 100)
        #expect(response == OCSPHTTPResponse(statusCode: 200, body: Data("over IPv6".utf8)))
        #expect(server.lastRequestHead.components(separatedBy: "\r\n").contains("Host: [::1]:\(server.port)"))
    }

    @Test("through a proxy: the proxy gets the absolute URL in the request line and the responder's Host, and its answer is returned")
    func proxy() async throws {
        let proxy = try OCSPTestServer(behaviour: .respond(status: 200, body: Data("from the proxy".utf8)))
        let transport = SocketOCSPTransport(proxy: URL(string: "http://127.0.0.1:\(proxy.port)"))
        guard let url = URL(string: "http://ocsp.example.invalid/ocsp03-wwdrg602?x=1") else { return }
        let response = try await transport.post(request, to: url, timeout: OCSPTestPKI.patientTimeout, maximumResponseLength: 100)
        #expect(response == OCSPHTTPResponse(statusCode: 200, body: Data("from the proxy".utf8)))
        let lines = proxy.lastRequestHead.components(separatedBy: "\r\n")
        #expect(lines.first == "POST http://ocsp.example.invalid/ocsp03-wwdrg602?x=1 HTTP/1.1")
        #expect(lines.contains("Host: ocsp.example.invalid"))
        #expect(proxy.lastRequestBody == request)
    }

    @Test("the environment: http_proxy is used, no_proxy/NO_PROXY exclude hosts, the upper-case HTTP_PROXY is ignored")
    func proxyEnvironment() async throws {
        let proxy = try OCSPTestServer(behaviour: .respond(status: 200, body: Data("proxy".utf8)))
        let direct = try OCSPTestServer(behaviour: .respond(status: 200, body: Data("direct".utf8)))
        let proxyURL = "http://127.0.0.1:\(proxy.port)/"
        let environments: [([String: String], String)] = [
            (["http_proxy": proxyURL], "proxy"),
            (["http_proxy": "127.0.0.1:\(proxy.port)"], "proxy"),  // host:port, as libcurl takes it
            (["http_proxy": proxyURL, "no_proxy": "example.com, 127.0.0.1"], "direct"),
            (["http_proxy": proxyURL, "NO_PROXY": "*"], "direct"),
            (["http_proxy": proxyURL, "no_proxy": "example.com", "NO_PROXY": "*"], "proxy"),  // no_proxy first
            (["HTTP_PROXY": proxyURL], "direct"),
            ([:], "direct"),
        ]
        for (environment, expected) in environments {
            let transport = SocketOCSPTransport(environment: environment)
            let response = try await post(direct, through: transport).get()
            #expect(String(decoding: response.body, as: UTF8.self) == expected, "\(environment)")
        }
        #expect(proxy.requestCount == 3)
        #expect(proxy.lastRequestHead.hasPrefix("POST http://127.0.0.1:\(direct.port)/ HTTP/1.1\r\n"))
    }

    @Test("no_proxy matching: a name matches itself and its subdomains (a leading dot ignored), not other names")
    func noProxyMatching() {
        let proxy = OCSPHTTPProxy(environment: ["http_proxy": "http://proxy:3128", "no_proxy": " .apple.com ,localhost,[::1]"])
        #expect(proxy.isExcluded("ocsp.apple.com"))
        #expect(proxy.isExcluded("APPLE.com"))
        #expect(proxy.isExcluded("localhost"))
        #expect(proxy.isExcluded("::1"))
        #expect(!proxy.isExcluded("notapple.com"))
        #expect(!proxy.isExcluded("apple.com.evil.example"))
    }

    @Test("an unusable proxy (https, credentials): every proxied request fails with unsupportedURL, nothing is sent directly")
    func unusableProxy() async throws {
        let direct = try OCSPTestServer(behaviour: .respond(status: 200, body: Data()))
        for setting in ["https://127.0.0.1:3128", "http://user:pw@127.0.0.1:3128"] {
            let transport = SocketOCSPTransport(environment: ["http_proxy": setting])
            let error = transportError(await post(direct, through: transport))
            #expect(error?.code == .unsupportedURL)
            #expect(error?.message.contains("http_proxy") == true, "\(String(describing: error))")
        }
        #expect(direct.requestCount == 0)
    }

    @Test("TransportFailure: the socket transport's errors read as the verifier's reasons")
    func transportFailureMapping() {
        #expect(TransportFailure(URLError(.timedOut)).timedOut)
        #expect(TransportFailure(CancellationError()).cancelled)
        #expect(TransportFailure(OCSPTransportError(.responseTooLarge, "the response body exceeded 1 bytes")).tooLarge)
        let invalid = TransportFailure(OCSPTransportError(.invalidResponse, "the HTTP response from x is malformed: y"))
        #expect(invalid.invalidResponse)
        #expect(invalid.message == "the HTTP response from x is malformed: y")
        let unreachable = TransportFailure(OCSPTransportError(.unreachable, "no connection could be made"))
        #expect(!unreachable.invalidResponse && !unreachable.timedOut && !unreachable.cancelled && !unreachable.tooLarge)
        #expect(unreachable.message == "no connection could be made")
    }
}
