import AppStoreVerification
import Foundation
import Testing

@Suite("README app receipt snippet")
struct ReadmeReceiptSnippetTests {
    @Test("the app receipt snippet runs: a test-PKI receipt is refused by the Production verifier and yields no transaction ID")
    func appReceiptSnippetRuns() throws {
        let receipt = try Data(contentsOf: ReadmeSnippetTests.packageRoot.appendingPathComponent("TestVectors/receipts/valid-sha256.der"))
        var context = ReadmeContext(jwsFromApp: "", requestBody: Data())
        #expect(throws: VerificationError.self) {
            try context.appReceiptSnippet(base64ReceiptFromApp: receipt.base64EncodedString(), identifierForVendor: UUID())
        }
        #expect(context.granted.isEmpty)
    }
}
