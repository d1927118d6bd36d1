import Foundation

/// One HTTP/1.1 request as a loopback server of the Testing product read it.
package struct LoopbackHTTPRequest: Sendable {
    /// The method (`GET`, `POST`, ...), as sent.
    package let method: String
    /// The request target as sent: path and query, percent-encoded (or, sent to a proxy, the
    /// absolute URL).
    package let target: String
    /// The protocol version of the request line (`HTTP/1.1`).
    package let version: String
    /// The header fields in order, names as sent.
    package let headers: [(name: String, value: String)]
    /// The body (empty without one).
    package let body: Data

    /// The value of the first header field named `name` (case-insensitive), if any.
    package func header(_ name: String) -> String? {
        headers.first { $0.name.caseInsensitiveCompare(name) == .orderedSame }?.value
    }

    /// The target's path, percent-encoded, without the query.
    package var path: String {
        String(target.prefix { $0 != "?" })
    }

    /// The query's items in order, percent-decoded (`+` is left as it is).
    package var queryItems: [(name: String, value: String)] {
        guard let start = target.firstIndex(of: "?") else { return [] }
        return target[target.index(after: start)...].split(separator: "&").map { pair in
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = String(parts[0]).removingPercentEncoding ?? String(parts[0])
            let value = parts.count > 1 ? (String(parts[1]).removingPercentEncoding ?? String(parts[1])) : ""
            return (name, value)
        }
    }

    /// Why a request could not be read: the HTTP status to answer and a message.
    package struct Refusal: Error, Sendable {
        package let status: Int
        package let message: String
    }

    /// Parses a request head (the bytes before the blank line, without it). The body's length is
    /// `Content-Length` (absent: none); chunked bodies are refused with 411.
    static func parseHead(_ head: [UInt8]) throws(Refusal) -> (method: String, target: String, version: String, headers: [(name: String, value: String)], bodyLength: Int) {
        guard let text = String(validatingUTF8Bytes: head) else { throw Refusal(status: 400, message: "the request head is not UTF-8") }
        let lines = text.components(separatedBy: "\r\n")
        let requestLine = lines[0].split(separator: " ", omittingEmptySubsequences: false)
        guard requestLine.count == 3, requestLine[2].hasPrefix("HTTP/1."), !requestLine[0].isEmpty,
              requestLine[1].hasPrefix("/") || requestLine[1].hasPrefix("http://") else {
            throw Refusal(status: 400, message: "the request line is not METHOD /TARGET (or http://URL) HTTP/1.x")
        }
        var headers: [(name: String, value: String)] = []
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":"), colon != line.startIndex else {
                throw Refusal(status: 400, message: "a header line has no name")
            }
            headers.append((String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)))
        }
        if headers.contains(where: { $0.name.caseInsensitiveCompare("Transfer-Encoding") == .orderedSame }) {
            throw Refusal(status: 411, message: "send the body with a Content-Length, not chunked")
        }
        let lengths = headers.filter { $0.name.caseInsensitiveCompare("Content-Length") == .orderedSame }.map(\.value)
        var bodyLength = 0
        if let first = lengths.first {
            guard lengths.allSatisfy({ $0 == first }), first.allSatisfy(\.isASCIIDigitCharacter), first.count <= 12, let length = Int(first) else {
                throw Refusal(status: 400, message: "the Content-Length is not one decimal number")
            }
            bodyLength = length
        }
        return (String(requestLine[0]), String(requestLine[1]), String(requestLine[2]), headers, bodyLength)
    }
}

extension Character {
    /// Whether the character is one of the ASCII digits 0-9.
    fileprivate var isASCIIDigitCharacter: Bool { isASCII && isNumber }
}

extension String {
    /// The text of `bytes` when they are valid UTF-8, else `nil` (Foundation's `String(bytes:encoding:)`
    /// without its platform differences).
    fileprivate init?(validatingUTF8Bytes bytes: [UInt8]) {
        var iterator = bytes.makeIterator()
        var decoder = UTF8()
        var scalars = String.UnicodeScalarView()
        while true {
            switch decoder.decode(&iterator) {
            case .scalarValue(let scalar): scalars.append(scalar)
            case .emptyInput:
                self.init(scalars)
                return
            case .error: return nil
            }
        }
    }
}
