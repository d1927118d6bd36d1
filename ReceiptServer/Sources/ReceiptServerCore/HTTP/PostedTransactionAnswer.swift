/// The answer of `POST /transactions` to an anonymous caller (an app, or anyone): only about what
/// was posted. It names no customer and no other purchase, so re-posting someone's signed
/// transaction tells a stranger nothing they did not send.
///
/// ```json
/// {"stored": true, "verified": true, "transactionId": "2000000123456789", "originalTransactionId": "2000000100000001"}
/// ```
/// `stored` is false for a re-send, which changes nothing. Your backend (``Caller/backend``) gets
/// the customer's ``EntitlementsAnswer`` with `stored` instead.
struct PostedTransactionAnswer: Encodable, Sendable {
    /// Whether the posted JWS was new.
    let stored: Bool
    /// Always true in a 200: what did not verify is answered 422.
    let verified: Bool
    /// The posted transaction's ID.
    let transactionId: String
    /// Its purchase.
    let originalTransactionId: String
}

extension PostedTransactionAnswer {
    /// The answer as the JSON ``ServerJSON`` encodes (keys sorted), written directly: every POST
    /// answers one, and a `JSONEncoder` costs more than the writing.
    var json: [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(96 + originalTransactionId.utf8.count + transactionId.utf8.count)
        bytes += Array(#"{"originalTransactionId":"#.utf8)
        ServerJSON.appendString(originalTransactionId, to: &bytes)
        bytes += Array(#","stored":"#.utf8) + Array((stored ? "true" : "false").utf8)
        bytes += Array(#","transactionId":"#.utf8)
        ServerJSON.appendString(transactionId, to: &bytes)
        bytes += Array(#","verified":"#.utf8) + Array((verified ? "true" : "false").utf8) + [UInt8(ascii: "}")]
        return bytes
    }
}
