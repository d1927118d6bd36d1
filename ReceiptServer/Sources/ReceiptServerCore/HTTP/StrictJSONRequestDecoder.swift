import AppStoreVerification
import Foundation
import Hummingbird
import NIOCore

/// The request decoder of ``ReceiptRequestContext`` (its `requestDecoder`), used by every route
/// through `request.decode(as:context:)`: reads the whole body up to the context's
/// `maxUploadSize` (the server's `--max-body-bytes`), and decodes it strictly, with the library's
/// App Store JSON parser (RFC 8259; a member given twice, such as two `appAccountToken`s, is
/// refused, so two parsers cannot read one body differently).
///
/// Every failure is an ``APIError`` the client can act on:
/// - 415 `unsupportedMediaType`: a body not declared `Content-Type: application/json` (so a web page
///   cannot send one without a CORS preflight: browsers send JSON only after asking);
/// - 413 `bodyTooLarge`: a body over the limit (one that declares its length over it is refused
///   before it is read, by ``BodyLimitMiddleware``);
/// - 400 `bodyIncomplete`: the connection ended mid-body;
/// - 400 `invalidBody`: empty, not JSON, or not the route's shape (``JSONRequestBody/shape``),
///   saying which member is wrong and what to send.
public struct StrictJSONRequestDecoder: RequestDecoder {
    /// Creates the decoder.
    public init() {}

    /// The body decoded as `T`. A body type that is ``OptionalJSONRequestBody`` decodes an empty
    /// body as its ``OptionalJSONRequestBody/whenEmpty``.
    public func decode<T: Decodable>(_ type: T.Type, from request: Request, context: some RequestContext) async throws -> T {
        let body = try await Self.collect(request, limit: context.maxUploadSize)
        if body.isEmpty, let optional = T.self as? any OptionalJSONRequestBody.Type, let empty = optional.whenEmpty as? T {
            return empty
        }
        let shape = (T.self as? any JSONRequestBody.Type)?.shape ?? "a JSON object"
        return try Self.decode(type, from: body, expecting: shape)
    }

    /// Reads the whole request body, refusing more than `limit` bytes with 413, and a body that is
    /// not declared `Content-Type: application/json` with 415.
    static func collect(_ request: Request, limit: Int) async throws(APIError) -> Data {
        let declared = request.headers[.contentType]
        if let declared, !isJSON(declared) {
            throw unsupportedMediaType(declared)
        }
        let buffer: ByteBuffer
        do {
            buffer = try await request.body.collect(upTo: limit)
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

    /// `body` decoded as `T`, strictly.
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
