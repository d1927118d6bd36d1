import AppStoreVerificationTestSupport
import Foundation
import Testing
@testable import AppStoreVerification

/// Wycheproof's ECDSA P-256 / SHA-256 vectors in IEEE P1363 form (raw r || s, the JOSE ES256
/// encoding), run through the shim's ES256 verification.
@Suite("Wycheproof ECDSA P-256 P1363", .enabled(if: TestPaths.sharedIsPresent, sharedAbsentComment))
struct WycheproofTests {
    struct File: Decodable {
        struct Group: Decodable {
            var publicKeyDer: String
            var tests: [Case]
        }
        struct Case: Decodable {
            var tcId: Int
            var comment: String
            var msg: String
            var sig: String
            var result: String
        }
        var testGroups: [Group]
    }

    @Test("every valid signature verifies and every invalid one is refused")
    func p1363Vectors() throws {
        let data = try Data(contentsOf: TestPaths.sharedFile("vectors/wycheproof/ecdsa_secp256r1_sha256_p1363_test.json"))
        let file = try JSONDecoder().decode(File.self, from: data)
        var checked = 0
        for group in file.testGroups {
            let key = try PublicKey(subjectPublicKeyInfo: Data(hexBytes(group.publicKeyDer)))
            #expect(key.kind == .p256)
            for test in group.tests {
                let accepted = (try? key.verifyES256(signature: Data(hexBytes(test.sig)), over: hexBytes(test.msg))) != nil
                switch test.result {
                case "valid": #expect(accepted, "tcId \(test.tcId) (\(test.comment)) must verify")
                case "invalid": #expect(!accepted, "tcId \(test.tcId) (\(test.comment)) must be refused")
                default: break  // "acceptable" may go either way
                }
                checked += 1
            }
        }
        #expect(checked >= 200)
    }
}
