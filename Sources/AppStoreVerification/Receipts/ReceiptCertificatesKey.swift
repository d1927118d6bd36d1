import Foundation

/// A receipt's embedded certificates, exactly as encoded (their DER, concatenated in order): the key
/// of the chains a verifier has validated for receipts.
///
/// Equality compares every byte; the hash reads only the start of the first certificate, which
/// holds its serial number, so a lookup does not hash kilobytes.
struct ReceiptCertificatesKey: Hashable, Sendable {
    /// A lookup's key borrows the receipt's bytes; a stored key owns exactly its own.
    let bytes: ArraySlice<UInt8>

    /// How many leading bytes the hash reads: past the first certificate's serial number.
    private static let hashedPrefix = 96

    /// A key over `bytes` without copying them (for a lookup).
    init(borrowing bytes: ArraySlice<UInt8>) {
        self.bytes = bytes
    }

    /// The key of certificates given one by one (as OpenSSL re-encodes them from a parsed receipt).
    init(certificates: [[UInt8]]) {
        self.bytes = certificates.flatMap { $0 }[...]
    }

    /// The key with its own copy of the bytes, to be stored (a lookup's key borrows a receipt).
    func owned() -> ReceiptCertificatesKey {
        ReceiptCertificatesKey(borrowing: ArraySlice(Array(bytes)))
    }

    static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.bytes.count == rhs.bytes.count && lhs.bytes.withUnsafeBytes { left in
            rhs.bytes.withUnsafeBytes { right in
                left.count == 0 || memcmp(left.baseAddress!, right.baseAddress!, left.count) == 0
            }
        }
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(bytes.count)
        bytes.withUnsafeBytes { raw in
            hasher.combine(bytes: UnsafeRawBufferPointer(rebasing: raw.prefix(Self.hashedPrefix)))
        }
    }
}
