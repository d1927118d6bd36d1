import AppStoreVerification
import Foundation

/// The app receipt the receipt benchmarks verify: the minted SHA-256 receipt of the test vectors
/// (`TestVectors/receipts/valid-sha256.der`, written by `TestVectors/generate_receipts.py`), shaped
/// like an App Store receipt (RSA leaf → intermediate → root embedded, no signed attributes), and
/// the root of its test PKI.
public struct ReceiptCorpus: Sendable {
    /// `TestVectors/receipts/` of the package the benchmarks measure.
    public static let directory: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // BenchmarkCorpus/
        .deletingLastPathComponent()  // Sources/
        .deletingLastPathComponent()  // Benchmarks/
        .deletingLastPathComponent()  // the package root
        .appendingPathComponent("TestVectors/receipts", isDirectory: true)

    /// The receipt's DER.
    public let receipt: Data
    /// The DER root of the receipt's test PKI.
    public let rootDER: Data

    /// Loads the receipt and its root, or stops the process with a message saying how to make them.
    public static func load() -> ReceiptCorpus {
        do {
            return ReceiptCorpus(
                receipt: try Data(contentsOf: directory.appendingPathComponent("valid-sha256.der")),
                rootDER: try Data(contentsOf: directory.appendingPathComponent("pki/root.der")))
        } catch {
            fatalError("Cannot read the receipt corpus in \(directory.path): \(error). Regenerate it with `python3 TestVectors/generate_receipts.py`.")
        }
    }

    /// A verifier trusting the receipt PKI's root for the receipt's bundle ID.
    public func makeVerifier(chainCacheCapacity: Int = SignedDataVerifier.Configuration().chainCacheCapacity) -> SignedDataVerifier {
        do {
            return try SignedDataVerifier(configuration: .init(
                bundleId: "com.example.app",
                chainCacheCapacity: chainCacheCapacity,
                trustedReceiptRoots: [TrustedRoot(derEncoded: rootDER)]))
        } catch {
            fatalError("Cannot build the receipt verifier: \(error)")
        }
    }
}
