import AppStoreVerification
import AppStoreVerificationTesting
import Foundation
import Testing

/// A test PKI's JWS chain has the sizes of Apple's real one (1,077, 794 and 583 bytes), so minted
/// data is as long as Apple's, and it still verifies.
@Suite struct AppleSizedChainTests {
    @Test func theJWSChainHasApplesSizesAndVerifies() throws {
        let pki = try Shared.pki.get()
        for (certificate, apple) in [(pki.chain.leaf, 1_077), (pki.chain.intermediate, 794), (pki.chain.root, 583)] {
            #expect((apple...(apple + 8)).contains(certificate.derEncoded.count), "\(certificate.derEncoded.count) bytes, Apple's \(apple)")
        }
        for variant in TestPKI.Variant.allCases where variant != .valid {
            let leaf = try pki.variant(variant).chain.leaf
            #expect((1_077...1_085).contains(leaf.derEncoded.count), "\(variant): \(leaf.derEncoded.count) bytes")
        }
        let jws = try Shared.minter().transaction(Transaction(transactionId: "1", productId: "com.example.pro"))
        #expect(try Shared.verifier().verifyTransaction(jws).isVerified)
        // The JWS header (alg and x5c) is as long as one of Apple's, about 4.4 KB.
        let header = try #require(jws.split(separator: ".").first)
        #expect((4_400...4_480).contains(header.count), "\(header.count) characters")
    }
}
