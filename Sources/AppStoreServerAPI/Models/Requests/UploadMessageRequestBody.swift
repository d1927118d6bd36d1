/// The body of Upload Message (Apple's `UploadMessageRequestBody`): a retention message's text and,
/// optionally, an image and bullet points.
///
/// Apple checks the limits (header 66 characters, body 144, at most 5 bullet points) and answers
/// with ``APIErrorCode/headerTooLong``, ``APIErrorCode/bodyTooLong`` or
/// ``APIErrorCode/badRequestTooManyBulletPoints``.
public struct UploadMessageRequestBody: Sendable, Hashable, Encodable {
    /// The header text, at most 66 characters.
    public var header: String
    /// The body text, at most 144 characters.
    public var body: String
    /// An image shown with the text.
    public var image: UploadMessageImage?
    /// Where the header goes; Apple's default is above the body.
    public var headerPosition: HeaderPosition?
    /// Up to 5 bullet points.
    public var bulletPoints: [BulletPoint]?

    /// A message.
    ///
    /// - Parameters: as the properties describe.
    public init(header: String, body: String, image: UploadMessageImage? = nil, headerPosition: HeaderPosition? = nil,
                bulletPoints: [BulletPoint]? = nil) {
        self.header = header
        self.body = body
        self.image = image
        self.headerPosition = headerPosition
        self.bulletPoints = bulletPoints
    }
}
