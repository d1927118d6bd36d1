import Foundation

extension Base64 {
    /// base64url without padding (RFC 7515 section 2), as JWS segments are encoded.
    package static func encodeURL<Bytes: ContiguousBytes>(_ bytes: Bytes) -> String {
        let standard = bytes.withUnsafeBytes { Data($0).base64EncodedString() }
        var out = [UInt8]()
        out.reserveCapacity(standard.utf8.count)
        for byte in standard.utf8 {
            switch byte {
            case UInt8(ascii: "+"): out.append(UInt8(ascii: "-"))
            case UInt8(ascii: "/"): out.append(UInt8(ascii: "_"))
            case UInt8(ascii: "="): continue
            default: out.append(byte)
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Standard base64 with `=` padding (RFC 4648 section 4).
    package static func encodeStandard<Bytes: ContiguousBytes>(_ bytes: Bytes) -> String {
        bytes.withUnsafeBytes { Data($0).base64EncodedString() }
    }
}
