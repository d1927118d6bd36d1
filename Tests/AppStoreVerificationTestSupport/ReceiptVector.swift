import Foundation
import Testing

/// One entry of TestVectors/receipts/manifest.json (written by TestVectors/generate_receipts.py):
/// the library's tests check its verdicts on them (ReceiptVectorTests), the tool's tests what the
/// tool prints.
public struct ReceiptVector: Decodable, Sendable, CustomTestStringConvertible {
    /// The verifier's configuration for the receipt.
    public struct Options: Decodable, Sendable {
        public var receiptRoots: [String]
        public var bundleId: String?
        public var environment: String?
        public var effectiveDate: String?
        public var xcodeReceiptCertificate: String?
        public var maximumInputLength: Int?
    }

    public var name: String
    public var file: String
    public var description: String
    public var options: Options
    public var expected: ExpectedVerdict
    /// The device identifier the receipt is checked against, when the vector checks one.
    public var device: String?
    /// The device check's expected result.
    public var expectedDevice: String?

    public var testDescription: String { name }

    /// Every receipt vector in the manifest.
    public static let all: [ReceiptVector] = TestPaths.vectors(inManifest: "receipts/manifest.json")
}
