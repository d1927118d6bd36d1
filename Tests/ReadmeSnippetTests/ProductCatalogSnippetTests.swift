import Foundation
import Testing

/// The Swift blocks of the testing products' DocC articles (a user's tests, as the articles show
/// them) are compiled, and run, in DocCSnippets.swift or APITestingSnippets.swift, like the library's
/// articles.
@Suite struct ProductCatalogSnippetTests {
    /// The catalogs checked here, beside the library's (ReadmeSnippetTests).
    static let catalogs = ["Sources/AppStoreVerificationTesting/Documentation.docc", "Sources/AppStoreServerAPITesting/Documentation.docc"]
    /// The files they are compiled in.
    static let files = ["DocCSnippets.swift", "APITestingSnippets.swift"]

    @Test("every line of every Swift block in the testing products' DocC articles is compiled, in order")
    func catalogBlocksAreCompiled() throws {
        let compiled = try Self.files.map { try ReadmeSnippetTests.compiledLines($0) }
        var blockCount = 0
        for catalog in Self.catalogs {
            let directory = ReadmeSnippetTests.packageRoot.appendingPathComponent(catalog)
            let articles = try FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: nil).filter { $0.pathExtension == "md" }
            for article in articles {
                for block in try ReadmeSnippetTests.swiftBlocks(of: article) {
                    blockCount += 1
                    let found = compiled.contains { lines in lines.indices.contains { ReadmeSnippetTests.appearsInOrder(block, in: lines[$0...]) } }
                    #expect(found, "\(catalog)/\(article.lastPathComponent) block starting \"\(block.first ?? "")\" is not in \(Self.files.joined(separator: " or ")) as written")
                }
            }
        }
        #expect(blockCount >= 4)
    }
}
