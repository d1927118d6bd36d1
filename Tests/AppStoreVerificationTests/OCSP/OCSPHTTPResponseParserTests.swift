import Testing
@testable import AppStoreVerification

/// SocketOCSPTransport's HTTP response parser on its own (no socket): every limit at its bound and
/// one past it, and the same outcome whether the bytes come at once or one by one.
@Suite("OCSP HTTP response parser")
struct OCSPHTTPResponseParserTests {
    private typealias Parsed = Result<(status: Int, body: [UInt8]), OCSPHTTPResponseParser.Failure>

    /// `text` parsed at once and byte by byte; records an issue when the two disagree.
    private func parse(_ text: String, limit: Int = 10, sourceLocation: SourceLocation = #_sourceLocation) -> Parsed {
        let bytes = Array(text.utf8)
        let whole = OCSPHTTPResponseParser.parse(bytes, maximumBodyLength: limit)
        var parser = OCSPHTTPResponseParser(maximumBodyLength: limit)
        var piecewise: Parsed?
        do {
            for index in bytes.indices {
                if let response = try parser.consume(bytes[index...index]) {
                    piecewise = .success(response)
                    break
                }
            }
            if piecewise == nil { piecewise = .success(try parser.finish()) }
        } catch {
            piecewise = .failure(error)
        }
        switch (whole, piecewise) {
        case (.success(let a), .success(let b)?) where a.status == b.status && a.body == b.body: break
        case (.failure, .failure?): break
        default: Issue.record("at once: \(whole); byte by byte: \(String(describing: piecewise))", sourceLocation: sourceLocation)
        }
        return whole
    }

    private func body(_ parsed: Parsed) -> String? {
        guard case .success(let response) = parsed else { return nil }
        return String(decoding: response.body, as: UTF8.self)
    }

    private func isTooLarge(_ parsed: Parsed) -> Bool {
        guard case .failure(.tooLarge(limit: 10)) = parsed else { return false }
        return true
    }

    @Test("the body limit, at the bound and one past it, for each framing")
    func bodyLimit() {
        #expect(body(parse("HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\n0123456789")) == "0123456789")
        #expect(isTooLarge(parse("HTTP/1.1 200 OK\r\nContent-Length: 11\r\n\r\n0123456789A")))
        #expect(body(parse("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n4\r\n0123\r\n6\r\n456789\r\n0\r\n\r\n")) == "0123456789")
        #expect(isTooLarge(parse("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n4\r\n0123\r\n7\r\n456789A\r\n0\r\n\r\n")))
        #expect(body(parse("HTTP/1.0 200 OK\r\n\r\n0123456789")) == "0123456789")
        #expect(isTooLarge(parse("HTTP/1.0 200 OK\r\n\r\n0123456789A")))
    }

    @Test("the head limit (16,384 bytes with CRLFs, interim responses and trailers included), at the bound and one past it")
    func headLimit() {
        let status = "HTTP/1.1 200 OK\r\n"
        let length = "Content-Length: 0\r\n"
        let fixed = status.utf8.count + length.utf8.count + "X: \r\n".utf8.count + 2
        let exact = status + length + "X: " + String(repeating: "a", count: 16_384 - fixed) + "\r\n\r\n"
        #expect(Array(exact.utf8).count == 16_384)
        #expect(body(parse(exact)) == "")
        let over = status + length + "X: " + String(repeating: "a", count: 16_385 - fixed) + "\r\n\r\n"
        guard case .failure(.malformed(let message)) = parse(over) else {
            Issue.record("expected a malformed head")
            return
        }
        #expect(message.contains("exceeds 16384 bytes"))
        let interim = "HTTP/1.1 100 Continue\r\n" + "X: " + String(repeating: "a", count: 16_000) + "\r\n\r\n"
        guard case .failure(.malformed) = parse(interim + exact) else {
            Issue.record("expected the interim head to count")
            return
        }
    }

    @Test("a chunk-size line of 1,024 bytes (size and extensions) is read; one of 1,025 is refused")
    func chunkSizeLineLimit() {
        let exact = "5;" + String(repeating: "e", count: 1_022)
        #expect(body(parse("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n\(exact)\r\nhello\r\n0\r\n\r\n")) == "hello")
        guard case .failure(.malformed(let message)) = parse("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n\(exact)e\r\nhello\r\n0\r\n\r\n") else {
            Issue.record("expected a malformed chunk-size line")
            return
        }
        #expect(message.contains("exceeds 1024 bytes"))
    }

    @Test("204 and 304 have no body; the bytes after a complete response are not read")
    func noBodyAndTrailingBytes() {
        #expect(body(parse("HTTP/1.1 204 No Content\r\nContent-Length: 5\r\n\r\n")) == "")
        #expect(body(parse("HTTP/1.1 304 Not Modified\r\n\r\n")) == "")
        #expect(body(parse("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nokHTTP/1.1 500 Error\r\n\r\n")) == "ok")
    }

    @Test("cut short: inside the head, the body, a chunk, the trailers; nothing at all")
    func truncated() {
        for text in ["HTTP/1.1 200 OK\r\nContent-Len", "HTTP/1.1 200 OK\r\nContent-Length: 3\r\n\r\nok", "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nok", "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n0\r\nX: 1\r\n"] {
            guard case .failure(.truncated) = parse(text) else {
                Issue.record("expected truncated: \(text)")
                continue
            }
        }
        guard case .failure(.noResponse) = parse("") else {
            Issue.record("expected noResponse")
            return
        }
    }
}
