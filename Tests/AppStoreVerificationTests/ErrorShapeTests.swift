import AppStoreVerification
import Foundation
import Testing

/// Every code/message error struct: equal and hashed by code alone, described as `code: message`,
/// and its codes made only by the library.
@Suite("Errors: one shape, equal by code")
struct ErrorShapeTests {
    @Test("two errors with the same code are equal and hash alike whatever their messages; other codes differ")
    func equalityIsByCode() {
        let first = SignedDataDecodingError(.malformedJWS, "one message")
        let second = SignedDataDecodingError(.malformedJWS, "another message")
        #expect(first == second)
        #expect(Set([first, second]).count == 1)
        #expect(first != SignedDataDecodingError(.invalidJSON, "one message"))
        #expect(first.description == "malformedJWS: one message")
        #expect(SigningKeyError(.malformedKey, "a") == SigningKeyError(.malformedKey, "b"))
        #expect(SignatureCreationError(.signingFailed, "a") == SignatureCreationError(.signingFailed, "b"))
        #expect(VerifierConfigurationError(.noTrustedRoot, "a") == VerifierConfigurationError(.noTrustedRoot, "b"))
        #expect(VerifierConfigurationError(.noTrustedRoot, "what to do").description == "what to do")
        #expect(AdvancedCommerceValidationError(.tooLong, field: "SKU", "a") == AdvancedCommerceValidationError(.tooLong, field: "items[1].SKU", "b"))
        #expect(OCSPTransportError(.unreachable, "a") == OCSPTransportError(.unreachable, "b"))
        #expect(OCSPTransportError(.responseTooLarge, "a").description == "responseTooLarge: a")
        let unavailable = RevocationCheckUnavailable(code: .timedOut, certificate: "the leaf", responderURL: nil, message: "a")
        #expect(unavailable == RevocationCheckUnavailable(code: .timedOut, certificate: "the intermediate", responderURL: "http://x/", message: "b"))
        #expect(unavailable.description == "timedOut: a")
        #expect(OnlineVerificationError.revocationCheckUnavailable(unavailable).description == "revocationCheckUnavailable: timedOut: a")
        #expect(OnlineVerificationError.revocationCheckUnavailable(unavailable).code == .revocationCheckUnavailable)
        #expect(OnlineVerificationError.revocationCheckUnavailable(unavailable).message == "timedOut: a")
        let undecodable = OnlineVerificationError.decoding(SignedDataDecodingError(.malformedJWS, "three parts expected"))
        #expect(undecodable.code == OnlineVerificationError.Code(.malformedJWS))
        #expect(undecodable.code != .revocationCheckUnavailable)
        #expect(undecodable.message == "three parts expected")
        #expect(undecodable.description == "malformedJWS: three parts expected")
        #expect(SignedDataDecodingError.Code.wrongPayloadType.description == "wrongPayloadType")
    }

    @Test("VerificationError: its cases still match with their text; code to compare, message to read, equal by code")
    func verificationErrorHasTheShape() {
        let error = VerificationError.invalidSignature("the signature does not verify\nforged line")
        guard case .invalidSignature(let text) = error else {
            Issue.record("the case does not match")
            return
        }
        #expect(text == "the signature does not verify\nforged line")
        #expect(error.code == .invalidSignature)
        #expect(error.code.description == "invalidSignature")
        #expect(error.message == "the signature does not verify\\nforged line")
        #expect(error.description == "invalidSignature: the signature does not verify\\nforged line")
        #expect(error == .invalidSignature("another sentence"))
        #expect(Set([error, .invalidSignature("another sentence")]).count == 1)
        #expect(error != .invalidEncoding("the signature does not verify\nforged line"))
        #expect(TransactionIdExtractionError.unverified(error).description == error.description)
    }

    @Test("a caller cannot make a code: Code(rawValue:) and Code(_:) do not compile outside the package",
          .enabled(if: OnlineVerifierIsAsyncOnlyTests.canTypecheck, "needs the built modules beside the test bundle"),
          arguments: ["SignedDataDecodingError.Code(rawValue: \"x\")", "SignedDataDecodingError.Code(\"x\")",
                      "SigningKeyError.Code(rawValue: \"x\")", "VerifierConfigurationError.Code(\"x\")"])
    func codesAreNotConstructible(_ expression: String) throws {
        let result = try OnlineVerifierIsAsyncOnlyTests.typecheck(OnlineVerifierIsAsyncOnlyTests.header + "let code = \(expression)\n")
        #expect(result.status != 0, "\(expression) compiled")
        let control = try OnlineVerifierIsAsyncOnlyTests.typecheck(OnlineVerifierIsAsyncOnlyTests.header + "let code: SignedDataDecodingError.Code = .malformedJWS\n")
        #expect(control.status == 0, "\(control.output)")
    }
}
