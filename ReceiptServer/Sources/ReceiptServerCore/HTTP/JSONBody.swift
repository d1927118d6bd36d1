import AppStoreVerification
import Foundation
import Hummingbird
import NIOCore

/// JSON request parsing and response rendering shared by the routes.
enum JSONBody {
    /// `value` as a JSON response (keys sorted, so the output is stable; ``ServerJSON``).
    static func response(_ value: some Encodable, status: HTTPResponse.Status = .ok) -> Response {
        let bytes: [UInt8]
        do {
            bytes = Array(try ServerJSON.encode(value))
        } catch {
            // Only the server's own response types reach here; they always encode.
            let data = Data(#"{"error":{"status":500,"code":"internal","message":"The response did not encode."}}"#.utf8)
            return Response(status: .internalServerError, headers: [.contentType: "application/json"],
                            body: .init(byteBuffer: ByteBuffer(bytes: data)))
        }
        return Response(status: status, headers: [.contentType: "application/json; charset=utf-8"],
                        body: .init(byteBuffer: ByteBuffer(bytes: bytes)))
    }

    /// ``PostedTransactionAnswer`` as a JSON response, written without an encoder (the same bytes).
    static func response(_ value: PostedTransactionAnswer, status: HTTPResponse.Status = .ok) -> Response {
        Response(status: status, headers: [.contentType: "application/json; charset=utf-8"],
                 body: .init(byteBuffer: ByteBuffer(bytes: value.json)))
    }

    /// Reads the whole request body, refusing more than `limit` bytes with 413, and a body that is
    /// not declared `Content-Type: application/json` with 415 (so a web page cannot send one without
    /// a CORS preflight: browsers send JSON only after asking).
    static func collect(_ request: inout Request, limit: Int) async throws -> Data {
        let declared = request.headers[.contentType]
        if let declared, !isJSON(declared) {
            throw unsupportedMediaType(declared)
        }
        let buffer: ByteBuffer
        do {
            buffer = try await request.collectBody(upTo: limit)
        } catch is NIOTooManyBytesError {
            throw APIError(.contentTooLarge, code: "bodyTooLarge",
                           "The request body is larger than \(limit) bytes, the most this server accepts (--max-body-bytes). App Store signed data is a few kilobytes.")
        } catch {
            // The connection ended mid-body: the client went away, or stalled past the body
            // timeout and was disconnected. Nobody reads this answer; it keeps the log honest
            // (a client's failure, not the server's).
            throw APIError(.badRequest, code: "bodyIncomplete",
                           "The request body ended before it was complete (the connection closed, or the client sent nothing within the body timeout). Nothing was stored.")
        }
        if declared == nil, buffer.readableBytes > 0 {
            throw unsupportedMediaType(nil)
        }
        return Data(buffer.readableBytesView)
    }

    /// Whether a `Content-Type` value is `application/json` (parameters such as `charset` aside).
    static func isJSON(_ contentType: String) -> Bool {
        // On the UTF-8 bytes: every POST asks, and Foundation's trimming and lowercasing cost more
        // than the comparison.
        var bytes = Substring(contentType).utf8
        if let semicolon = bytes.firstIndex(of: UInt8(ascii: ";")) { bytes = bytes[..<semicolon] }
        let blank: (UInt8) -> Bool = { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }
        while let first = bytes.first, blank(first) { bytes = bytes.dropFirst() }
        while let last = bytes.last, blank(last) { bytes = bytes.dropLast() }
        let expected = "application/json".utf8
        return bytes.count == expected.count && zip(bytes, expected).allSatisfy { byte, wanted in
            (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte + 32 == wanted : byte == wanted
        }
    }

    /// 415 for a body declared as `declared` (or not declared at all).
    static func unsupportedMediaType(_ declared: String?) -> APIError {
        let what = declared.map { "Content-Type \"\(LogSafeText.escaping($0.prefix(100)))\"" } ?? "no Content-Type"
        return APIError(.unsupportedMediaType, code: "unsupportedMediaType",
                        "The request body has \(what); this route takes JSON: send Content-Type: application/json. Nothing was stored.")
    }

    /// The body decoded as `T`, strictly: the library's App Store JSON parser (RFC 8259; a member
    /// given twice, such as two `appAccountToken`s, is refused).
    ///
    /// - Throws: 400 `invalidBody` saying what is wrong and what to send (`shape`).
    static func decode<T: Decodable>(_ type: T.Type, from body: Data, expecting shape: String) throws(APIError) -> T {
        guard !body.isEmpty else {
            throw APIError.invalidBody("The request body is empty; send \(shape).")
        }
        do {
            return try AppStoreJSON.decode(type, from: body)
        } catch let error as DecodingError {
            throw APIError.invalidBody(message(error, shape: shape))
        } catch {
            throw APIError.invalidBody("The request body is not \(shape): \(error).")
        }
    }

    /// What a decoding error means for the sender.
    private static func message(_ error: DecodingError, shape: String) -> String {
        func path(_ codingPath: [any CodingKey]) -> String {
            codingPath.map(\.stringValue).joined(separator: ".")
        }
        switch error {
        case .keyNotFound(let key, _):
            return "The body has no \"\(key.stringValue)\" member; send \(shape)."
        case .typeMismatch(_, let context) where context.codingPath.isEmpty:
            return "The request body is not a JSON object; send \(shape)."
        case .typeMismatch(let expected, let context), .valueNotFound(let expected, let context):
            return "\"\(path(context.codingPath))\" must be \(expected == String.self ? "a string" : "a \(expected)"); send \(shape)."
        case .dataCorrupted(let context) where context.codingPath.isEmpty:
            return "The request body is not acceptable JSON (\(context.debugDescription)); send \(shape)."
        case .dataCorrupted(let context):
            return "\"\(path(context.codingPath))\" is not acceptable: \(context.debugDescription) Send \(shape)."
        @unknown default:
            return "The request body is not \(shape)."
        }
    }
}
