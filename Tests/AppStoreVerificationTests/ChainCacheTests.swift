import AppStoreVerificationTestSupport
import Foundation
import Testing
@testable import AppStoreVerification

@Suite("Verified-chain cache")
struct ChainCacheTests {
    static func chain(validity: Range<Int64>) throws -> ValidatedChain {
        let leaf = try X509Certificate(derEncoded: Data(contentsOf: TestPaths.testVector("pki/leaf.der")))
        let intermediate = try X509Certificate(derEncoded: Data(contentsOf: TestPaths.testVector("pki/intermediate.der")))
        return ValidatedChain(leaf: leaf, intermediate: intermediate, root: nil, leafKey: try leaf.publicKey(), validity: validity)
    }

    @Test("entries are found only inside their validity window")
    func validityWindow() throws {
        let cache = LRUCache<Substring, ValidatedChain>(capacity: 4)
        cache.insert(try Self.chain(validity: 100..<200), for: "a")
        func lookup(_ key: Substring, _ instant: Int64) -> ValidatedChain? {
            cache.value(for: key, where: { $0.validity.contains(instant) })
        }
        #expect(lookup("a", 100) != nil)
        #expect(lookup("a", 199) != nil)
        #expect(lookup("a", 200) == nil)
        #expect(lookup("a", 99) == nil)
        #expect(lookup("b", 150) == nil)
    }

    @Test("the least recently used entry goes first when full")
    func leastRecentlyUsed() throws {
        let cache = LRUCache<String, Int>(capacity: 2)
        cache.insert(1, for: "a")
        cache.insert(2, for: "b")
        _ = cache.value(for: "a", where: { _ in true })  // a is now the most recent
        cache.insert(3, for: "c")                        // evicts b
        #expect(cache.value(for: "a", where: { _ in true }) == 1)
        #expect(cache.value(for: "b", where: { _ in true }) == nil)
        #expect(cache.value(for: "c", where: { _ in true }) == 3)
        #expect(cache.count == 2)
        cache.insert(4, for: "c")
        #expect(cache.value(for: "c", where: { _ in true }) == 4)
        let disabled = LRUCache<String, Int>(capacity: 0)
        disabled.insert(1, for: "a")
        #expect(disabled.value(for: "a", where: { _ in true }) == nil)
    }

    @Test("a cached chain used at a date outside its validity is validated afresh and refused")
    func cachedChainOutsideWindow() throws {
        let jws = try TestPaths.text(TestPaths.testVector("jws/transaction-valid.jws"))
        let warm = try SignedDataVerifier.forTestVectors()
        #expect(try warm.verifyTransaction(jws).isVerified)
        #expect(warm.signedDataPolicy.chainCache.count == 1)
        // Same verifier configuration but checked in 2030, after the leaf expired.
        let late = try SignedDataVerifier(configuration: .init(
            trustedRoots: [.testRoot()], bundleId: "com.example.app", environment: .sandbox,
            effectiveDate: .fixed(Date(timeIntervalSince1970: 1_900_000_000))))
        #expect(try late.verifyTransaction(jws).isVerified == false)
        // And the warm verifier: the expired vector shares the valid leaf's chain.
        let expired = try TestPaths.text(TestPaths.testVector("jws/expired-leaf.jws"))
        #expect(try warm.verifyTransaction(expired).verificationError?.code == .invalidCertificateChain)
    }

    @Test("a chain sharing the cached leaf but with another intermediate is its own entry, and fails")
    func sharedLeafOtherIntermediate() throws {
        let verifier = try SignedDataVerifier.forTestVectors()
        let valid = try TestPaths.text(TestPaths.testVector("jws/transaction-valid.jws"))
        #expect(try verifier.verifyTransaction(valid).isVerified)
        // Swap x5c[1] for the leaf itself: the same leaf, another chain.
        let parts = valid.split(separator: ".").map(String.init)
        let header = try #require(base64URLDecoded(parts[0]))
        var object = try #require(try JSONSerialization.jsonObject(with: header) as? [String: Any])
        var x5c = try #require(object["x5c"] as? [String])
        x5c[1] = x5c[0]
        object["x5c"] = x5c
        let forged = "\(base64URLEncoded(try JSONSerialization.data(withJSONObject: object))).\(parts[1]).\(parts[2])"
        #expect(try verifier.verifyTransaction(forged).isVerified == false)
        #expect(try verifier.verifyTransaction(valid).isVerified)
    }

    @Test("a new leaf under a validated intermediate is checked against it, with every leaf check intact")
    func validatedIssuerPath() throws {
        let verifier = try SignedDataVerifier.forTestVectors()
        let valid = try TestPaths.text(TestPaths.testVector("jws/transaction-valid.jws"))
        #expect(try verifier.verifyTransaction(valid).isVerified)
        #expect(verifier.signedDataPolicy.chainPolicy.validatedIssuers.count == 1)
        // Leaves under the same (now validated) intermediate that must still fail on their own.
        for (name, code) in [("leaf-missing-oid", "invalidCertificateChain"), ("leaf-p384-key", "invalidCertificateChain"),
                             ("expired-leaf", "invalidCertificateChain"), ("not-yet-valid", "invalidCertificateChain"),
                             ("leaf-signed-by-root", "invalidCertificateChain"), ("resigned-other-key", "invalidSignature")] {
            let result = try verifier.verifyTransaction(try TestPaths.text(TestPaths.testVector("jws/\(name).jws")))
            #expect(result.verificationError?.code.description == code, "\(name): \(String(describing: result.verificationError))")
        }
        // The high-S vector shares the header: verified through the chain cache.
        #expect(try verifier.verifyTransaction(try TestPaths.text(TestPaths.testVector("jws/transaction-high-s.jws"))).isVerified)
    }

    @Test("failed chains are never cached; an intermediate is remembered only once its own path validated")
    func failuresNotCached() throws {
        let verifier = try SignedDataVerifier.forTestVectors()
        for name in ["rechained-untrusted", "impostor-root-same-name", "intermediate-not-ca", "intermediate-missing-oid", "x5c-two-certs", "expired-leaf"] {
            _ = try verifier.verifyTransaction(try TestPaths.text(TestPaths.testVector("jws/\(name).jws")))
        }
        #expect(verifier.signedDataPolicy.chainCache.count == 0)
        #expect(verifier.signedDataPolicy.chainPolicy.validatedIssuers.count == 0)
        // The leaf lacks its marker, but its intermediate's path to the root is sound.
        _ = try verifier.verifyTransaction(try TestPaths.text(TestPaths.testVector("jws/leaf-missing-oid.jws")))
        #expect(verifier.signedDataPolicy.chainCache.count == 0)
        #expect(verifier.signedDataPolicy.chainPolicy.validatedIssuers.count == 1)
    }

    @Test("one verifier shared by 32 concurrent tasks gives every task the right verdicts")
    func concurrentUse() async throws {
        let verifier = try SignedDataVerifier.forTestVectors(chainCacheCapacity: 2)
        let names = ["transaction-valid", "tampered-payload", "expired-leaf", "transaction-high-s", "leaf-missing-oid", "renewal-valid"]
        let inputs = try names.map { try TestPaths.text(TestPaths.testVector("jws/\($0).jws")) }
        let expected = [true, false, false, true, false, true]
        let mismatches = try await withThrowingTaskGroup(of: Int.self) { group in
            for task in 0..<32 {
                group.addTask {
                    var mismatches = 0
                    for round in 0..<40 {
                        let index = (task + round) % inputs.count
                        let verified = names[index] == "renewal-valid"
                            ? try verifier.verifyRenewalInfo(inputs[index]).isVerified
                            : try verifier.verifyTransaction(inputs[index]).isVerified
                        if verified != expected[index] { mismatches += 1 }
                    }
                    return mismatches
                }
            }
            return try await group.reduce(0, +)
        }
        #expect(mismatches == 0)
    }
}
