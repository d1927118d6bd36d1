import Foundation

extension UUID {
    /// A random (version 4) UUID from the system's random number generator (`getrandom` on Linux):
    /// Foundation's `UUID()` opens and reads `/dev/urandom` for each UUID there, which cost more
    /// than the rest of a signature's bookkeeping.
    static func randomNonce() -> UUID {
        var generator = SystemRandomNumberGenerator()
        // Big-endian halves: byte 6's high nibble is the version (4), byte 8's top bits the
        // variant (RFC 9562: binary 10).
        let high = (generator.next() as UInt64) & ~0xF000 | 0x4000
        let low = (generator.next() as UInt64) & ~(0xC0 << 56) | (0x80 << 56)
        let halves = (high.bigEndian, low.bigEndian)
        return withUnsafeBytes(of: halves) { UUID(uuid: $0.loadUnaligned(as: uuid_t.self)) }
    }

    private static let lowercaseHexDigits = Array("0123456789abcdef".utf8)

    /// The lowercase text of this UUID (8-4-4-4-12 hex digits), as nonces are signed: the same as
    /// `uuidString.lowercased()` without formatting through `sprintf` and lowercasing a copy.
    var lowercasedText: String {
        withUnsafeBytes(of: uuid) { bytes in
            String(unsafeUninitializedCapacity: 36) { out in
                var position = 0
                for (index, byte) in bytes.enumerated() {
                    if index == 4 || index == 6 || index == 8 || index == 10 {
                        out[position] = UInt8(ascii: "-")
                        position += 1
                    }
                    out[position] = Self.lowercaseHexDigits[Int(byte >> 4)]
                    out[position + 1] = Self.lowercaseHexDigits[Int(byte & 0x0F)]
                    position += 2
                }
                return position
            }
        }
    }
}
