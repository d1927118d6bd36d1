import AppStoreVerification
import AppStoreVerificationTesting
import Foundation
import Testing

/// The independent cross-check of the Testing product: data it mints must verify under Apple's own
/// Python library too, so a bug shared by this package's signer and verifier cannot go unseen.
@Suite("Minted data verifies under Apple's App Store Server Library")
struct TestingProductOracleTests {
    @Test(
        "a transaction, renewal info, an app transaction and a notification with nested data, minted by the Testing product",
        .enabled(
            if: AppleOracle.isAvailable,
            "needs ../shared/oracle/apple_verify.py, python3, and Apple's library (python3 -m pip install app-store-server-library)"),
        .timeLimit(.minutes(3)))
    func mintedDataVerifiesUnderApple() throws {
        let pki = try TestPKI()
        let minter = try SignedDataMinter(pki: pki)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("testing-oracle-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let root = directory.appendingPathComponent("root.der")
        try pki.rootDER.write(to: root)

        let transaction = Transaction(transactionId: "2000000000000001", productId: "com.example.pro")
        let inputs: [(type: String, jws: String)] = [
            ("transaction", try minter.transaction(transaction)),
            ("renewal", try minter.renewalInfo(RenewalInfo(originalTransactionId: "2000000000000001", productId: "com.example.pro"))),
            ("app-transaction", try minter.appTransaction(AppTransaction())),
            ("notification", try minter.notification(ResponseBodyV2DecodedPayload(notificationType: .refund), transaction: transaction)),
        ]
        for input in inputs {
            // Ours first: the same data, the same root.
            let verifier = try SignedDataVerifier(configuration: pki.verifierConfiguration())
            let ours: Bool = switch input.type {
            case "transaction": try verifier.verifyTransaction(input.jws).isVerified
            case "renewal": try verifier.verifyRenewalInfo(input.jws).isVerified
            case "app-transaction": try verifier.verifyAppTransaction(input.jws).isVerified
            default: try verifier.verifyNotification(input.jws).isVerified
            }
            #expect(ours, "\(input.type): this package's verifier refused its own minted data")
            let apple = try AppleOracle.verdicts(for: [input.jws], roots: [root.path], type: input.type)
            #expect(apple.count == 1 && apple[0].verified, "\(input.type): Apple's library says \(apple.map { "\($0.status) \($0.code ?? "")" })")
        }
        // The nested transaction Apple's library does not open: it goes through its transaction check.
        let nested = try minter.transaction(Transaction(transactionId: "2000000000000002", productId: "com.example.pro", revocationDate: Date()))
        let apple = try AppleOracle.verdicts(for: [nested], roots: [root.path], type: "transaction")
        #expect(apple.first?.verified == true, "\(apple.map { "\($0.status) \($0.code ?? "")" })")
    }
}
