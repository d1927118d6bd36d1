import Foundation
import Testing
@testable import AppStoreVerification

/// The payload decoder's bounds, reached with payloads built here: at each bound the payload
/// decodes, one past it the payload is refused with a message naming the bound.
@Suite("App receipt payload bounds")
struct ReceiptPayloadBoundsTests {
    /// A DER length: short form below 128, else the shortest long form.
    static func length(_ count: Int) -> [UInt8] {
        guard count >= 0x80 else { return [UInt8(count)] }
        var octets: [UInt8] = []
        var rest = count
        while rest > 0 {
            octets.insert(UInt8(truncatingIfNeeded: rest), at: 0)
            rest >>= 8
        }
        return [0x80 | UInt8(octets.count)] + octets
    }

    static func element(_ tag: UInt8, _ contents: [UInt8]) -> [UInt8] {
        [tag] + length(contents.count) + contents
    }

    /// An attribute of an undocumented type (kept raw): SEQUENCE { 1000, 1, OCTET STRING value }.
    static func attribute(type: Int = 1000, value: [UInt8] = []) -> [UInt8] {
        let typeOctets: [UInt8] = type < 0x80 ? [UInt8(type)] : [UInt8(type >> 8), UInt8(truncatingIfNeeded: type)]
        return element(0x30, element(0x02, typeOctets) + [0x02, 0x01, 0x01] + element(0x04, value))
    }

    /// A SET of `count` raw attributes.
    static func set(ofAttributes count: Int) -> [UInt8] {
        let one = attribute()
        var contents: [UInt8] = []
        contents.reserveCapacity(one.count * count)
        for _ in 0..<count { contents += one }
        return element(0x31, contents)
    }

    static func decode(_ payload: [UInt8]) throws(SignedDataDecodingError) -> AppReceipt {
        try AppReceipt(payload: Data(payload))
    }

    static func expectRefused(_ payload: [UInt8], saying text: String) {
        #expect {
            _ = try decode(payload)
        } throws: { error in
            guard let error = error as? SignedDataDecodingError else { return false }
            return error.code == .malformedReceipt && error.message.contains(text)
        }
    }

    // MARK: - maximumFieldsPerSet

    @Test("the receipt's SET: maximumFieldsPerSet attributes decode, one more is refused")
    func receiptFieldsBound() throws {
        let bound = ReceiptPayloadParser.maximumFieldsPerSet
        let atBound = try Self.decode(Self.set(ofAttributes: bound))
        #expect(atBound.fields.count == bound)
        Self.expectRefused(Self.set(ofAttributes: bound + 1), saying: "the receipt has more than \(bound) attributes")
    }

    @Test("an in-app purchase's SET: maximumFieldsPerSet attributes decode, one more is refused")
    func inAppFieldsBound() throws {
        let bound = ReceiptPayloadParser.maximumFieldsPerSet
        func payload(_ count: Int) -> [UInt8] {
            Self.element(0x31, Self.attribute(type: 17, value: Self.set(ofAttributes: count)))
        }
        let atBound = try Self.decode(payload(bound))
        #expect(atBound.inApp.count == 1)
        #expect(atBound.inApp.first?.fields.count == bound)
        Self.expectRefused(payload(bound + 1), saying: "in-app purchase 0 has more than \(bound) attributes")
    }

    // MARK: - ReceiptDERReader.maximumLength

    /// A payload whose SET's contents are exactly `contentLength` bytes: one raw attribute whose
    /// value fills what the headers leave (all of them 6 bytes at these sizes).
    static func payload(setContentLength contentLength: Int) throws -> [UInt8] {
        // SEQUENCE header (6) + type INTEGER (4) + version INTEGER (3) + OCTET STRING header (6).
        let value = [UInt8](repeating: 0x41, count: contentLength - 19)
        let payload = element(0x31, attribute(value: value))
        try #require(payload.count == 6 + contentLength, "the headers are not the sizes assumed")
        return payload
    }

    @Test("an element of ReceiptDERReader.maximumLength bytes decodes, one byte longer is refused before its contents are read")
    func elementLengthBound() throws {
        let bound = ReceiptDERReader.maximumLength
        let atBound = try Self.decode(Self.payload(setContentLength: bound))
        #expect(atBound.fields.count == 1)
        #expect(atBound.fields.first?.value.count == bound - 19)
        Self.expectRefused(try Self.payload(setContentLength: bound + 1),
                           saying: "is \(bound + 1) bytes long; at most \(bound) are accepted")
    }
}
