import Foundation
import Testing

/// One entry of TestVectors/manifest.json: the library's tests check its verdicts on them
/// (TestVectorManifestTests), the tool's tests what the tool prints.
public struct ManifestVector: Decodable, Sendable, CustomTestStringConvertible {
    /// The verifier's configuration for the vector.
    public struct Options: Decodable, Sendable {
        /// The trusted roots, as file names under TestVectors/.
        public var roots: [String]
        /// The expected bundle ID, when the vector sets one.
        public var bundleId: String?
        /// The expected environment (`Production`, `Sandbox`, ...), when set.
        public var environment: String?
        /// The expected app Apple ID, when set.
        public var appAppleId: Int64?
        /// The instant the chain is checked at (ISO 8601, or `signed`: the payload's own date), when set.
        public var effectiveDate: String?
        /// Whether the verifier runs with its strict checks.
        public var strict: Bool?
    }

    /// The vector's unique name.
    public var name: String
    /// The file under TestVectors/ holding the signed data.
    public var file: String
    /// What the data is (`transaction`, `renewalInfo`, `notification`, ...).
    public var type: String
    /// What the vector checks, in a sentence.
    public var description: String
    /// The verifier's configuration.
    public var options: Options
    /// The verdict the library must give.
    public var expected: ExpectedVerdict

    /// The name, as Swift Testing shows the argument.
    public var testDescription: String { name }

    /// Every vector in the manifest.
    public static let all: [ManifestVector] = TestPaths.vectors(inManifest: "manifest.json")
}
