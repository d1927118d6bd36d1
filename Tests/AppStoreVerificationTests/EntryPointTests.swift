import AppStoreVerificationTestSupport
import Foundation
import Testing
@testable import AppStoreVerification

/// What a server holds when it calls the verifier: text with a trailing newline, `Substring`, bytes,
/// a request body as `String` or `[UInt8]`.
@Suite("Entry points as servers call them")
struct EntryPointTests {
    static func vector(_ name: String) throws -> String {
        try TestPaths.text(TestPaths.testVector("jws/\(name).jws"))
    }

    @Test("ASCII white space around a JWS is ignored: a file's trailing newline, CRLF, tabs")
    func surroundingWhiteSpace() throws {
        let verifier = try SignedDataVerifier.forTestVectors()
        let jws = try Self.vector("transaction-valid")
        for wrapped in [jws + "\n", jws + "\r\n", "  \t" + jws + " \n", "\n" + jws] {
            let result = try verifier.verifyTransaction(wrapped)
            #expect(result.isVerified, "\(String(describing: result.verificationError))")
            #expect(result.jwsRepresentation == jws)
        }
        // White space inside the JWS is still refused: it would be inside the signed bytes.
        let inside = jws.replacingOccurrences(of: ".", with: ".\n")
        #expect(throws: SignedDataDecodingError.self) { try verifier.verifyTransaction(inside) }
        // Only white space is no JWS at all.
        #expect(throws: SignedDataDecodingError.self) { try verifier.verifyTransaction(" \n ") }
    }

    @Test("every entry point takes String, Substring and bytes alike")
    func stringsAndBytes() throws {
        let verifier = try SignedDataVerifier.forTestVectors()
        let jws = try Self.vector("transaction-valid")
        let line = "x" + jws + "x"
        let substring = line.dropFirst().dropLast()
        #expect(try verifier.verifyTransaction(substring).isVerified)
        #expect(try verifier.verifyTransaction(Data(jws.utf8)).isVerified)
        #expect(try verifier.verifyTransaction(Array(jws.utf8)).isVerified)
        #expect(try verifier.verifyTransaction(jws.utf8).isVerified)
        let renewal = try Self.vector("renewal-valid")
        #expect(try verifier.verifyRenewalInfo(Array(renewal.utf8)).isVerified)
        #expect(try verifier.verifyRenewalInfo(Substring(renewal)).isVerified)
        // Invalid UTF-8 bytes are not a JWS.
        #expect(throws: SignedDataDecodingError.self) { try verifier.verifyTransaction([0xFF, 0xFE, 0x2E, 0x2E]) }
        // The size limit applies to bytes before any conversion.
        let small = try SignedDataVerifier(configuration: .init(trustedRoots: [.testRoot()], maximumInputLength: 100))
        #expect(throws: SignedDataDecodingError.self) { try small.verifyTransaction(Data(jws.utf8)) }
    }

    @Test("a notification body verifies from Data, [UInt8], a byte view or String")
    func notificationBodies() throws {
        let verifier = try SignedDataVerifier.forTestVectors()
        let jws = try Self.vector("notification-valid")
        let body = "{\"signedPayload\":\"\(jws)\"}"
        #expect(try verifier.verifyNotification(body).isVerified)
        #expect(try verifier.verifyNotification(Data(body.utf8)).isVerified)
        #expect(try verifier.verifyNotification(Array(body.utf8)).isVerified)
        #expect(try verifier.verifyNotification(body.utf8).isVerified)
        #expect(try verifier.verifyNotification(body + "\n").isVerified)
    }

    @Test("notification bodies are read strictly: duplicate names, comments, non-objects, a non-string payload")
    func strictBodies() throws {
        let jws = try Self.vector("notification-valid")
        #expect(try ResponseBodyV2(json: "{\"signedPayload\":\"\(jws)\",\"extra\":1}").signedPayload == jws)
        let refused: [(String, SignedDataDecodingError.Code)] = [
            ("{\"signedPayload\":\"\(jws)\",\"signedPayload\":\"x.y.z\"}", .invalidJSON),
            ("{\"signedPayload\":\"\(jws)\"} // comment", .invalidJSON),
            ("{\"signedPayload\":\"\(jws)\",}", .invalidJSON),
            ("[\"\(jws)\"]", .invalidJSON),
            ("{\"signedPayload\":42}", .invalidPayload),
            ("{\"payload\":\"\(jws)\"}", .invalidPayload),
            ("", .invalidJSON),
        ]
        for (body, code) in refused {
            do {
                _ = try ResponseBodyV2(json: body)
                Issue.record("accepted \(body.prefix(60))")
            } catch {
                #expect(error.code == code, "\(body.prefix(60)): \(error)")
            }
        }
    }

    @Test("JWT registered claims that refuse a payload are invalidClaims; claims of the wrong type are invalidEncoding")
    func registeredClaimCategories() throws {
        func check(_ json: String) -> VerificationError? {
            guard let document = try? JSONParser.parse(Array(json.utf8)) else { return nil }
            do {
                try RegisteredClaims.check(document.root, now: Date(timeIntervalSince1970: 2_000_000_000))
                return nil
            } catch {
                return error
            }
        }
        #expect(check(#"{"exp":1000}"#)?.code == .invalidClaims)
        #expect(check(#"{"nbf":3000000000}"#)?.code == .invalidClaims)
        #expect(check(#"{"iat":3000000000}"#)?.code == .invalidClaims)
        #expect(check(#"{"aud":"x"}"#)?.code == .invalidClaims)
        #expect(check(#"{"exp":"tomorrow"}"#)?.code == .invalidEncoding)
        #expect(check(#"{"sub":1}"#)?.code == .invalidEncoding)
        #expect(check(#"{"exp":3000000000,"nbf":1000,"sub":"s"}"#) == nil)
    }

    @Test("configuration errors have kinds a caller can switch on")
    func configurationErrorKinds() throws {
        func kind(_ make: () throws -> Void) -> VerifierConfigurationError.Code? {
            do {
                try make()
                return nil
            } catch {
                return (error as? VerifierConfigurationError)?.code
            }
        }
        #expect(kind { _ = try SignedDataVerifier(configuration: .init(environment: .production)) } == .missingAppAppleId)
        #expect(kind { _ = try SignedDataVerifier(configuration: .init(trustedRoots: [])) } == .noTrustedRoot)
        #expect(kind { _ = try SignedDataVerifier(configuration: .init(maximumInputLength: 0)) } == .invalidSetting)
        #expect(kind { _ = try TrustedRoot(derEncoded: Data([0x30, 0x03, 0x01])) } == .invalidCertificate)
        #expect(kind { _ = try TrustedRoot.roots(contentsOf: URL(fileURLWithPath: "/nonexistent/root.der")) } == .unreadableFile)
        #expect(kind { _ = try TrustedRoot.roots(pemEncoded: "no PEM here") } == .invalidCertificate)
        // The Xcode certificate must hold a P-256 key: the test root's is P-384.
        let p384Root = try TrustedRoot.testRoot()
        #expect(kind { _ = try SignedDataVerifier(configuration: .init(xcodeCertificate: p384Root)) } == .unsupportedKey)
    }

    @Test("transactions give non-optional accessors for what every App Store transaction carries")
    func requiredAccessors() throws {
        let verifier = try SignedDataVerifier.forTestVectors()
        let transaction = try verifier.verifyTransaction(try Self.vector("transaction-valid")).payloadValue
        let productId: String = transaction.productId
        let purchaseDate: Date = transaction.purchaseDate
        let environment: AppStoreEnvironment = transaction.environment
        #expect(!productId.isEmpty && purchaseDate.timeIntervalSince1970 > 0 && environment == .sandbox)
        #expect(!transaction.transactionId.isEmpty && !transaction.originalTransactionId.isEmpty && transaction.bundleId == "com.example.app")
        #expect(transaction.missingRequiredMembers.isEmpty)
    }
}
