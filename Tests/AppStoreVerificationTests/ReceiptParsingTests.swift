import AppStoreVerificationTestSupport
import Foundation
import Testing
@testable import AppStoreVerification

@Suite("App receipt parsing")
struct ReceiptParsingTests {
    @Test("the embedded Apple Root CA has Apple's published SHA-256 fingerprint and parses")
    func appleRootCAFingerprint() throws {
        #expect(TrustedRoot.appleRootCA.sha256Fingerprint
            == "B0:B1:73:0E:CB:C7:FF:45:05:14:2C:49:F1:29:5E:6E:DA:6B:CA:ED:7E:2C:68:C5:BE:91:B5:A1:10:01:F0:24")
        let parsed = try TrustedRoot(derEncoded: TrustedRoot.appleRootCA.derEncoded)
        #expect(parsed.name.contains("Apple Root CA"))
        #expect(SignedDataVerifier.Configuration().trustedReceiptRoots == [.appleRootCA])
    }

    @Test("the embedded Apple Root CA equals ../shared/apple/AppleRootCA.cer", .enabled(if: TestPaths.sharedIsPresent, sharedAbsentComment))
    func appleRootCAMatchesPublished() throws {
        #expect(try Data(contentsOf: TestPaths.sharedFile("apple/AppleRootCA.cer")) == TrustedRoot.appleRootCA.derEncoded)
    }

    @Test("RFC 3339 receipt dates", arguments: [
        ("2024-02-23T17:27:16Z", 1_708_709_236.0),
        ("2020-07-22T18:33:15+0100", 1_595_439_195.0),
        ("2020-07-22T18:33:15+01:00", 1_595_439_195.0),
        ("2020-07-22T18:33:15-0230", 1_595_451_795.0),
        ("2015-08-13T07:50:46.500Z", 1_439_452_246.5),
        ("2000-02-29T00:00:00Z", 951_782_400.0),
        ("1969-12-31T23:59:59Z", -1.0),
    ])
    func dates(_ text: String, _ seconds: Double) throws {
        let parsed = try #require(ReceiptDate.parse(Array(text.utf8)))
        #expect(parsed == Date(timeIntervalSince1970: seconds))
    }

    @Test("the empty string is no date; malformed dates are refused", arguments: [
        "2024-02-30T00:00:00Z", "2023-02-29T00:00:00Z", "2024-13-01T00:00:00Z", "2024-02-23 17:27:16Z", "2024-02-23T17:27:16",
        "2024-02-23T24:00:00Z", "2024-02-23T17:27:16Z ", "2024-02-23T17:27:16+1", "2024-02-23T17:27:16.Z", "24-02-23T17:27:16Z",
        "2024-02-23T17:27:16+2400", "２024-02-23T17:27:16Z",
    ])
    func badDates(_ text: String) {
        #expect(ReceiptDate.parse(Array(text.utf8)) == nil, "\(text)")
        #expect(ReceiptDate.parse([]) == .some(nil))
    }

    @Test("the DER reader never reads past a length and refuses what DER forbids", arguments: [
        ([0x31], "no length octet"),
        ([0x31, 0x05, 0x02, 0x01], "says it is 5 bytes long"),
        ([0x31, 0x80, 0x00, 0x00], "indefinite length"),
        ([0x31, 0x81, 0x05, 0, 0, 0, 0, 0], "long form"),
        ([0x31, 0x82, 0x00, 0x80] + [UInt8](repeating: 0, count: 128), "leading zero"),
        ([0x31, 0x85, 1, 1, 1, 1, 1], "5-octet length"),
        ([0x31, 0x84, 0x7F, 0xFF, 0xFF, 0xFF], "at most"),
        ([0x3F, 0x01, 0x00], "high tag number"),
        ([0x31, 0x84, 0x00], "length octets run past"),
    ] as [([UInt8], String)])
    func derReader(_ bytes: [UInt8], _ message: String) {
        var reader = ReceiptDERReader(bytes, window: 0..<bytes.count)
        #expect {
            _ = try reader.read("the element")
        } throws: { error in
            (error as? ReceiptFormatError)?.message.contains(message) == true
        }
    }

    @Test("INTEGER values: minimal encodings only, up to 8 octets, negative values sign-extended")
    func integers() throws {
        func value(_ bytes: [UInt8]) throws -> Int64 {
            let encoded: [UInt8] = [0x02, UInt8(bytes.count)] + bytes
            var reader = ReceiptDERReader(encoded, window: 0..<encoded.count)
            let element = try reader.read("n")
            return try reader.integer(element, "n")
        }
        #expect(try value([0x00]) == 0)
        #expect(try value([0x7F]) == 127)
        #expect(try value([0x00, 0x80]) == 128)
        #expect(try value([0xFF]) == -1)
        #expect(try value([0x80]) == -128)
        #expect(try value([0x07, 0x1A, 0xFD, 0x49, 0x8D, 0x00, 0x7B]) == 2_000_000_000_000_123)
        #expect(throws: ReceiptFormatError.self) { try value([0x00, 0x01]) }
        #expect(throws: ReceiptFormatError.self) { try value([0xFF, 0x80]) }
        #expect(throws: ReceiptFormatError.self) { try value([]) }
        #expect(throws: ReceiptFormatError.self) { try value([UInt8](repeating: 1, count: 9)) }
    }

    @Test("AppReceipt(payload:) decodes a minimal payload and refuses garbage with malformedReceipt")
    func payloadDecoding() throws {
        // SET { SEQUENCE { 2, 1, OCTET STRING { UTF8String "a.b" } } }
        let payload = Data([0x31, 0x0F, 0x30, 0x0D, 0x02, 0x01, 0x02, 0x02, 0x01, 0x01, 0x04, 0x05, 0x0C, 0x03, 0x61, 0x2E, 0x62])
        let receipt = try AppReceipt(payload: payload)
        #expect(receipt.bundleId == "a.b")
        #expect(receipt.fields == [ReceiptField(type: 2, version: 1, value: Data([0x0C, 0x03, 0x61, 0x2E, 0x62]))])
        #expect(receipt.inApp.isEmpty)
        #expect {
            try AppReceipt(payload: Data([0x31, 0x00, 0x00]))
        } throws: { error in
            (error as? SignedDataDecodingError)?.code == .malformedReceipt
        }
        #expect(try AppReceipt(payload: Data([0x31, 0x00])).fields.isEmpty)
    }

    @Test("random mutations of a receipt payload never crash the decoder")
    func mutations() throws {
        let vector = try #require(ReceiptVector.all.first { $0.name == "valid-sha256" })
        let verifier = try vector.makeVerifier()
        let original = try [UInt8](Data(contentsOf: TestPaths.testVector(vector.file)))
        var random = SplitMix64(seed: 0x5EC0_0001)
        for _ in 0..<2_000 {
            var bytes = original
            for _ in 0...random.below(4) {
                let index = random.below(bytes.count)
                switch random.below(3) {
                case 0: bytes[index] = UInt8(truncatingIfNeeded: random.next())
                case 1: bytes.remove(at: index)
                default: bytes.insert(UInt8(truncatingIfNeeded: random.next()), at: index)
                }
            }
            if let result = try? verifier.verifyAppReceipt(Data(bytes)) {
                // A mutated receipt can only verify if the mutation left the signed bytes alone.
                if result.isVerified { #expect(try result.payloadValue.bundleId == "com.example.app") }
            }
        }
    }
}
