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
            ("verify(bytes, as:)", { _ = try verifier.verify(bytes, as: Transaction.self) }),
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
                // The message names the online call to make instead.
                let call = name.hasPrefix("verifyNotification(body:") ? "verifyNotification(body: ...)" : name.hasPrefix("verify(") ? "verifyTransaction(...)" : String(name.prefix { $0 != "(" }) + "(...)"
                #expect(error.message.contains("try await verifier.online.\(call)"), "\(name): \(error.message)")
                #expect(error.message.contains("same input types"), "\(name): \(error.message)")
            } catch {
                Issue.record("\(name) on \(kind) input: \(error)")
            }
        }
        #expect(transport.total == 0)
    }

    /// Every online entry point with every input type, called from an `async` function under online
    /// mode: each runs the online path (a decoding error about the input, never the synchronous
    /// refusal), and the synchronous names, written without `await`, still refuse.
    @Test("every online entry point takes every input type in an async context")
    func onlineEntryPointsTakeEveryInputType() async throws {
        let transport = CountingTransport()
        let verifier = try SignedDataVerifier(configuration: .init(
            bundleId: "com.example.app", environment: .sandbox,
            revocation: .ocsp(OCSPOptions(transport: transport))))
        let text = "not.a.jws"
        let substring = Substring("[\(text)]").dropFirst().dropLast()
        let bytes = Array(text.utf8)
        let data = Data(text.utf8)
        let slice = bytes[...]
        let online = verifier.online
        let calls: [(String, () async throws -> Void)] = [
            ("verifyTransaction(String)", { _ = try await online.verifyTransaction(text) }),
            ("verifyTransaction(Substring)", { _ = try await online.verifyTransaction(substring) }),
            ("verifyTransaction([UInt8])", { _ = try await online.verifyTransaction(bytes) }),
            ("verifyTransaction(Data)", { _ = try await online.verifyTransaction(data) }),
            ("verifyTransaction(ArraySlice)", { _ = try await online.verifyTransaction(slice) }),
            ("verifyTransaction(String.UTF8View)", { _ = try await online.verifyTransaction(text.utf8) }),
            ("verifyRenewalInfo(Substring)", { _ = try await online.verifyRenewalInfo(substring) }),
            ("verifyRenewalInfo(Data)", { _ = try await online.verifyRenewalInfo(data) }),
            ("verifyAppTransaction(Substring)", { _ = try await online.verifyAppTransaction(substring) }),
            ("verifyAppTransaction([UInt8])", { _ = try await online.verifyAppTransaction(bytes) }),
            ("verifyRealtimeRequest(String)", { _ = try await online.verifyRealtimeRequest(text) }),
            ("verifyRealtimeRequest(ArraySlice)", { _ = try await online.verifyRealtimeRequest(slice) }),
            ("verifyNotification(Substring)", { _ = try await online.verifyNotification(substring) }),
            ("verifyNotification(Data)", { _ = try await online.verifyNotification(data) }),
            ("verifyNotification(body: [UInt8])", { _ = try await online.verifyNotification(body: bytes) }),
            ("verifyNotification(body: Substring)", { _ = try await online.verifyNotification(body: substring) }),
            ("verify(String, as:)", { _ = try await online.verify(text, as: Transaction.self) }),
            ("verify(Data, as:)", { _ = try await online.verify(data, as: RenewalInfo.self) }),
            ("verifyAppReceipt(Substring)", { _ = try await online.verifyAppReceipt(substring) }),
            ("verifyAppReceipt(Data)", { _ = try await online.verifyAppReceipt(data) }),
            ("verifyAppReceipt([UInt8])", { _ = try await online.verifyAppReceipt(bytes) }),
            ("extractTransactionIdFromAppReceipt(Substring)", { _ = try await online.extractTransactionIdFromAppReceipt(substring) }),
        ]
        for (name, call) in calls {
            do {
                try await call()
                Issue.record("\(name): returned for input that is no signed data")
            } catch let error as OnlineVerificationError {
                guard case .decoding(let decoding) = error else {
                    Issue.record("\(name): \(error)")
                    continue
                }
                #expect(decoding.code != .onlineVerificationRequiresAsync, "\(name) took the synchronous path: \(decoding)")
            } catch {
                Issue.record("\(name): \(error)")
            }
        }
        // In the same async context, the synchronous names need no `await` and still refuse.
        #expect(throws: SignedDataDecodingError.self) { _ = try verifier.verifyTransaction(bytes) }
        #expect(transport.total == 0)
    }
}
