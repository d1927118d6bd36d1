import Foundation

/// The key of the validated-chain cache: a JWS header segment, compared in full but hashed from a
/// sample.
///
/// Headers are several kilobytes of base64 certificates; hashing all of it on every verification
/// would cost more than the lookup saves. Two headers carrying different chains differ in their
/// first bytes (the leaf's serial number and key) and in their last (the signatures), so the hash
/// covers the length, the first 256 and the last 128 bytes. Equality still compares every byte, so
/// a collision costs a comparison, never a wrong answer, and the cache is small and bounded.
struct HeaderKey: Hashable, Sendable {
    let segment: Substring
    /// The sampled hash, computed once when the key is made (outside the cache's lock).
    private let sample: Int

    init(_ segment: Substring) {
        self.segment = segment
        self.sample = Self.sampleHash(segment)
    }

    private init(segment: Substring, sample: Int) {
        self.segment = segment
        self.sample = sample
    }

    /// The same key with storage of its own, for keeping in the cache: the JWS it was sliced from
    /// may be large and short-lived. The sampled hash is reused, not computed again.
    func owned() -> HeaderKey {
        HeaderKey(segment: Substring(String(segment)), sample: sample)
    }

    static func == (lhs: HeaderKey, rhs: HeaderKey) -> Bool {
        guard lhs.segment.utf8.count == rhs.segment.utf8.count else { return false }
        let compared = lhs.segment.utf8.withContiguousStorageIfAvailable { left in
            rhs.segment.utf8.withContiguousStorageIfAvailable { right in
                guard let leftBytes = left.baseAddress, let rightBytes = right.baseAddress else { return left.isEmpty }
                return memcmp(leftBytes, rightBytes, left.count) == 0
            }
        }
        return (compared ?? nil) ?? lhs.segment.utf8.elementsEqual(rhs.segment.utf8)
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(sample)
    }

    private static func sampleHash(_ segment: Substring) -> Int {
        var hasher = Hasher()
        let utf8 = segment.utf8
        hasher.combine(utf8.count)
        let sampled = utf8.withContiguousStorageIfAvailable { bytes in
            hasher.combine(bytes: UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: bytes.prefix(256))))
            hasher.combine(bytes: UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: bytes.suffix(128))))
        }
        if sampled == nil {
            for byte in utf8.prefix(256) { hasher.combine(byte) }
            for byte in utf8.suffix(128) { hasher.combine(byte) }
        }
        return hasher.finalize()
    }
}
