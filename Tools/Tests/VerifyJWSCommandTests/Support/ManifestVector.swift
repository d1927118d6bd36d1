import Foundation
import Testing

/// One entry of TestVectors/manifest.json: what the CLI tests need of it (the root package's
/// TestVectorManifestTests check the library's verdicts on the same vectors).
struct ManifestVector: Decodable, Sendable, CustomTestStringConvertible {
    struct Options: Decodable, Sendable {
        var roots: [String]
        var bundleId: String?
        var environment: String?
        var appAppleId: Int64?
        var effectiveDate: String?
        var strict: Bool?
    }

    struct Expected: Decodable, Sendable {
        var status: String
        var code: String?
    }

    var name: String
    var file: String
    var type: String
    var options: Options
    var expected: Expected

    var testDescription: String { name }

    /// Every vector in the manifest.
    static let all: [ManifestVector] = {
        struct Manifest: Decodable { var vectors: [ManifestVector] }
        guard let data = try? Data(contentsOf: TestPaths.testVector("manifest.json")),
              let manifest = try? JSONDecoder().decode(Manifest.self, from: data)
        else { return [] }
        return manifest.vectors
    }()
}
