import Foundation
import Testing

/// Where the tests find the repository's data. This package is `<repository>/Tools`, and this file
/// `<repository>/Tools/Tests/VerifyJWSCommandTests/Support/TestPaths.swift`.
enum TestPaths {
    /// The repository's root (the library's package): the tool runs there, so that paths like
    /// `TestVectors/jws/transaction-valid.jws` resolve.
    static let repositoryRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // Support
        .deletingLastPathComponent()  // VerifyJWSCommandTests
        .deletingLastPathComponent()  // Tests
        .deletingLastPathComponent()  // Tools
        .deletingLastPathComponent()

    /// `<repository>/TestVectors`, shipped with the library.
    static let testVectors = repositoryRoot.appendingPathComponent("TestVectors", isDirectory: true)

    /// `<repository>/../shared`: data beside the repository (Apple's vectors and certificates).
    /// Absent on a user's fresh clone; tests that need it are skipped then.
    static let shared = repositoryRoot.deletingLastPathComponent().appendingPathComponent("shared", isDirectory: true)

    static var sharedIsPresent: Bool { FileManager.default.fileExists(atPath: shared.path) }

    static func sharedFile(_ relativePath: String) -> URL { shared.appendingPathComponent(relativePath) }

    static func testVector(_ relativePath: String) -> URL { testVectors.appendingPathComponent(relativePath) }

    /// The text of a file with surrounding white space removed.
    static func text(_ url: URL) throws -> String {
        try String(contentsOf: url, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
    }
}

/// The message for tests skipped because `../shared` is absent (on every clone but this project's CI).
let sharedAbsentComment: Comment = """
    needs ../shared beside the repository (Apple's real receipts and certificates; kept beside the \
    repository, not shipped). These tests run in this project's CI; everything else runs here.
    """
