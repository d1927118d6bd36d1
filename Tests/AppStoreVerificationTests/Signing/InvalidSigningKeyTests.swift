import Foundation
import Testing
@testable import AppStoreVerification

/// Keys that parse but are not key pairs are refused at load: their signatures would verify under
/// no key, silently.
@Suite("Signing keys: invalid P-256 key pairs are refused at load")
struct InvalidSigningKeyTests {
    /// P-256's base point G and 2G (uncompressed coordinates), and the group order n.
    static let gx = "6B17D1F2E12C4247F8BCE6E563A440F277037D812DEB33A0F4A13945D898C296"
    static let gy = "4FE342E2FE1A7F9B8EE7EB4A7C0F9E162BCE33576B315ECECBB6406837BF51F5"
    static let twoGx = "7CF27B188D034F7E8A52380304B51AC3C08969E277F21B35A60B48FC47669978"
    static let twoGy = "07775510DB8ED040293D9AC69F7430DBBA7DADE63CE982299E04B79D227873D1"
    static let order = "FFFFFFFF00000000FFFFFFFFFFFFFFFFBCE6FAADA7179E84F3B9CAC2FC632551"
    static let one = String(repeating: "0", count: 63) + "1"
    static let zero = String(repeating: "0", count: 64)

    /// A SEC1 `EC PRIVATE KEY` PEM with private scalar `d` and public point (`x`, `y`), each 32
    /// bytes of hex.
    static func sec1(d: String, x: String, y: String) -> String {
        let der = hexBytes("30770201010420" + d + "a00a06082a8648ce3d030107a144034200" + "04" + x + y)
        let base64 = Data(der).base64EncodedString(options: [.lineLength64Characters, .endLineWithLineFeed])
        return "-----BEGIN EC PRIVATE KEY-----\n\(base64)\n-----END EC PRIVATE KEY-----\n"
    }

    @Test("the fixture is sound: d = 1 with public key G loads and signs")
    func validKeyLoads() throws {
        let key = try SigningKey(pem: Self.sec1(d: Self.one, x: Self.gx, y: Self.gy))
        #expect(!key.publicKeyDER.isEmpty)
    }

    @Test("scalar 0, the group order, or a public key that is not d·G: refused",
          arguments: [("scalar 0", zero, gx, gy), ("scalar n", order, gx, gy), ("d = 1, public key 2G", one, twoGx, twoGy)])
    func refused(_ name: String, _ d: String, _ x: String, _ y: String) {
        do {
            _ = try SigningKey(pem: Self.sec1(d: d, x: x, y: y))
            Issue.record("\(name): the key was loaded")
        } catch {
            #expect(error.code == .invalidKey || error.code == .malformedKey, "\(name): \(error)")
            if error.code == .invalidKey {
                #expect(error.message.contains("not a valid key pair"), "\(error.message)")
            }
        }
    }

    @Test("d = 1 with public key 2G is a parseable key: refused as invalidKey, not as malformed")
    func mismatchedPublicKeyIsInvalid() {
        do {
            _ = try SigningKey(pem: Self.sec1(d: Self.one, x: Self.twoGx, y: Self.twoGy))
            Issue.record("the mismatched key was loaded")
        } catch {
            #expect(error.code == .invalidKey, "\(error)")
        }
    }
}
