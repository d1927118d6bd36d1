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

    /// Appends `text` to `bytes` as a JSON string, as the encoder writes one: quotes, backslashes
    /// and control characters escaped, slashes and everything else as UTF-8.
    static func appendString(_ text: String, to bytes: inout [UInt8]) {
        let hex = Array("0123456789abcdef".utf8)
        bytes.append(UInt8(ascii: "\""))
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): bytes += [UInt8(ascii: "\\"), UInt8(ascii: "\"")]
            case UInt8(ascii: "\\"): bytes += [UInt8(ascii: "\\"), UInt8(ascii: "\\")]
            case 0x08: bytes += [UInt8(ascii: "\\"), UInt8(ascii: "b")]
            case 0x0C: bytes += [UInt8(ascii: "\\"), UInt8(ascii: "f")]
            case 0x0A: bytes += [UInt8(ascii: "\\"), UInt8(ascii: "n")]
            case 0x0D: bytes += [UInt8(ascii: "\\"), UInt8(ascii: "r")]
            case 0x09: bytes += [UInt8(ascii: "\\"), UInt8(ascii: "t")]
            case 0..<0x20: bytes += Array("\\u00".utf8) + [hex[Int(byte >> 4)], hex[Int(byte & 0x0F)]]
            default: bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }
}
