import Foundation
import Testing

/// One entry of TestVectors/receipts/manifest.json: what the CLI tests need of it (the root
/// package's ReceiptVectorTests check the library's verdicts on the same receipts).
struct ReceiptVector: Decodable, Sendable, CustomTestStringConvertible {
    struct Options: Decodable, Sendable {
        var receiptRoots: [String]
        var bundleId: String?
        var environment: String?
        var effectiveDate: String?
        var xcodeReceiptCertificate: String?
        var maximumInputLength: Int?
    }

    struct Expected: Decodable, Sendable {
        var status: String
        var code: String?
    }

    var name: String
    var file: String
    var description: String
    var options: Options
    var expected: Expected

    var testDescription: String { name }

    /// Every receipt vector in the manifest.
    static let all: [ReceiptVector] = {
        struct Manifest: Decodable { var vectors: [ReceiptVector] }
        guard let data = try? Data(contentsOf: TestPaths.testVector("receipts/manifest.json")),
              let manifest = try? JSONDecoder().decode(Manifest.self, from: data)
        else { return [] }
        return manifest.vectors
    }()
}
