import Foundation
import Testing

/// The route snippets of the DocC article *Server frameworks* are the routes of the repository's
/// framework examples (Examples/Sources/VaporExample, Examples/Sources/HummingbirdExample), which CI builds against
/// the real frameworks and tests with real requests: every line of every Swift block appears in the
/// examples' sources, in order.
@Suite struct ExampleRouteSnippetTests {
    static let examples = ["Examples/Sources/VaporExample", "Examples/Sources/HummingbirdExample"]

    /// The trimmed lines of every Swift source of `directory`, one array per file.
    static func sourceLines(_ directory: String) throws -> [[String]] {
        let root = ReadmeSnippetTests.packageRoot.appendingPathComponent(directory)
        guard let enumerator = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil) else { return [] }
        var files: [[String]] = []
        for case let url as URL in enumerator where url.pathExtension == "swift" {
            let text = try String(contentsOf: url, encoding: .utf8)
            files.append(text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) })
        }
        return files
    }

    @Test("every Swift block of ServerFrameworks.md is a route of a framework example, as written")
    func serverFrameworksBlocksAreTheExamplesRoutes() throws {
        let article = ReadmeSnippetTests.packageRoot.appendingPathComponent("Sources/AppStoreVerification/Documentation.docc/ServerFrameworks.md")
        let files = try Self.examples.flatMap { try Self.sourceLines($0) }
        #expect(files.count >= 8)
        var checked = 0
        for block in try ReadmeSnippetTests.swiftBlocks(of: article) {
            // `let router = Router()` is in the example's router factory, apart from the routes.
            let route = block.filter { $0 != "let router = Router()" }
            checked += 1
            let found = files.contains { lines in lines.indices.contains { ReadmeSnippetTests.appearsInOrder(route, in: lines[$0...]) } }
            #expect(found, "ServerFrameworks.md block starting \"\(route.first ?? "")\" is not in Examples/Sources/*Example as written")
        }
        #expect(checked == 4)
    }
}
