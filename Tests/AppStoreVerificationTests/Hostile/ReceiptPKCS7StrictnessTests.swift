import AppStoreVerificationTestSupport
import Foundation
import Testing
@testable import AppStoreVerification

/// PKCS#7 fields App Store receipts never carry, which OpenSSL's decoder would accept: each is
/// refused before any signature is checked, on the cold path and on the warm path alike.
@Suite("App receipts: PKCS#7 fields Apple never emits are refused")
struct ReceiptPKCS7StrictnessTests {
    /// A DER element and its children (for constructed elements).
    struct Node {
        var tag: UInt8
        var children: [Node]
        var contents: [UInt8]  // primitive contents, or empty for constructed ones
        var isConstructed: Bool { tag & 0x20 != 0 }

        init(tag: UInt8, children: [Node] = [], contents: [UInt8] = []) {
            self.tag = tag; self.children = children; self.contents = contents
        }

        init(_ bytes: [UInt8]) throws {
            var reader = ReceiptDERReader(bytes, window: 0..<bytes.count)
            try self.init(reading: &reader, in: bytes)
        }

        init(reading reader: inout ReceiptDERReader, in bytes: [UInt8]) throws {
            let element = try reader.read("element")
            tag = element.tag
            children = []
            contents = []
            if element.tag & 0x20 != 0 {
                var inner = reader.reader(inside: element)
                while !inner.isAtEnd { children.append(try Node(reading: &inner, in: bytes)) }
            } else {
                contents = Array(bytes[element.contents])
            }
        }

        var der: [UInt8] { DER.tlv(tag, isConstructed ? children.flatMap(\.der) : contents) }
    }

    static let valid = TestPaths.testVector("receipts/valid-sha256.der")

    /// Applies `change` to the SignedData of the valid receipt.
    static func mutated(_ change: (inout [Node]) -> Void) throws -> Data {
        var contentInfo = try Node(Array(Data(contentsOf: valid)))
        change(&contentInfo.children[1].children[0].children)
        return Data(contentInfo.der)
    }

    static func verifier() throws -> SignedDataVerifier {
        try SignedDataVerifier(configuration: .init(
            bundleId: "com.example.app", environment: .sandbox,
            trustedReceiptRoots: [try TrustedRoot(derEncoded: Data(contentsOf: TestPaths.testVector("receipts/pki/root.der")))]))
    }

    /// contentType (1.2.840.113549.1.9.3) = id-data: a well-formed attribute.
    static let attribute = Node(tag: 0x30, children: [
        Node(tag: 0x06, contents: [0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x09, 0x03]),
        Node(tag: 0x31, children: [Node(tag: 0x06, contents: [0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x07, 0x01])]),
    ])

    nonisolated(unsafe) static let mutations: [(name: String, expected: String, change: (inout [Node]) -> Void)] = [
        ("SignedData version 5", "version 5", { $0[0].contents = [5] }),
        ("SignedData version 3", "version 3", { $0[0].contents = [3] }),
        ("primitive [0] certificates", "primitive", { signedData in
            let certificates = signedData[3].children.flatMap(\.der)
            signedData[3] = Node(tag: 0x80, contents: certificates)
        }),
        ("an empty crls field", "crls", { $0.insert(Node(tag: 0xA1), at: 4) }),
        ("unsigned signer attributes", "unsigned attributes", { signedData in
            signedData[signedData.count - 1].children[0].children.append(Node(tag: 0xA1, children: [attribute]))
        }),
        ("SignerInfo version 3", "SignerInfo is version 3", { signedData in
            signedData[signedData.count - 1].children[0].children[0].contents = [3]
        }),
    ]

    @Test("the unmodified receipt verifies (the rebuild is faithful)")
    func faithful() throws {
        let rebuilt = try Self.mutated { _ in }
        #expect(rebuilt == (try Data(contentsOf: Self.valid)))
        #expect(try Self.verifier().verifyAppReceipt(rebuilt).isVerified)
    }

    @Test("refused as malformedReceipt, cold and warm", arguments: mutations.indices)
    func refused(_ index: Int) throws {
        let mutation = Self.mutations[index]
        let receipt = try Self.mutated(mutation.change)
        let warm = try Self.verifier()
        #expect(try warm.verifyAppReceipt(Data(contentsOf: Self.valid)).isVerified)
        for (path, verifier) in [("cold", try Self.verifier()), ("warm", warm)] {
            #expect("\(mutation.name), \(path)") {
                _ = try verifier.verifyAppReceipt(receipt)
            } throws: { error in
                guard let error = error as? SignedDataDecodingError else { return false }
                return error.code == .malformedReceipt && error.message.contains(mutation.expected)
            }
        }
    }
}
