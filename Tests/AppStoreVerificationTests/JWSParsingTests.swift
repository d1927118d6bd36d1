import AppStoreVerificationTestSupport
import Foundation
import Testing
@testable import AppStoreVerification

@Suite("JWS parsing and strict base64")
struct JWSParsingTests {
    @Test("base64url accepts exactly the canonical unpadded encoding", arguments: [
        ("", Data()), ("AA", Data([0])), ("AAA", Data([0, 0])), ("AAAA", Data([0, 0, 0])),
        ("_-8", Data([0xFF, 0xEF])), ("3q2-7w", Data([0xDE, 0xAD, 0xBE, 0xEF])),
    ])
    func base64URLValid(_ text: String, _ expected: Data) throws {
        #expect(try Base64.decodeURL(text.utf8) == expected)
    }

    @Test("base64url refuses padding, whitespace, the standard alphabet, bad lengths and non-canonical bits",
          arguments: ["AA==", "AA A", "A", "AAAAA", "+/8", "AA\n", "AB", "AAB", "é", "AA.A"])
    func base64URLInvalid(_ text: String) {
        #expect(throws: Base64.Failure.self) { try Base64.decodeURL(text.utf8) }
    }

    @Test("standard base64 needs its padding and refuses the URL alphabet and whitespace",
          arguments: ["AA", "AA=", "A===", "-_8=", "AA==\n", "AA ==", "AB==", "AAB=", "=AAA", "AA=A"])
    func standardInvalid(_ text: String) {
        #expect(throws: Base64.Failure.self) { try Base64.decodeStandard(text.utf8) }
    }

    @Test("standard base64 decodes padded text")
    func standardValid() throws {
        #expect(try Base64.decodeStandard("3q2+7w==".utf8) == Data([0xDE, 0xAD, 0xBE, 0xEF]))
        #expect(try Base64.decodeStandard("AAAA".utf8) == Data([0, 0, 0]))
        #expect(try Base64.decodeStandard("AAA=".utf8) == Data([0, 0]))
    }

    @Test("a compact JWS has exactly three segments and a decodable payload",
          arguments: ["", "abc", "a.b", "a.b.c.d", "a.b.c.d.e", ".e30.", "eyJ9.e30=.sig", "eyJ9.e 30.sig"])
    func notCompact(_ text: String) {
        #expect(throws: SignedDataDecodingError.self) { try CompactJWS(parsing: text) }
    }

    @Test("header and signature encoding problems are kept for verification, not thrown")
    func headerAndSignatureProblemsAreFindings() throws {
        let jws = try CompactJWS(parsing: "e+30.e30.s/g")
        #expect(jws.headerData.isEmpty)
        #expect(jws.signatureEncodingFailure != nil)
        #expect(jws.payloadData == Data("{}".utf8))
        #expect(jws.signedData == Data("e+30.e30".utf8))
    }

    @Test("the payload must be a JSON object of the documented types")
    func payloadDecoding() throws {
        let verifier = try SignedDataVerifier.forTestVectors()
        func jws(_ payload: String) -> String { "eyJhbGciOiJFUzI1NiJ9.\(base64URLEncoded(Data(payload.utf8))).AAAA" }
        let cases: [(String, SignedDataDecodingError.Code)] = [
            ("[1,2]", .invalidJSON), ("\"text\"", .invalidJSON), ("", .invalidJSON), ("{", .invalidJSON),
            ("{\"transactionId\":5}", .invalidPayload), ("{\"transactionId\":\"1\",\"signedDate\":\"today\"}", .invalidPayload),
        ]
        for (payload, code) in cases {
            #expect(throws: SignedDataDecodingError.self, "payload \(payload)") { try verifier.verifyTransaction(jws(payload)) }
            do {
                _ = try verifier.verifyTransaction(jws(payload))
            } catch {
                #expect(error.code == code, "payload \(payload): \(error)")
            }
        }
    }

    @Test("deeply nested JSON and huge input are refused without a crash")
    func hostileInput() throws {
        let verifier = try SignedDataVerifier.forTestVectors()
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        let nested = "{\"transactionId\":\"1\",\"advancedCommerceInfo\":\(deep)}"
        do {
            _ = try verifier.verifyTransaction("eyJhbGciOiJFUzI1NiJ9.\(base64URLEncoded(Data(nested.utf8))).AAAA")
            Issue.record("deeply nested JSON must not decode")
        } catch {
            #expect([.invalidJSON, .invalidPayload].contains(error.code))
        }
        let huge = String(repeating: "A", count: 10 << 20)
        do {
            _ = try verifier.verifyTransaction("eyJhbGciOiJFUzI1NiJ9.\(huge).AAAA")
            Issue.record("10 MB input must be refused")
        } catch {
            #expect(error.code == .inputTooLarge)
        }
    }

    @Test("header parameters that locate keys are never used: jwk, jku, x5u and kid change nothing")
    func keyLocatingHeaderParametersIgnored() throws {
        let jws = try TestPaths.text(TestPaths.testVector("jws/transaction-valid.jws"))
        let header = try #require(base64URLDecoded(String(jws.split(separator: ".")[0])))
        var object = try #require(try JSONSerialization.jsonObject(with: header) as? [String: Any])
        object["jku"] = "https://attacker.invalid/keys"
        object["x5u"] = "https://attacker.invalid/chain"
        object["kid"] = "attacker"
        object["jwk"] = ["kty": "EC", "crv": "P-256", "x": "AAAA", "y": "AAAA"]
        let injected = try JSONSerialization.data(withJSONObject: object)
        let parts = jws.split(separator: ".")
        let forged = "\(base64URLEncoded(injected)).\(parts[1]).\(parts[2])"
        // The signature covered the original header, so the forged one fails the signature check,
        // and nothing was fetched or trusted from the injected parameters.
        let result = try SignedDataVerifier.forTestVectors().verifyTransaction(forged)
        #expect(result.verificationError?.code == .invalidSignature)
    }
}
