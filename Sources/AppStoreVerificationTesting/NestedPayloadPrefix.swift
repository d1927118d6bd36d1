import AppStoreVerification
import Foundation

/// The starts of the last payloads a minter signed that carried a JWS of its own (a notification's
/// nested transaction, renewal info or app transaction): the JSON before the nested JWS, the
/// base64url of that JSON and of the nested header after it, and SHA-256 having absorbed the
/// minter's `header.` and that base64url.
///
/// A notification's JSON before its first nested JWS is the same from one notification to the
/// next for an app (members sorted by name: `data`'s `appAppleId`, `bundleId`, `bundleVersion`,
/// `environment` come first), and the nested header is the minter's own, about three quarters of
/// the outer payload. With this start remembered, the next such payload is base64url-encoded and
/// hashed from where the remembered part ends: the same bytes, without encoding and hashing the
/// nested header a second time.
final class NestedPayloadPrefix: @unchecked Sendable {
    /// A remembered start.
    struct Entry {
        /// The payload's JSON before the nested header.
        let lead: [UInt8]
        /// How many bytes of the payload `encoded` encodes: a multiple of three, through the lead
        /// and most of the nested header.
        let consumed: Int
        /// base64url of the payload's first `consumed` bytes.
        let encoded: [UInt8]
        /// SHA-256 having absorbed the minter's `header.` and `encoded`.
        let digest: SHA256Prefix
    }

    /// The minter's base64url header: what a nested JWS of its own starts with.
    let header: [UInt8]
    /// Where a nested JWS is looked for: a notification's members before `data`'s first signed
    /// string are short.
    static let searchedLength = 2048

    /// How many starts are remembered (several apps' notifications, minted in turns).
    static let capacity = 8

    private let lock = NSLock()
    /// The most recently remembered first.
    private var entries: [Entry] = []

    /// The signing input's start, `header.`: what every remembered digest absorbed first.
    private let headerDot: [UInt8]

    init(header: [UInt8]) {
        self.header = header
        self.headerDot = header + [UInt8(ascii: ".")]
    }

    /// A remembered start `payload` begins with.
    func entry(for payload: UnsafeRawBufferPointer) -> Entry? {
        guard let base = payload.baseAddress, payload.count > header.count else { return nil }
        lock.lock()
        let entries = self.entries
        lock.unlock()
        for entry in entries where payload.count >= entry.lead.count + header.count {
            if Self.bytes(at: base, equal: entry.lead), Self.bytes(at: base + entry.lead.count, equal: header) {
                return entry
            }
        }
        return nil
    }

    /// Where the first JWS of this minter starts in `payload`, if it does near its start.
    func nestedHeaderOffset(in payload: UnsafeRawBufferPointer) -> Int? {
        guard let base = payload.baseAddress, let first = header.first, payload.count >= header.count else { return nil }
        let last = min(payload.count - header.count, Self.searchedLength)
        var offset = 0
        while offset <= last {
            if base.load(fromByteOffset: offset, as: UInt8.self) == first, Self.bytes(at: base + offset, equal: header) {
                return offset
            }
            offset += 1
        }
        return nil
    }

    /// Whether the bytes at `pointer` are `expected` (`pointer` is readable for as many).
    private static func bytes(at pointer: UnsafeRawPointer, equal expected: [UInt8]) -> Bool {
        expected.withUnsafeBytes { expected in
            guard let start = expected.baseAddress else { return true }
            return memcmp(pointer, start, expected.count) == 0
        }
    }

    /// Remembers `payload`'s start, whose base64url `segment` was just written, when it carries a
    /// JWS of this minter after some JSON.
    func remember(payload: UnsafeRawBufferPointer, segment: UnsafeBufferPointer<UInt8>) {
        guard let offset = nestedHeaderOffset(in: payload), offset > 0 else { return }
        let consumed = (offset + header.count) / 3 * 3
        let encoded = Array(segment[..<(consumed / 3 * 4)])
        guard let digest = try? SHA256Prefix(absorbing: headerDot + encoded) else { return }
        let entry = Entry(lead: Array(payload[..<offset]), consumed: consumed, encoded: encoded, digest: digest)
        lock.lock()
        entries.removeAll { $0.lead == entry.lead }
        entries.insert(entry, at: 0)
        if entries.count > Self.capacity { entries.removeLast() }
        lock.unlock()
    }
}
