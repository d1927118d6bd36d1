import Foundation
import Testing

/// One entry of TestVectors/receipts/manifest.json (written by TestVectors/generate_receipts.py):
/// the library's tests check its verdicts on them (ReceiptVectorTests), the tool's tests what the
/// tool prints.
public struct ReceiptVector: Decodable, Sendable, CustomTestStringConvertible {
    /// The verifier's configuration for the receipt.
    public struct Options: Decodable, Sendable {
        /// The trusted receipt roots, as file names under TestVectors/receipts/.
        public var receiptRoots: [String]
        /// The expected bundle ID, when set.
        public var bundleId: String?
        /// The expected environment, when set.
        public var environment: String?
        /// The instant the chain is checked at (ISO 8601, or `signed`: the payload's own date), when set.
        public var effectiveDate: String?
        /// The Xcode (StoreKit testing) certificate trusted, when set.
        public var xcodeReceiptCertificate: String?
        /// The verifier's input limit in bytes, when set.
        public var maximumInputLength: Int?
    }

    /// The vector's unique name.
    public var name: String
    /// The receipt file under TestVectors/receipts/.
    public var file: String
    /// What the vector checks, in a sentence.
    public var description: String
    /// The verifier's configuration.
    public var options: Options
    /// The verdict the library must give.
    public var expected: ExpectedVerdict
    /// The device identifier the receipt is checked against, when the vector checks one.
    public var device: String?
    /// The device check's expected result.
    public var expectedDevice: String?

    /// The name, as Swift Testing shows the argument.
    public var testDescription: String { name }

    /// Every receipt vector in the manifest.
    public static let all: [ReceiptVector] = TestPaths.vectors(inManifest: "receipts/manifest.json")
}
