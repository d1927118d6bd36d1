import Foundation
import AppStoreVerificationTestSupport
import Testing
@testable import AppStoreVerification

extension TrustedRoot {
    /// The test PKI's root, from TestVectors/pki/root.der.
    static func testRoot() throws -> TrustedRoot {
        try testVector("pki/root.der")
    }

    /// The DER certificate at `relativePath` of TestVectors/.
    static func testVector(_ relativePath: String) throws -> TrustedRoot {
        try TrustedRoot(derEncoded: Data(contentsOf: TestPaths.testVector(relativePath)))
    }
}

extension EffectiveDatePolicy {
    /// A vector manifest's `effectiveDate`: absent or `signed`, `now`, or an ISO 8601 instant.
    static func manifest(_ text: String?) throws -> EffectiveDatePolicy {
        switch text ?? "signed" {
        case "signed": return .signedDate
        case "now": return .now
        case let text: return .fixed(try #require(ISO8601DateFormatter().date(from: text), "bad effectiveDate \(text)"))
        }
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
