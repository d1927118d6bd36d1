import Foundation
import Testing

/// One entry of TestVectors/manifest.json: the library's tests check its verdicts on them
/// (TestVectorManifestTests), the tool's tests what the tool prints.
public struct ManifestVector: Decodable, Sendable, CustomTestStringConvertible {
    /// The verifier's configuration for the vector.
    public struct Options: Decodable, Sendable {
        public var roots: [String]
        public var bundleId: String?
        public var environment: String?
        public var appAppleId: Int64?
        public var effectiveDate: String?
        public var strict: Bool?
    }

    public var name: String
    public var file: String
    public var type: String
    public var description: String
    public var options: Options
    public var expected: ExpectedVerdict

    public var testDescription: String { name }

    /// Every vector in the manifest.
    public static let all: [ManifestVector] = TestPaths.vectors(inManifest: "manifest.json")
}
