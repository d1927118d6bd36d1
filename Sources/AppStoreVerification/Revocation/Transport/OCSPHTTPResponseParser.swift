/// Reads one HTTP/1.x response, fed in pieces as they arrive, for ``SocketOCSPTransport``.
///
/// A pure state machine over bytes (no I/O, no Foundation), so that it can be fuzzed on its own.
/// It accepts exactly what an OCSP answer needs and refuses the rest with a message that says what
/// was wrong:
///
/// - status line `HTTP/1.0 NNN reason` or `HTTP/1.1 NNN reason` (100-599); interim 1xx responses
///   are skipped; lines end in CRLF;
/// - header fields `name: value` (no folded lines, no space before the colon); the heads of all
///   responses, and the chunked trailers, hold at most ``maximumHeadLength`` bytes together;
/// - the body: none for 204 and 304; `Transfer-Encoding: chunked` (strictly: hexadecimal sizes,
///   extensions allowed and ignored, CRLF after each chunk's data, trailers skipped);
///   `Content-Length` (digits only, one value); otherwise up to the end of the connection;
/// - the body is never longer than `maximumBodyLength`: a Content-Length or chunk size beyond it
///   fails at once, bytes until the end of the connection fail as soon as there are too many.
///
/// Feed bytes with ``consume(_:)`` until it returns the response; at the end of the connection
/// call ``finish()``.
struct OCSPHTTPResponseParser: Sendable {
    /// Why a response is refused.
    enum Failure: Error, Sendable, Hashable {
        /// Not a response this parser accepts; the text says what was wrong.
        case malformed(String)
        /// The connection ended before the response did; the text says where.
        case truncated(String)
        /// The body exceeds the limit (in bytes).
        case tooLarge(limit: Int)
        /// The connection ended before any byte of a response.
        case noResponse
    }

    /// The most bytes the response heads (status lines, header fields and blank lines of the
    /// interim and final responses, CRLFs included) and the chunked trailers may take in all.
    static let defaultMaximumHeadLength = 16_384
    /// The longest chunk-size line (size and extensions, without the CRLF).
    static let maximumChunkSizeLineLength = 1_024

    let maximumBodyLength: Int
    let maximumHeadLength: Int

    private enum State: Sendable {
        /// Waiting for a status line.
        case statusLine
        /// Reading header fields of a response with this status.
        case headers(status: Int)
        /// Reading a body of known length: this many bytes are still due.
        case fixedBody(remaining: Int)
        /// Reading a body that ends with the connection.
        case bodyUntilClose
        /// Waiting for a chunk-size line.
        case chunkSize
        /// Reading a chunk's data: this many bytes are still due.
        case chunkData(remaining: Int)
        /// Waiting for the CRLF after a chunk's data.
        case chunkDataEnd
        /// Reading trailer fields after the last chunk.
        case trailers
        /// The response is complete (or refused): nothing more is read.
        case done
    }

    private var state = State.statusLine
    /// Bytes received and not yet consumed: only ever the start of a line (without its LF) or
    /// the start of the CRLF after a chunk's data. The body states find it empty.
    private var pending: [UInt8] = []
    /// Bytes of heads and trailers consumed so far.
    private var headLength = 0
    private var status = 0
    private var contentLength: Int?
    private var chunked = false
    private var sawTransferEncoding = false
    private var body: [UInt8] = []
    /// Whether any byte has arrived (to tell an empty reply from a truncated one).
    private var receivedAny = false

    /// A parser refusing bodies over `maximumBodyLength` bytes and heads over `maximumHeadLength`.
    init(maximumBodyLength: Int, maximumHeadLength: Int = OCSPHTTPResponseParser.defaultMaximumHeadLength) {
        self.maximumBodyLength = max(0, maximumBodyLength)
        self.maximumHeadLength = max(0, maximumHeadLength)
    }

    /// Parses `bytes` in one go, as if the connection ended after them: the pure function the fuzz
    /// target calls.
    static func parse(_ bytes: [UInt8], maximumBodyLength: Int) -> Result<(status: Int, body: [UInt8]), Failure> {
        var parser = OCSPHTTPResponseParser(maximumBodyLength: maximumBodyLength)
        do {
            if let response = try parser.consume(bytes[...]) { return .success(response) }
            return .success(try parser.finish())
        } catch {
            return .failure(error)
        }
    }

    /// Takes the next bytes of the connection; returns the status and body once the response is
    /// complete (later bytes, and later calls, are ignored), nil while more is needed.
    mutating func consume(_ bytes: ArraySlice<UInt8>) throws(Failure) -> (status: Int, body: [UInt8])? {
        if case .done = state { return nil }
        guard !bytes.isEmpty else { return nil }
        receivedAny = true
        var input = bytes
        do {
            while true {
                if let response = try step(&input) { return response }
                if input.isEmpty { return nil }
            }
        } catch {
            state = .done
            pending = []
            body = []
            throw error
        }
    }

    /// The connection ended: returns the response when a body up to the end of the connection was
    /// being read, and throws otherwise (the response was cut short, or there was none).
    mutating func finish() throws(Failure) -> (status: Int, body: [UInt8]) {
        let failure: Failure
        switch state {
        case .bodyUntilClose:
            state = .done
            return (status, body)
        case .statusLine where !receivedAny:
            failure = .noResponse
        case .statusLine, .headers:
            failure = .truncated("the connection ended inside the response head")
        case .fixedBody(let remaining):
            failure = .truncated("the connection ended after \(body.count) of the \(body.count + remaining) body bytes its Content-Length announces")
        case .chunkSize, .chunkData, .chunkDataEnd:
            failure = .truncated("the connection ended inside a chunk of the chunked body (after \(body.count) body bytes)")
        case .trailers:
            failure = .truncated("the connection ended inside the trailer fields after the last chunk")
        case .done:
            failure = .malformed("the response was already complete or refused")
        }
        state = .done
        pending = []
        body = []
        throw failure
    }

    /// One step of the state machine over `input` (moving consumed bytes out of it): the response
    /// when it is complete, nil when this step needs more input or made progress.
    private mutating func step(_ input: inout ArraySlice<UInt8>) throws(Failure) -> (status: Int, body: [UInt8])? {
        switch state {
        case .statusLine:
            guard let line = try nextLine(&input, limit: maximumHeadLength - headLength, tooLong: Self.headTooLong(maximumHeadLength), what: "the response head") else {
                // Refused as soon as the start cannot be a status line, without waiting for its end.
                if !Self.statusLinePrefix.starts(with: pending.prefix(Self.statusLinePrefix.count)) {
                    throw .malformed("the response does not start with an HTTP/1.x status line: \(Self.quoted(pending[...]))")
                }
                return nil
            }
            headLength += line.count + 2
            status = try Self.statusCode(of: line)
            contentLength = nil
            chunked = false
            sawTransferEncoding = false
            state = .headers(status: status)
        case .headers(let status):
            guard let line = try nextLine(&input, limit: maximumHeadLength - headLength, tooLong: Self.headTooLong(maximumHeadLength), what: "the response head") else { return nil }
            headLength += line.count + 2
            if !line.isEmpty {
                try header(line)
                return nil
            }
            return try startBody(status: status)
        case .fixedBody(let remaining):
            let count = min(remaining, input.count)
            body.append(contentsOf: input.prefix(count))
            input = input.dropFirst(count)
            if remaining - count == 0 { return complete() }
            state = .fixedBody(remaining: remaining - count)
        case .bodyUntilClose:
            guard input.count <= maximumBodyLength - body.count else { throw .tooLarge(limit: maximumBodyLength) }
            body.append(contentsOf: input)
            input = input[input.endIndex...]
        case .chunkSize:
            guard let line = try nextLine(&input, limit: Self.maximumChunkSizeLineLength + 2, tooLong: "a chunk-size line exceeds \(Self.maximumChunkSizeLineLength) bytes", what: "a chunk-size line") else { return nil }
            let size = try chunkSize(line)
            state = size == 0 ? .trailers : .chunkData(remaining: size)
        case .chunkData(let remaining):
            let count = min(remaining, input.count)
            body.append(contentsOf: input.prefix(count))
            input = input.dropFirst(count)
            state = remaining - count == 0 ? .chunkDataEnd : .chunkData(remaining: remaining - count)
        case .chunkDataEnd:
            let taken = input.prefix(2 - pending.count)
            pending.append(contentsOf: taken)
            input = input.dropFirst(taken.count)
            guard pending.count == 2 else { return nil }
            guard pending == [0x0D, 0x0A] else {
                throw .malformed("a chunk's data is longer than its size, or not followed by CRLF")
            }
            pending = []
            state = .chunkSize
        case .trailers:
            guard let line = try nextLine(&input, limit: maximumHeadLength - headLength, tooLong: Self.headTooLong(maximumHeadLength), what: "the trailer fields") else { return nil }
            headLength += line.count + 2
            if line.isEmpty { return complete() }
        case .done:
            input = input[input.endIndex...]
        }
        return nil
    }

    /// Sets up the body's state after the header fields of a response with `status`.
    private mutating func startBody(status: Int) throws(Failure) -> (status: Int, body: [UInt8])? {
        if status < 200 {
            if status == 101 {
                throw .malformed("the responder switched protocols (101) though none was asked for")
            }
            // An interim response: the final one follows.
            state = .statusLine
            return nil
        }
        if chunked && contentLength != nil {
            throw .malformed("the response has both Transfer-Encoding and Content-Length")
        }
        if status == 204 || status == 304 { return complete() }
        if chunked {
            state = .chunkSize
        } else if let contentLength {
            guard contentLength <= maximumBodyLength else { throw .tooLarge(limit: maximumBodyLength) }
            if contentLength == 0 { return complete() }
            state = .fixedBody(remaining: contentLength)
        } else {
            state = .bodyUntilClose
        }
        return nil
    }

    private static func headTooLong(_ maximumHeadLength: Int) -> String {
        "the response head (with any interim responses and trailers) exceeds \(maximumHeadLength) bytes"
    }

    private mutating func complete() -> (status: Int, body: [UInt8]) {
        let response = (status, body)
        state = .done
        pending = []
        body = []
        return response
    }

    /// The next line without its CRLF, or nil when `input` (now all moved into `pending`) ends
    /// before it. A line longer than `limit` bytes with its CRLF is refused with `tooLong`; one
    /// ending in a bare LF, or holding a CR, as malformed.
    private mutating func nextLine(_ input: inout ArraySlice<UInt8>, limit: Int, tooLong: String, what: String) throws(Failure) -> ArraySlice<UInt8>? {
        // Only the bytes up to the first LF are moved into `pending`; the rest stays in `input`.
        guard let newline = input.firstIndex(of: 0x0A) else {
            pending.append(contentsOf: input)
            input = input[input.endIndex...]
            // The line, its CR and its LF must fit: the LF has not come, so at most limit - 1.
            if pending.count > limit - 1 { throw .malformed(tooLong) }
            return nil
        }
        let end = input.index(after: newline)
        pending.append(contentsOf: input[..<end])
        input = input[end...]
        let lineWithEnd = pending
        pending = []
        guard lineWithEnd.count >= 2, lineWithEnd[lineWithEnd.count - 2] == 0x0D else {
            throw .malformed("a line of \(what) ends in a bare LF, not CRLF")
        }
        guard lineWithEnd.count <= limit else { throw .malformed(tooLong) }
        let line = lineWithEnd[..<(lineWithEnd.count - 2)]
        if line.contains(0x0D) {
            throw .malformed("a line of \(what) holds a bare CR")
        }
        return line
    }

    /// The status code of a status line: `HTTP/1.0` or `HTTP/1.1`, a space, three digits, then
    /// nothing or a space and a reason phrase.
    private static func statusCode(of line: ArraySlice<UInt8>) throws(Failure) -> Int {
        let bytes = Array(line)
        guard bytes.starts(with: statusLinePrefix) else {
            throw .malformed("the response does not start with an HTTP/1.x status line: \(quoted(line))")
        }
        guard bytes.count >= 12, bytes[7] == UInt8(ascii: "0") || bytes[7] == UInt8(ascii: "1"), bytes[8] == 0x20 else {
            throw .malformed("the status line \(quoted(line)) is not an HTTP/1.0 or HTTP/1.1 status line")
        }
        var code = 0
        for byte in bytes[9..<12] {
            guard isDigit(byte) else {
                throw .malformed("the status line \(quoted(line)) has no three-digit status code")
            }
            code = code * 10 + Int(byte - UInt8(ascii: "0"))
        }
        guard (100...599).contains(code) else {
            throw .malformed("the status code \(code) is outside 100-599")
        }
        guard bytes.count == 12 || bytes[12] == 0x20 else {
            throw .malformed("the status line \(quoted(line)) has no space after its status code")
        }
        guard bytes.dropFirst(12).allSatisfy(isFieldByte) else {
            throw .malformed("the status line's reason phrase holds control characters")
        }
        return code
    }

    /// Reads one header field line, noting Content-Length and Transfer-Encoding.
    private mutating func header(_ line: ArraySlice<UInt8>) throws(Failure) {
        guard let first = line.first, first != 0x20, first != 0x09 else {
            throw .malformed("a header field is folded over several lines (obsolete line folding is not accepted)")
        }
        guard let colon = line.firstIndex(of: UInt8(ascii: ":")) else {
            throw .malformed("the header line \(Self.quoted(line)) has no colon")
        }
        let name = line[..<colon]
        guard !name.isEmpty, name.allSatisfy(Self.isTokenByte) else {
            throw .malformed("the header name \(Self.quoted(name)) is not a token")
        }
        var value = line[line.index(after: colon)...]
        while let byte = value.first, byte == 0x20 || byte == 0x09 { value = value.dropFirst() }
        while let byte = value.last, byte == 0x20 || byte == 0x09 { value = value.dropLast() }
        guard value.allSatisfy(Self.isFieldByte) else {
            throw .malformed("the value of the header \(Self.quoted(name)) holds control characters")
        }
        let lowercasedName = String(decoding: name.map(Self.lowercased), as: UTF8.self)
        switch lowercasedName {
        case "content-length":
            guard contentLength == nil else {
                throw .malformed("the response has more than one Content-Length")
            }
            guard !value.isEmpty, value.allSatisfy(Self.isDigit) else {
                throw .malformed("the Content-Length \(Self.quoted(value)) is not a number of bytes (digits only, one value)")
            }
            // Any length of more than 18 digits is over every limit: kept as Int.max.
            var length = 0
            for digit in value {
                if length > (Int.max - 9) / 10 {
                    length = Int.max
                    break
                }
                length = length * 10 + Int(digit - UInt8(ascii: "0"))
            }
            contentLength = length
        case "transfer-encoding":
            guard !sawTransferEncoding else {
                throw .malformed("the response has more than one Transfer-Encoding")
            }
            sawTransferEncoding = true
            let coding = String(decoding: value.map(Self.lowercased), as: UTF8.self)
            guard coding == "chunked" else {
                throw .malformed("the transfer coding \(Self.quoted(value)) is not supported (only chunked)")
            }
            chunked = true
        default:
            break
        }
    }

    /// The size of a chunk-size line: hexadecimal digits, then optionally whitespace and
    /// `;extensions`, which are ignored. A size that takes the body over the limit is refused at once.
    private func chunkSize(_ line: ArraySlice<UInt8>) throws(Failure) -> Int {
        var size = 0
        var digits = 0
        var index = line.startIndex
        while index < line.endIndex, let value = Self.hexValue(line[index]) {
            // Over the limit already (or about to overflow): refused without reading further.
            if size > maximumBodyLength - body.count || size > (Int.max - 15) / 16 {
                throw .tooLarge(limit: maximumBodyLength)
            }
            size = size * 16 + value
            digits += 1
            index += 1
        }
        guard digits > 0 else {
            throw .malformed("the chunk-size line \(Self.quoted(line)) does not start with a hexadecimal size")
        }
        var rest = line[index...]
        while let byte = rest.first, byte == 0x20 || byte == 0x09 { rest = rest.dropFirst() }
        guard rest.isEmpty || rest.first == UInt8(ascii: ";") else {
            throw .malformed("the chunk-size line \(Self.quoted(line)) has more than a size and extensions")
        }
        guard rest.allSatisfy(Self.isFieldByte) else {
            throw .malformed("a chunk extension holds control characters")
        }
        guard size <= maximumBodyLength - body.count else {
            throw .tooLarge(limit: maximumBodyLength)
        }
        return size
    }

    /// How every status line starts.
    private static let statusLinePrefix = Array("HTTP/1.".utf8)

    private static func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }

    private static func hexValue(_ byte: UInt8) -> Int? {
        switch byte {
        case 0x30...0x39: Int(byte - 0x30)
        case 0x41...0x46: Int(byte - 0x41 + 10)
        case 0x61...0x66: Int(byte - 0x61 + 10)
        default: nil
        }
    }

    /// A tchar of RFC 9110: letters, digits and ``!#$%&'*+-.^_`|~``.
    private static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x30...0x39, 0x41...0x5A, 0x61...0x7A: true
        default: Array("!#$%&'*+-.^_`|~".utf8).contains(byte)
        }
    }

    /// A byte allowed in a field value or reason phrase: tab, space, visible ASCII, or obs-text.
    private static func isFieldByte(_ byte: UInt8) -> Bool {
        byte == 0x09 || (byte >= 0x20 && byte != 0x7F)
    }

    private static func lowercased(_ byte: UInt8) -> UInt8 {
        byte >= 0x41 && byte <= 0x5A ? byte + 0x20 : byte
    }

    /// `bytes` in quotes for a message: at most 60 of them, anything but printable ASCII escaped.
    private static func quoted(_ bytes: ArraySlice<UInt8>) -> String {
        var text = "\""
        for byte in bytes.prefix(60) {
            if byte >= 0x20 && byte < 0x7F && byte != UInt8(ascii: "\"") && byte != UInt8(ascii: "\\") {
                text.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                text += "\\x" + String(byte, radix: 16, uppercase: true).leftPadded(to: 2)
            }
        }
        return text + (bytes.count > 60 ? "…\"" : "\"")
    }
}

private extension String {
    func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
