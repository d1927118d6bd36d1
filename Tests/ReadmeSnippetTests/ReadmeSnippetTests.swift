import AppStoreVerification
import Foundation
import Testing

@Suite("README snippets")
struct ReadmeSnippetTests {
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The lines of every ```swift block of README.md (but manifest excerpts), without indentation,
    /// blank lines and imports.
    static func readmeSwiftBlocks() throws -> [[String]] {
        try swiftBlocks(of: packageRoot.appendingPathComponent("README.md"))
    }

    /// The lines of every ```swift block of a Markdown file, without indentation, blank lines and
    /// imports; a manifest excerpt (a block starting `// swift-tools-version`, `// Package.swift` or
    /// `.package(`) belongs in a Package.swift, not in code, and is left out. So is a block copied
    /// from a file CI compiles elsewhere (`<!-- from: Examples/Tests/... -->` on the line before
    /// it): Scripts/check-docs.sh checks that it is in that file, line for line.
    static func swiftBlocks(of file: URL) throws -> [[String]] {
        let text = try String(contentsOf: file, encoding: .utf8)
        var blocks: [[String]] = []
        var current: [String]?
        var copied = false
        var previous = ""
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if current == nil, trimmed == "```swift" {
                current = []
                copied = previous.hasPrefix("<!-- from:")
            } else if current != nil, trimmed == "```" {
                if let block = current, !isManifest(block), !copied {
                    blocks.append(block)
                }
                current = nil
            } else if current != nil, !trimmed.isEmpty, !trimmed.hasPrefix("import ") {
                current?.append(trimmed)
            }
            if current == nil, !trimmed.isEmpty { previous = trimmed }
        }
        return blocks
    }

    static func isManifest(_ block: [String]) -> Bool {
        guard let first = block.first else { return false }
        if first.hasPrefix("// swift-tools-version") || first.hasPrefix("// Package.swift") { return true }
        // A dependency line, perhaps after a comment about it.
        return block.first { !$0.hasPrefix("//") }?.hasPrefix(".package(") ?? false
    }

    /// The lines of a compiled snippet file, trimmed.
    static func compiledLines(_ name: String) throws -> [String] {
        let source = try String(contentsOf: packageRoot.appendingPathComponent("Tests/ReadmeSnippetTests/\(name)"), encoding: .utf8)
        return source.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
    }

    /// The DocC articles of the library's catalog.
    /// Every article of every public module's DocC catalog.
    static func doccArticles() throws -> [URL] {
        let sources = packageRoot.appendingPathComponent("Sources")
        var articles: [URL] = []
        for module in try FileManager.default.contentsOfDirectory(atPath: sources.path) {
            let catalog = sources.appendingPathComponent(module).appendingPathComponent("Documentation.docc")
            guard FileManager.default.fileExists(atPath: catalog.path) else { continue }
            articles += try FileManager.default.contentsOfDirectory(at: catalog, includingPropertiesForKeys: nil)
                .filter { $0.pathExtension == "md" }
        }
        return articles.sorted { $0.lastPathComponent < $1.lastPathComponent }
    }

    @Test("the README's configuration shows every setting with its default")
    func configurationSnippetShowsTheDefaults() throws {
        let shown = try ReadmeContext.configurationSnippet().configuration
        let defaults = SignedDataVerifier.Configuration(bundleId: "com.example.app", appAppleId: 1234567890, environment: .production)
        #expect(shown.trustedRoots == defaults.trustedRoots)
        #expect(shown.trustedReceiptRoots == defaults.trustedReceiptRoots)
        #expect(shown.strictChecks == defaults.strictChecks)
        #expect(shown.chainCacheCapacity == defaults.chainCacheCapacity)
        #expect(shown.maximumInputLength == defaults.maximumInputLength)
        #expect(shown.xcodeCertificate == nil && defaults.xcodeCertificate == nil)
        #expect(shown.xcodeReceiptCertificate == nil && defaults.xcodeReceiptCertificate == nil)
    }

    @Test("every line of every Swift block in README.md is compiled here, in order")
    func readmeBlocksAreCompiled() throws {
        let compiled = try Self.compiledLines("ReadmeSnippets.swift")
        let blocks = try Self.readmeSwiftBlocks()
        #expect(!blocks.isEmpty)
        for block in blocks {
            // Each block's lines appear one after another in the compiled file (blank lines aside).
            let found = compiled.indices.contains { Self.appearsInOrder(block, in: compiled[$0...]) }
            #expect(found, "README block starting \"\(block.first ?? "")\" is not in ReadmeSnippets.swift as written")
        }
    }

    @Test("every line of every Swift block in the DocC articles is compiled here, in order")
    func doccBlocksAreCompiled() throws {
        // An article's block may be compiled in DocCSnippets.swift (the migration guide's in
        // MigrationSnippets.swift) or, when the README shows the same code, in ReadmeSnippets.swift.
        let files = ["DocCSnippets.swift", "ReadmeSnippets.swift", "APITestingSnippets.swift", "MigrationSnippets.swift"]
        let compiled = try files.map { try Self.compiledLines($0) }
        let articles = try Self.doccArticles()
        #expect(articles.count >= 8)
        var blockCount = 0
        for article in articles {
            for block in try Self.swiftBlocks(of: article) {
                blockCount += 1
                let found = compiled.contains { lines in lines.indices.contains { Self.appearsInOrder(block, in: lines[$0...]) } }
                #expect(found, "\(article.lastPathComponent) block starting \"\(block.first ?? "")\" is not in \(files.joined(separator: " or ")) as written")
            }
        }
        #expect(blockCount >= 10)
    }

    /// Whether `lines` appear in `haystack` one after another, skipping blank lines only.
    static func appearsInOrder(_ lines: [String], in haystack: ArraySlice<String>) -> Bool {
        var index = haystack.startIndex
        for line in lines {
            while index < haystack.endIndex, haystack[index].isEmpty { index += 1 }
            guard index < haystack.endIndex, haystack[index] == line else { return false }
            index += 1
        }
        return true
    }

    @Test("the library snippet runs: the test transaction is refused by the Production verifier, the notification body too")
    func librarySnippetRuns() throws {
        let jws = try String(contentsOf: Self.packageRoot.appendingPathComponent("TestVectors/jws/transaction-valid.jws"), encoding: .utf8)
        let notification = try String(contentsOf: Self.packageRoot.appendingPathComponent("TestVectors/jws/notification-valid.jws"), encoding: .utf8)
        var context = ReadmeContext(jwsFromApp: jws, requestBody: Data("{\"signedPayload\":\"\(notification.trimmingCharacters(in: .whitespacesAndNewlines))\"}".utf8))
        // The snippet trusts Apple's root: the test PKI's data is refused, so payloadValue throws.
        #expect(throws: VerificationError.self) { try context.librarySnippet() }
        #expect(context.granted.isEmpty)
    }
}
