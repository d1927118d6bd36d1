import Foundation
import Testing
@testable import AppStoreVerification

/// With online checks on, every synchronous entry point refuses before it reads its input: the
/// refusal (a configuration error) wins over anything wrong with the input, garbage or over-size.
@Suite("Online mode: synchronous entry points refuse first")
struct OnlineSynchronousRefusalTests {
    /// Inputs each entry point would otherwise refuse for their own sake.
    static let inputs = [
        "garbage": "{not JSON, not a JWS",  // within maximumInputLength
        "over-size": String(repeating: "A", count: 64),  // over maximumInputLength (32)
    ]

    @Test("every synchronous entry point throws onlineVerificationRequiresAsync on garbage and over-size input", arguments: inputs.keys.sorted())
    func refusalWins(_ kind: String) throws {
        let input = try #require(Self.inputs[kind])
        let transport = CountingTransport()
        let verifier = try SignedDataVerifier(configuration: .init(
            bundleId: "com.example.app", environment: .sandbox, maximumInputLength: 32,
            revocation: .ocsp(OCSPOptions(transport: transport))))
        let bytes = Array(input.utf8)
        let data = Data(input.utf8)
        // Called from a synchronous function: Swift picks the synchronous overloads.
        let calls: [(String, () throws -> Void)] = [
            ("verifyTransaction(String)", { _ = try verifier.verifyTransaction(input) }),
            ("verifyTransaction(bytes)", { _ = try verifier.verifyTransaction(bytes) }),
            ("verifyRenewalInfo(String)", { _ = try verifier.verifyRenewalInfo(input) }),
            ("verifyRenewalInfo(bytes)", { _ = try verifier.verifyRenewalInfo(data) }),
            ("verifyAppTransaction(String)", { _ = try verifier.verifyAppTransaction(input) }),
            ("verifyAppTransaction(bytes)", { _ = try verifier.verifyAppTransaction(bytes) }),
            ("verifyRealtimeRequest(String)", { _ = try verifier.verifyRealtimeRequest(input) }),
            ("verifyRealtimeRequest(bytes)", { _ = try verifier.verifyRealtimeRequest(data) }),
            ("verifyNotification(String)", { _ = try verifier.verifyNotification(input) }),
            ("verifyNotification(bytes)", { _ = try verifier.verifyNotification(bytes) }),
            ("verifyNotification(body: bytes)", { _ = try verifier.verifyNotification(body: data) }),
            ("verifyNotification(body: String)", { _ = try verifier.verifyNotification(body: input) }),
            ("verify(_:as:)", { _ = try verifier.verify(input, as: Transaction.self) }),
            ("verifyAppReceipt(String)", { _ = try verifier.verifyAppReceipt(input) }),
            ("verifyAppReceipt(Data)", { _ = try verifier.verifyAppReceipt(data) }),
            ("extractTransactionIdFromAppReceipt", { _ = try verifier.extractTransactionIdFromAppReceipt(input) }),
        ]
        for (name, call) in calls {
            do {
                try call()
                Issue.record("\(name) on \(kind) input: returned instead of refusing")
            } catch let error as SignedDataDecodingError {
                #expect(error.code == .onlineVerificationRequiresAsync, "\(name) on \(kind) input: \(error)")
                // The message names the async call to make instead.
                let call = name.hasPrefix("verifyNotification(body:") ? "verifyNotification(body: ...)" : name.hasPrefix("verify(") ? "verifyTransaction(...)" : String(name.prefix { $0 != "(" }) + "(...)"
                #expect(error.message.contains("try await verifier.\(call)"), "\(name): \(error.message)")
            } catch {
                Issue.record("\(name) on \(kind) input: \(error)")
            }
        }
        #expect(transport.total == 0)
    }
}
