import AppStoreVerification
import Foundation

/// The benchmark corpus in `Benchmarks/Corpus/` (written by `Scripts/make-corpus.py`), found
/// relative to this source file so the benchmarks run from any working directory.
public struct Corpus: Sendable {
    /// The folder holding the corpus: `Benchmarks/Corpus/`.
    public static let directory: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // BenchmarkCorpus/
        .deletingLastPathComponent()  // Sources/
        .deletingLastPathComponent()  // Benchmarks/
        .appendingPathComponent("Corpus", isDirectory: true)

    /// The DER-encoded root every corpus chain leads to.
    public let rootDER: Data
    /// One Sandbox transaction (the warm path: the same chain every time).
    public let warm: String
    /// Transactions each signed by its own leaf under the same intermediate.
    public let cold: [String]
    /// A notification nesting a signed transaction and a signed renewal info.
    public let notification: String

    /// The bundle ID every corpus payload carries.
    public static let bundleId = "com.example.app"

    /// Loads the corpus, or stops the process with a message saying how to make it.
    public static func load() -> Corpus {
        do {
            return Corpus(
                rootDER: try Data(contentsOf: file("root.der")),
                warm: try lines(of: "warm.jws")[0],
                cold: try lines(of: "cold.jws"),
                notification: try lines(of: "notification.jws")[0])
        } catch {
            fatalError("Cannot read the benchmark corpus in \(directory.path): \(error). Regenerate it with `python3 Benchmarks/Scripts/make-corpus.py`.")
        }
    }

    /// The trusted root, parsed.
    public func trustedRoot() -> TrustedRoot {
        do {
            return try TrustedRoot(derEncoded: rootDER)
        } catch {
            fatalError("Benchmarks/Corpus/root.der does not parse: \(error)")
        }
    }

    /// The root as PEM text (for verifiers that take PEM).
    public var rootPEM: String {
        let body = rootDER.base64EncodedString(options: [.lineLength64Characters, .endLineWithLineFeed])
        return "-----BEGIN CERTIFICATE-----\n\(body)\n-----END CERTIFICATE-----\n"
    }

    /// A verifier trusting the corpus root, for the corpus's bundle ID in Sandbox.
    public func makeVerifier(chainCacheCapacity: Int = SignedDataVerifier.Configuration().chainCacheCapacity) -> SignedDataVerifier {
        do {
            return try SignedDataVerifier(configuration: .init(
                trustedRoots: [trustedRoot()],
                bundleId: Self.bundleId,
                environment: .sandbox,
                chainCacheCapacity: chainCacheCapacity))
        } catch {
            fatalError("Cannot build the verifier: \(error)")
        }
    }

    private static func file(_ name: String) -> URL {
        directory.appendingPathComponent(name, isDirectory: false)
    }

    private static func lines(of name: String) throws -> [String] {
        let text = try String(contentsOf: file(name), encoding: .utf8)
        let lines = text.split(whereSeparator: \.isNewline).map(String.init).filter { !$0.isEmpty }
        guard !lines.isEmpty else {
            throw CocoaError(.fileReadCorruptFile, userInfo: [NSFilePathErrorKey: file(name).path])
        }
        return lines
    }
}
