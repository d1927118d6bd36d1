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
}
