import AppStoreVerification
import Foundation
import Testing

@Suite("README snippets")
struct ReadmeSnippetTests {
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The lines of every ```swift block of README.md, without indentation, blank lines and imports.
    static func readmeSwiftBlocks() throws -> [[String]] {
        let readme = try String(contentsOf: packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
        var blocks: [[String]] = []
        var current: [String]?
        for line in readme.split(separator: "\n", omittingEmptySubsequences: false) {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if current == nil, trimmed == "```swift" {
                current = []
            } else if current != nil, trimmed == "```" {
                blocks.append(current ?? [])
                current = nil
            } else if current != nil, !trimmed.isEmpty, !trimmed.hasPrefix("import ") {
                current?.append(trimmed)
            }
        }
        return blocks
    }

    @Test("every line of every Swift block in README.md is compiled here, in order")
    func readmeBlocksAreCompiled() throws {
        let source = try String(contentsOf: Self.packageRoot.appendingPathComponent("Tests/ReadmeSnippetTests/ReadmeSnippets.swift"), encoding: .utf8)
        let compiled = source.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        let blocks = try Self.readmeSwiftBlocks()
        #expect(!blocks.isEmpty)
        for block in blocks {
            // Each block's lines appear one after another in the compiled file (blank lines aside).
            let found = compiled.indices.contains { Self.appearsInOrder(block, in: compiled[$0...]) }
            #expect(found, "README block starting \"\(block.first ?? "")\" is not in ReadmeSnippets.swift as written")
        }
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
