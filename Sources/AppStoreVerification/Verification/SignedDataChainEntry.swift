import Foundation

/// A JWS chain the verifier remembers, by the exact header segment that carried it: the chain, the
/// SHA-256 state of `header.` (so that only the payload is hashed per verification), and, online,
/// what to ask the OCSP responders about. A hit means the header passed its checks and its `x5c`
/// chain validated, within the recorded window, so the JWS costs one signature check.
struct SignedDataChainEntry: ValidityWindowed {
    let chain: ValidatedChain
    /// `nil` only for an entry that is not remembered (the state could not be computed).
    let headerDigest: SHA256Prefix?
    /// Online mode's subjects (leaf and intermediate with their issuers), derived once from
    /// `chain`; `nil` offline.
    let revocationSubjects: Result<RevocationSubjects, VerificationError>?

    var validity: Range<Int64> { chain.validity }
}

extension ValidatedChainCache where Key == HeaderSegmentKey, Entry == SignedDataChainEntry {
    /// The entry for `jws`'s header if its chain is valid at `instant`.
    func entry(for jws: CompactJWS, at instant: Int64) -> Entry? {
        entry(for: HeaderSegmentKey(jws.headerSegment), at: instant)
    }

    /// Remembers `entry` for `jws`'s header.
    func insert(_ entry: Entry, for jws: CompactJWS) {
        insert(entry, for: HeaderSegmentKey(jws.headerSegment).owned())
    }
}

/// The key of the validated-chain cache: a JWS header segment, compared in full but hashed from a
/// sample.
///
/// Headers are several kilobytes of base64 certificates; hashing all of it on every verification
/// would cost more than the lookup saves. Two headers carrying different chains differ in their
/// first bytes (the leaf's serial number and key) and in their last (the signatures), so the hash
/// covers the length, the first 256 and the last 128 bytes. Equality still compares every byte, so
/// a collision costs a comparison, never a wrong answer, and the cache is small and bounded.
struct HeaderSegmentKey: Hashable, Sendable {
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
    func owned() -> HeaderSegmentKey {
        HeaderSegmentKey(segment: Substring(String(segment)), sample: sample)
    }

    static func == (lhs: HeaderSegmentKey, rhs: HeaderSegmentKey) -> Bool {
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
        let sampledInPlace = utf8.withContiguousStorageIfAvailable { bytes -> Bool in
            hasher.combine(bytes: UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: bytes.prefix(256))))
            hasher.combine(bytes: UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: bytes.suffix(128))))
            return true
        } ?? false
        if !sampledInPlace {
            for byte in utf8.prefix(256) { hasher.combine(byte) }
            for byte in utf8.suffix(128) { hasher.combine(byte) }
        }
        return hasher.finalize()
    }
}
