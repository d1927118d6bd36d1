import Foundation
import Testing

/// Where the repository's tests find their data, from any of its packages (the library, Tools,
/// ReceiptServer): this file is `<repository>/Tests/AppStoreVerificationTestSupport/TestPaths.swift`.
public enum TestPaths {
    /// The repository's root (the library's package): the tool's tests run there, so that paths
    /// like `TestVectors/jws/transaction-valid.jws` resolve.
    public static let repositoryRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // AppStoreVerificationTestSupport
        .deletingLastPathComponent()  // Tests
        .deletingLastPathComponent()

    /// `<repository>/TestVectors`, shipped with the library.
    public static let testVectors = repositoryRoot.appendingPathComponent("TestVectors", isDirectory: true)

    /// `<repository>/../shared`: data beside the repository (Apple's vectors and certificates,
    /// Wycheproof, the oracle). Absent on a user's fresh clone; tests that need it are skipped then.
    public static let shared = repositoryRoot.deletingLastPathComponent().appendingPathComponent("shared", isDirectory: true)

    /// Whether `../shared` is there.
    public static var sharedIsPresent: Bool { FileManager.default.fileExists(atPath: shared.path) }

    /// A file of `../shared`.
    public static func sharedFile(_ relativePath: String) -> URL { shared.appendingPathComponent(relativePath) }

    /// A file of `TestVectors/`.
    public static func testVector(_ relativePath: String) -> URL { testVectors.appendingPathComponent(relativePath) }

    /// The `vectors` of a manifest of `TestVectors/` (`{"vectors": [...]}`); none when it cannot be
    /// read.
    public static func vectors<Vector: Decodable>(inManifest relativePath: String) -> [Vector] {
        guard let data = try? Data(contentsOf: testVector(relativePath)),
              let manifest = try? JSONDecoder().decode(VectorManifest<Vector>.self, from: data)
        else { return [] }
        return manifest.vectors
    }

    /// The text of a file with surrounding white space removed.
    public static func text(_ url: URL) throws -> String {
        try String(contentsOf: url, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
    }
}

/// A manifest of `TestVectors/`: its vectors.
private struct VectorManifest<Vector: Decodable>: Decodable {
    var vectors: [Vector]
}

/// The message for tests skipped because `../shared` is absent (on every clone but this project's CI).
public let sharedAbsentComment: Comment = """
    needs ../shared beside the repository (Apple's real receipts, certificates and test vectors, \
    Wycheproof, Apple's official library as oracle; kept beside the repository, not shipped). \
    These tests run in this project's CI; everything else runs here.
    """
