/// A JSON body a route takes, decoded by ``StrictJSONRequestDecoder``: its ``shape`` is what an
/// `invalidBody` answer tells the sender to send.
protocol JSONRequestBody: Decodable, Sendable {
    /// The body as an example, such as `{"signedPayload": "<JWS>"}`.
    static var shape: String { get }
}

/// A JSON body a route also takes empty (no body at all): an empty body decodes as ``whenEmpty``.
protocol OptionalJSONRequestBody: JSONRequestBody {
    /// What an empty body means.
    static var whenEmpty: Self { get }
}
