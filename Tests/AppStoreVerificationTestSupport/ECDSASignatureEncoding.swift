import Foundation

/// ECDSA P-256 signatures between JOSE's form (`r || s`, 64 bytes) and DER's ECDSA-Sig-Value
/// (SEQUENCE { INTEGER r, INTEGER s }), as `openssl dgst` writes and reads them.
public enum ECDSASignatureEncoding {
    /// The raw `r || s` (64 bytes) of a DER ECDSA-Sig-Value, or `nil` when it is not one.
    public static func raw(fromDER der: Data) -> Data? {
        let bytes = [UInt8](der)
        guard bytes.count >= 8, bytes[0] == 0x30, Int(bytes[1]) == bytes.count - 2 else { return nil }
        var offset = 2
        var out = Data()
        for _ in 0..<2 {
            guard offset + 2 <= bytes.count, bytes[offset] == 0x02 else { return nil }
            let length = Int(bytes[offset + 1])
            guard length >= 1, length <= 33, offset + 2 + length <= bytes.count else { return nil }
            var integer = Array(bytes[(offset + 2)..<(offset + 2 + length)])
            while integer.count > 32, integer.first == 0 { integer.removeFirst() }
            guard integer.count <= 32 else { return nil }
            out += Data(repeating: 0, count: 32 - integer.count) + integer
            offset += 2 + length
        }
        return offset == bytes.count ? out : nil
    }

    /// A JOSE ES256 signature (r || s, 64 bytes) as a DER ECDSA-Sig-Value, or `nil` when it is not
    /// 64 bytes.
    public static func der(fromRaw raw: Data) -> Data? {
        guard raw.count == 64 else { return nil }
        func integer(_ bytes: Data) -> [UInt8] {
            var value = Array(bytes.drop { $0 == 0 })
            if value.first.map({ $0 & 0x80 != 0 }) ?? true { value.insert(0, at: 0) }
            return [0x02, UInt8(value.count)] + value
        }
        let body = integer(raw.prefix(32)) + integer(raw.suffix(32))
        return Data([0x30, UInt8(body.count)] + body)
    }
}
