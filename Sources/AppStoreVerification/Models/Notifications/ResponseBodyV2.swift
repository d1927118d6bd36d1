import Foundation

/// The body of an App Store Server Notification V2 request: `{"signedPayload":"<JWS>"}` (Apple's
/// `ResponseBodyV2`).
///
/// Read with the same strict JSON parser as payloads: duplicate names, comments, trailing commas,
/// invalid UTF-8 and non-RFC 8259 numbers are refused. Members other than `signedPayload` are
/// ignored, as Apple may add some.
public struct ResponseBodyV2: Sendable, Hashable {
    /// The notification JWS.
    public let signedPayload: String

    /// Reads a request body, as text or bytes.
    ///
    /// - Throws: ``SignedDataDecodingError`` with `invalidJSON` when the body is not a JSON object,
    ///   `invalidPayload` when it has no `signedPayload` string.
    public init(json body: some SignedDataInput) throws(SignedDataDecodingError) {
        let document: JSONDocument
        do {
            document = try body.withSignedDataBytes { (bytes) throws(JSONParser.Failure) in try JSONParser.parse(Array(bytes)) }
        } catch {
            throw SignedDataDecodingError(.invalidJSON, "The notification body is not valid JSON (\(error)); Apple sends one JSON object, {\"signedPayload\":\"<JWS>\"}. When reading a file or a stream, keep one JSON object per line.")
        }
        let root = document.root
        guard root.isObject else {
            throw SignedDataDecodingError(.invalidJSON, "The notification body is JSON but not an object; Apple sends {\"signedPayload\":\"<JWS>\"}.")
        }
        guard let member = root.member("signedPayload") else {
            throw SignedDataDecodingError(.invalidPayload, "The notification body has no \"signedPayload\"; Apple sends {\"signedPayload\":\"<JWS>\"}.")
        }
        guard let signedPayload = member.string else {
            throw SignedDataDecodingError(.invalidPayload, "The notification body's \"signedPayload\" is \(member.excerpt), not a string; Apple sends {\"signedPayload\":\"<JWS>\"}.")
        }
        self.signedPayload = signedPayload
    }

}
