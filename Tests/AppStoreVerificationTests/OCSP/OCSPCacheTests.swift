import Foundation
import Testing
@testable import AppStoreVerification
import AppStoreVerificationTesting

/// The OCSP answer cache against real `openssl ocsp` responders: what is reused, for how long, what
/// is shared, and what is never kept. Requests are counted by the transport and, where a test has
/// responders of its own that log what they serve, at the responders too.
@Suite("OCSP answer cache against a real responder")
struct OCSPCacheTests {
    let pki: OCSPTestPKI

    init() async throws {
        pki = try await OCSPTestPKI.get()
    }

    @Test("cache: 200 verifications of one chain, one request per responder (counted by the transport and by the responders)")
    func cacheHit() async throws {
        let transport = CountingTransport()
        let verifier = try pki.verifier(OCSPTestPKI.options(transport))
        let jws = try pki.transaction(.cacheHit)
        for _ in 0..<200 {
            try #require(try await verifier.verifyTransaction(jws).isVerified)
        }
        #expect(transport.count(pki.responderURL(of: .cacheHit)) == 1)
        #expect(transport.count(pki.rootResponderURL) == 1)
        #expect(try pki.requestsServed(by: OCSPTestPKI.Leaf.cacheHit.rawValue, about: "cache-hit") == 1)
        #expect(try pki.requestsServed(by: "root", about: OCSPTestPKI.Leaf.cacheHit.issuer) == 1)
    }

    @Test("cache: a cached revoked answer is still revoked, and not asked again")
    func cachedRevocation() async throws {
        let transport = CountingTransport()
        let verifier = try pki.verifier(OCSPTestPKI.options(transport))
        let jws = try pki.transaction(.revoked)
        for _ in 0..<3 {
            let result = try await verifier.verifyTransaction(jws)
            guard case .unverified(_, .revokedCertificate(let reason)) = result else {
                Issue.record("expected revokedCertificate, got \(result)")
                return
            }
            #expect(reason.contains("leaf (x5c[0]"))
        }
        #expect(transport.count(pki.leafResponderURL) == 1)
        #expect(transport.count(pki.rootResponderURL) == 1)
    }

    @Test("cache key: equal exactly when both DER encodings are, whatever the storage")
    func cacheKey() {
        let certificate: [UInt8] = [0x30, 0x03, 0x02, 0x01, 0x01]
        let issuer: [UInt8] = [0x30, 0x03, 0x02, 0x01, 0x02]
        let key = OCSPCacheKey(certificate: certificate, issuer: issuer)
        let copy = OCSPCacheKey(certificate: Array(certificate[...]), issuer: issuer.map { $0 })
        #expect(key == copy)
        #expect(key.hashValue == copy.hashValue)
        #expect(key != OCSPCacheKey(certificate: issuer, issuer: certificate))
        // The boundary between the two encodings is part of the key.
        #expect(key != OCSPCacheKey(certificate: certificate + issuer.prefix(1), issuer: Array(issuer.dropFirst())))
        #expect(key != OCSPCacheKey(certificate: certificate, issuer: issuer.dropLast() + [0x03]))
        var answers: [OCSPCacheKey: Int] = [key: 1]
        answers[copy, default: 0] += 1
        #expect(answers.count == 1 && answers[key] == 2)
    }

    @Test("single flight: 32 concurrent verifications, one request per responder (counted by the transport and by the responders)")
    func singleFlight() async throws {
        let transport = CountingTransport()
        let verifier = try pki.verifier(OCSPTestPKI.options(transport))
        let jws = try pki.transaction(.singleFlight)
        let verified = try await withThrowingTaskGroup(of: Bool.self) { group in
            for _ in 0..<32 {
                group.addTask { try await verifier.verifyTransaction(jws).isVerified }
            }
            return try await group.reduce(0) { $0 + ($1 ? 1 : 0) }
        }
        #expect(verified == 32)
        #expect(transport.count(pki.responderURL(of: .singleFlight)) == 1)
        #expect(transport.count(pki.rootResponderURL) == 1)
        #expect(try pki.requestsServed(by: OCSPTestPKI.Leaf.singleFlight.rawValue, about: "single-flight") == 1)
        #expect(try pki.requestsServed(by: "root", about: OCSPTestPKI.Leaf.singleFlight.issuer) == 1)
    }

    @Test("expiry: the cached answer is reused before nextUpdate and asked again at it")
    func expiryAtNextUpdate() async throws {
        let clock = ManualClock()
        let transport = CountingTransport()
        let verifier = try pki.verifier(OCSPTestPKI.options(transport), clock: .manual(clock))
        let jws = try pki.transaction(.expiring)
        #expect(try await verifier.verifyTransaction(jws).isVerified)
        #expect(transport.count(pki.expiringResponderURL) == 1)
        clock.advance(by: .seconds(30))  // before nextUpdate (thisUpdate + 1 minute)
        #expect(try await verifier.verifyTransaction(jws).isVerified)
        #expect(transport.count(pki.expiringResponderURL) == 1)
        // Past nextUpdate, however long the first answer took to come (thisUpdate is the
        // responder's real time): asked again; the fresh answer is good (within the clock skew).
        clock.advance(by: .seconds(90))
        #expect(try await verifier.verifyTransaction(jws).isVerified)
        #expect(transport.count(pki.expiringResponderURL) == 2)
        #expect(transport.count(pki.rootResponderURL) == 1)
    }

    @Test("maximumCacheAge bounds reuse below nextUpdate: past it (nextUpdate a day away), both responders are asked again")
    func maximumCacheAge() async throws {
        let clock = ManualClock()
        let transport = CountingTransport()
        var options = OCSPTestPKI.options(transport)
        options.maximumCacheAge = .seconds(60)
        let verifier = try pki.verifier(options, clock: .manual(clock))
        let jws = try pki.transaction(.good)
        #expect(try await verifier.verifyTransaction(jws).isVerified)
        clock.advance(by: .seconds(30))  // within maximumCacheAge: reused
        #expect(try await verifier.verifyTransaction(jws).isVerified)
        #expect(transport.count(pki.leafResponderURL) == 1)
        #expect(transport.count(pki.rootResponderURL) == 1)
        clock.advance(by: .seconds(31))  // past maximumCacheAge, long before nextUpdate (one day): asked again
        #expect(try await verifier.verifyTransaction(jws).isVerified)
        #expect(transport.count(pki.leafResponderURL) == 2)
        #expect(transport.count(pki.rootResponderURL) == 2)
    }

    @Test("failures are not cached: responder down gives unavailable; once it is up, the next verification asks and verifies")
    func failuresNotCached() async throws {
        let transport = CountingTransport()
        let verifier = try pki.verifier(OCSPTestPKI.options(transport))
        let down = try await pki.verify(.late, verifier)
        guard case .failure(let unavailable) = down else {
            Issue.record("expected unavailable while the responder is down, got \(down)")
            return
        }
        #expect(unavailable.code == .unreachable)
        try await pki.startLateResponder()
        let up = try await pki.verify(.late, verifier).get()
        #expect(up.isVerified, "\(String(describing: up.verificationError))")
        #expect(transport.count(pki.responderURL(of: .late)) == 2)
    }
}
