import Foundation
import Testing
@testable import AppStoreVerification

@Suite("Verified-chain cache")
struct ChainCacheTests {
    static func chain(validity: Range<Int64>) throws -> ValidatedChain {
        let leaf = try X509Certificate(derEncoded: Data(contentsOf: TestPaths.testVector("pki/leaf.der")))
        return ValidatedChain(leafKey: try leaf.publicKey(), validity: validity)
    }

    @Test("entries are found only inside their validity window")
    func validityWindow() throws {
        let cache = ChainCache(capacity: 4)
        cache.insert(try Self.chain(validity: 100..<200), for: "a")
        #expect(cache.chain(for: "a", at: 100) != nil)
        #expect(cache.chain(for: "a", at: 199) != nil)
        #expect(cache.chain(for: "a", at: 200) == nil)
        #expect(cache.chain(for: "a", at: 99) == nil)
        #expect(cache.chain(for: "b", at: 150) == nil)
    }

    @Test("the least recently used entry goes first when full")
    func leastRecentlyUsed() throws {
        let cache = ChainCache(capacity: 2)
        let chain = try Self.chain(validity: 0..<1000)
        cache.insert(chain, for: "a")
        cache.insert(chain, for: "b")
        _ = cache.chain(for: "a", at: 1)  // a is now the most recent
        cache.insert(chain, for: "c")     // evicts b
        #expect(cache.chain(for: "a", at: 1) != nil)
        #expect(cache.chain(for: "b", at: 1) == nil)
        #expect(cache.chain(for: "c", at: 1) != nil)
        #expect(cache.count == 2)
        let disabled = ChainCache(capacity: 0)
        disabled.insert(chain, for: "a")
        #expect(disabled.chain(for: "a", at: 1) == nil)
    }

    @Test("a cached chain used at a date outside its validity is validated afresh and refused")
    func cachedChainOutsideWindow() throws {
        let jws = try TestPaths.text(TestPaths.testVector("jws/transaction-valid.jws"))
        let warm = try SignedDataVerifier.forTestVectors()
        #expect(try warm.verifyTransaction(jws).isVerified)
        #expect(warm.chainCache.count == 1)
        // Same verifier configuration but checked in 2030, after the leaf expired.
        let late = try SignedDataVerifier(configuration: .init(
            trustedRoots: [.testRoot()], bundleId: "com.example.app", environment: .sandbox,
            effectiveDate: .fixed(Date(timeIntervalSince1970: 1_900_000_000))))
        #expect(try late.verifyTransaction(jws).isVerified == false)
        // And the warm verifier: the expired vector shares the valid leaf's chain.
        let expired = try TestPaths.text(TestPaths.testVector("jws/expired-leaf.jws"))
        #expect(try warm.verifyTransaction(expired).verificationError?.code == "invalidCertificateChain")
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

    @Test("failed chains are never cached")
    func failuresNotCached() throws {
        let verifier = try SignedDataVerifier.forTestVectors()
        for name in ["rechained-untrusted", "leaf-missing-oid", "expired-leaf", "x5c-two-certs"] {
            _ = try verifier.verifyTransaction(try TestPaths.text(TestPaths.testVector("jws/\(name).jws")))
        }
        #expect(verifier.chainCache.count == 0)
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
