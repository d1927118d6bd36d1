/// The outer PKCS#7 layers of a DER app receipt, located without parsing any certificate: the
/// embedded certificates' bytes, and the receipt re-encoded without them.
///
/// Parsing a receipt's three embedded certificates costs OpenSSL far more than checking its
/// signature. A server sees the same few App Store certificates in every receipt, so the warm path
/// recognises them by their exact bytes (``ReceiptCertificatesKey``), takes the chain validated
/// for an earlier receipt from the cache, and lets OpenSSL parse only the rest of the receipt
/// (``ReceiptSignedData/init(withoutCertificates:signer:)``).
///
/// Only strict DER is recognised (Apple's receipts are DER); anything else (BER as Xcode writes it,
/// no certificates, trailing bytes) yields `nil`, and the receipt takes the general path, where
/// OpenSSL parses all of it and reports what is wrong.
struct ReceiptEnvelope {
    /// The contents of the SignedData's `certificates` field: every embedded certificate's DER, in
    /// order, as a cache key.
    let certificates: ReceiptCertificatesKey
    /// The receipt's DER with the `certificates` field cut out and the enclosing lengths rewritten.
    let withoutCertificates: [UInt8]

    /// The identifier octet of `certificates [0] IMPLICIT SET OF Certificate`.
    private static let certificatesTag: UInt8 = 0xA0
    /// The identifier octet of `content [0] EXPLICIT` in ContentInfo.
    private static let explicitContentTag: UInt8 = 0xA0
    private static let objectIdentifierTag: UInt8 = 0x06

    /// Locates the layers of `der`, or returns `nil` when it is not a strict-DER ContentInfo with a
    /// SignedData embedding at least one certificate.
    init?(der: [UInt8]) {
        typealias Tag = ReceiptDERReader.Tag
        do {
            var outer = ReceiptDERReader(der, window: 0..<der.count)
            let contentInfo = try outer.read(Tag.sequence, "the ContentInfo")
            guard outer.isAtEnd else { return nil }

            var contentInfoReader = outer.reader(inside: contentInfo)
            let contentType = try contentInfoReader.read(Self.objectIdentifierTag, "the content type")
            let explicit = try contentInfoReader.read(Self.explicitContentTag, "the content")
            guard contentInfoReader.isAtEnd else { return nil }

            var explicitReader = contentInfoReader.reader(inside: explicit)
            let signedData = try explicitReader.read(Tag.sequence, "the SignedData")
            guard explicitReader.isAtEnd else { return nil }

            // SignedData: version, digestAlgorithms, contentInfo, [0] certificates, [1] crls, signerInfos.
            var signedDataReader = explicitReader.reader(inside: signedData)
            var kept: [ReceiptDERReader.Element] = []
            var certificatesField: ReceiptDERReader.Element?
            while !signedDataReader.isAtEnd {
                let element = try signedDataReader.read("a SignedData member")
                if element.tag == Self.certificatesTag {
                    guard certificatesField == nil, kept.count == 3 else { return nil }
                    certificatesField = element
                } else {
                    kept.append(element)
                }
            }
            guard let certificatesField else { return nil }

            var certificateReader = signedDataReader.reader(inside: certificatesField)
            var count = 0
            while !certificateReader.isAtEnd {
                _ = try certificateReader.read(Tag.sequence, "an embedded certificate")
                count += 1
            }
            guard count > 0 else { return nil }

            // Re-encode ContentInfo { contentType, [0] { SignedData without certificates } } in
            // one buffer: the lengths first, then every byte once.
            let signedDataLength = signedData.contents.count - certificatesField.encoding.count
            let explicitLength = Self.headerLength(signedDataLength) + signedDataLength
            let contentInfoLength = contentType.encoding.count + Self.headerLength(explicitLength) + explicitLength
            var encoding: [UInt8] = []
            encoding.reserveCapacity(Self.headerLength(contentInfoLength) + contentInfoLength)
            Self.appendHeader(Tag.sequence, contentInfoLength, to: &encoding)
            encoding.append(contentsOf: der[contentType.encoding])
            Self.appendHeader(Self.explicitContentTag, explicitLength, to: &encoding)
            Self.appendHeader(Tag.sequence, signedDataLength, to: &encoding)
            for element in kept {
                encoding.append(contentsOf: der[element.encoding])
            }
            withoutCertificates = encoding
            certificates = ReceiptCertificatesKey(borrowing: der[certificatesField.contents])
        } catch {
            return nil
        }
    }

    /// The size of a DER identifier and definite length (shortest form) for `length` content bytes.
    private static func headerLength(_ length: Int) -> Int {
        guard length > 0x7F else { return 2 }
        var count = 0
        var value = length
        while value > 0 {
            count += 1
            value >>= 8
        }
        return 2 + count
    }

    /// Appends a DER identifier and definite length (shortest form).
    private static func appendHeader(_ tag: UInt8, _ length: Int, to encoding: inout [UInt8]) {
        encoding.append(tag)
        guard length > 0x7F else {
            encoding.append(UInt8(length))
            return
        }
        let count = headerLength(length) - 2
        encoding.append(0x80 | UInt8(count))
        for index in stride(from: count - 1, through: 0, by: -1) {
            encoding.append(UInt8(truncatingIfNeeded: length >> (8 * index)))
        }
    }
}
