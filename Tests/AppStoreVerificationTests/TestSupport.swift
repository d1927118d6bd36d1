import Foundation
import Testing
@testable import AppStoreVerification

/// Where the tests find their data.
enum TestPaths {
    /// The package root: this file is `<root>/Tests/AppStoreVerificationTests/TestSupport.swift`.
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()
        .deletingLastPathComponent()
        .deletingLastPathComponent()

    /// `<root>/TestVectors`, shipped with the package.
    static let testVectors = packageRoot.appendingPathComponent("TestVectors", isDirectory: true)

    /// `<root>/../shared`: data beside the repository (Apple's vectors, Wycheproof, the oracle).
    /// Absent on a user's fresh clone; tests that need it are skipped then.
    static let shared = packageRoot.deletingLastPathComponent().appendingPathComponent("shared", isDirectory: true)

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
    needs ../shared beside the repository (Apple's real certificates and test vectors, \
    Wycheproof, Apple's official library as oracle; kept beside the repository, not shipped). \
    These tests run in this project's CI; everything else runs here.
    """

extension TrustedRoot {
    /// The test PKI's root, from TestVectors/pki/root.der.
    static func testRoot() throws -> TrustedRoot {
        try TrustedRoot(derEncoded: Data(contentsOf: TestPaths.testVector("pki/root.der")))
    }
}

extension SignedDataVerifier {
    /// A verifier for the shipped test PKI, Sandbox, bundle com.example.app.
    static func forTestVectors(
        effectiveDate: EffectiveDatePolicy = .signedDate,
        chainCacheCapacity: Int = 64
    ) throws -> SignedDataVerifier {
        try SignedDataVerifier(configuration: .init(
            trustedRoots: [.testRoot()], bundleId: "com.example.app", environment: .sandbox,
            effectiveDate: effectiveDate, chainCacheCapacity: chainCacheCapacity))
    }
}

/// Decodes base64url text (test helper; the library's decoder is strict and internal).
func base64URLDecoded(_ text: String) -> Data? {
    var standard = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
    while standard.count % 4 != 0 { standard += "=" }
    return Data(base64Encoded: standard)
}

/// Encodes bytes as base64url without padding.
func base64URLEncoded(_ data: Data) -> String {
    data.base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
        .replacingOccurrences(of: "=", with: "")
}

/// Parses hex text into bytes.
func hexBytes(_ hex: String) -> [UInt8] {
    var bytes: [UInt8] = []
    var index = hex.startIndex
    while index < hex.endIndex, let next = hex.index(index, offsetBy: 2, limitedBy: hex.endIndex) {
        bytes.append(UInt8(hex[index..<next], radix: 16) ?? 0)
        index = next
    }
    return bytes
}

/// SplitMix64 (Steele, Lea, Flood 2014): a tiny, seedable, portable generator.
struct SplitMix64 {
    private var state: UInt64
    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A number in 0..<bound (the modulo bias is negligible for these small bounds).
    mutating func below(_ bound: Int) -> Int {
        precondition(bound > 0)
        return Int(next() % UInt64(bound))
    }

    mutating func pick<Element>(_ elements: [Element]) -> Element { elements[below(elements.count)] }

    mutating func bytes(_ count: Int) -> [UInt8] { (0..<count).map { _ in UInt8(truncatingIfNeeded: next()) } }
}
