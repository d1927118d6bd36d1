import AppStoreVerification
import Foundation

/// The JSON the server writes (stored records and rejections, response bodies): the library's
/// public encoder, `AppStoreJSON.makeEncoder()` (keys sorted, slashes unescaped, dates as
/// milliseconds since 1970), made once and shared (a `JSONEncoder` whose options are never changed
/// encodes from any thread).
enum ServerJSON {
    private static let encoder = AppStoreJSON.makeEncoder()

    /// `value` as JSON bytes.
    ///
    /// - Throws: `EncodingError` as `JSONEncoder` throws it.
    static func encode(_ value: some Encodable) throws -> Data {
        try encoder.encode(value)
    }
}
