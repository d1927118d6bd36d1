import AppStoreVerification
import AppStoreVerificationTesting
import Foundation
import Testing

/// The README's "Testing your server" block, compiled as written and run: what it mints verifies
/// under the test root, and the forged transaction does not.
@Suite("README testing snippet")
struct ReadmeTestingSnippetTests {
    @Test("the minted purchase and refund verify under the test root; the forged one is refused")
    func testingSnippet() throws {
        let snippet = try ReadmeTestingSnippet()
        let (testVerifier, purchase, refund, forged) = (snippet.testVerifier, snippet.purchase, snippet.refund, snippet.forged)
        #expect(try testVerifier.verifyTransaction(purchase).isVerified)
        let notification = try testVerifier.verifyNotification(refund)
        #expect(notification.isVerified)
        #expect(try notification.unsafePayloadValue.transactionInfo?.get().isVerified == true)
        #expect(try !testVerifier.verifyTransaction(forged).isVerified)
    }
}
