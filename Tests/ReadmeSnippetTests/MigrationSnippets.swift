// The Swift blocks of the migration guide (Sources/AppStoreVerification/Documentation.docc/
// ComingFromAppleLibrary.md), as they appear there, compiled against the public API only;
// `ReadmeSnippetTests.doccBlocksAreCompiled` checks that every line of the article's blocks appears
// here, in order. The API client's block needs the `ServerAPIClient` trait.
#if ServerAPIClient
import AppStoreServerAPI
#endif
import AppStoreVerification
import Foundation
import Testing

enum MigrationSnippets {
    // MARK: - Verifying

    static func verifying(signedTransaction: String) throws -> String? {
        let verifier = try SignedDataVerifier(configuration: .init(
            bundleId: "com.example.app",
            appAppleId: 1234567890,
            environment: .production))

        func grant(_ signedTransaction: String) throws -> String? {
            switch try verifier.verifyTransaction(signedTransaction) {
            case .verified(let transaction):
                return transaction.productId
            case .unverified(let claimed, let error):
                print("refused", claimed.transactionId, error)
                return nil
            }
        }

        return try grant(signedTransaction)
    }

    static func online(signedTransaction: String) async throws -> VerificationResult<Transaction> {
        let onlineVerifier = try OnlineSignedDataVerifier(configuration: .init(
            bundleId: "com.example.app",
            appAppleId: 1234567890,
            environment: .production))
        let checked = try await onlineVerifier.verifyTransaction(signedTransaction)
        return checked
    }

    // MARK: - Data signed by Xcode and LocalTesting

    static func xcode(exportedXcodeCertificate: Data) throws -> SignedDataVerifier {
        let development = try SignedDataVerifier(configuration: .init(
            bundleId: "com.example.app",
            environment: .xcode,
            xcodeCertificate: try TrustedRoot(derEncoded: exportedXcodeCertificate)))
        return development
    }
}

#if ServerAPIClient
extension MigrationSnippets {
    // MARK: - The API client

    static func apiClient(verifier: SignedDataVerifier, encodedKey: String, keyId: String, issuerId: String,
                          transactionId: String) async throws {
        let client = AppStoreServerAPIClient(signingKey: try SigningKey(pem: encodedKey), keyId: keyId, issuerId: issuerId,
                                             bundleId: "com.example.app", environment: .production, verifier: .offline(verifier))
        do throws(AppStoreServerAPIError) {
            switch try await client.getTransactionInfo(transactionId: transactionId) {
            case .verified(let transaction):
                print("Apple's record:", transaction.productId)
            case .unverified(_, let error):
                print("Apple's answer did not verify:", error)
            }
        } catch where error.apiError == .transactionIdNotFound {
            print("no such transaction")
        } catch {
            print("failed:", error, error.isRetryable ? "(try again later)" : "")
        }
    }
}
#endif

@Suite("Migration guide snippets")
struct MigrationSnippetTests {
    @Test("the guide's verifier refuses a test-PKI transaction (not Apple's root): nil, nothing granted")
    func verifyingRefusesTestData() throws {
        let jws = try String(contentsOf: ReadmeSnippetTests.packageRoot.appendingPathComponent("TestVectors/jws/transaction-valid.jws"), encoding: .utf8)
        #expect(try MigrationSnippets.verifying(signedTransaction: jws) == nil)
    }
}
