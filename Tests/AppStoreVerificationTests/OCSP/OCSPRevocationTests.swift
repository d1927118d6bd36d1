import Foundation
import Testing
@testable import AppStoreVerification

/// Online verification against real `openssl ocsp` responders and loopback servers (127.0.0.1 only),
/// with a PKI minted at test time: see OCSPTestPKI.
@Suite("OCSP revocation checks against a real responder")
struct OCSPRevocationTests {
    let pki: OCSPTestPKI

    init() throws {
        pki = try OCSPTestPKI.get()
    }

    /// Generous time limits except where a test is about timing out: `swift test` runs suites in
    /// parallel on Swift's cooperative pool (two threads on a two-core machine), and CPU-bound suites
    /// can hold both threads for tens of seconds, so a 5 s deadline would measure the other suites,
    /// not the responder.
    static let patientTimeout = Duration.seconds(120)

    private func options(_ transport: CountingTransport, timeout: Duration = patientTimeout) -> OCSPOptions {
        OCSPOptions(requestTimeout: timeout, overallDeadline: timeout * 2, transport: transport)
    }

    /// The verdict of an online verification, or the unavailability thrown.
    private func verify(_ leaf: OCSPTestPKI.Leaf, _ verifier: SignedDataVerifier) async throws -> Result<VerificationResult<Transaction>, RevocationCheckUnavailable> {
        do {
            return .success(try await verifier.verifyTransaction(try pki.transaction(leaf)))
        } catch let error as OnlineVerificationError {
            switch error {
            case .revocationCheckUnavailable(let unavailable): return .failure(unavailable)
            case .decoding(let decoding): throw decoding
            }
        }
    }

    @Test("good leaf and intermediate: verified, one request to each responder")
    func good() async throws {
        let transport = CountingTransport()
        let result = try await verify(.good, pki.verifier(options(transport))).get()
        #expect(result.isVerified, "\(String(describing: result.verificationError))")
        #expect(transport.count(pki.leafResponderURL) == 1)
        #expect(transport.count(pki.rootResponderURL) == 1)
    }

    @Test("revoked leaf: unverified, revokedCertificate naming the leaf, the time and the reason")
    func revokedLeaf() async throws {
        let result = try await verify(.revoked, pki.verifier(options(CountingTransport()))).get()
        guard case .unverified(_, .revokedCertificate(let reason)) = result else {
            Issue.record("expected revokedCertificate, got \(result)")
            return
        }
        #expect(reason.contains("leaf (x5c[0]"))
        #expect(reason.contains("keyCompromise"))
        #expect(reason.contains("revoked at 20"))
    }

    @Test("revoked intermediate: unverified, revokedCertificate naming the intermediate")
    func revokedIntermediate() async throws {
        let result = try await verify(.underRevokedIntermediate, pki.verifier(options(CountingTransport()))).get()
        guard case .unverified(_, .revokedCertificate(let reason)) = result else {
            Issue.record("expected revokedCertificate, got \(result)")
            return
        }
        #expect(reason.contains("intermediate (x5c[1]"))
        #expect(reason.contains("Revoked Intermediate"))
    }

    @Test("unknown: unverified, invalidCertificateChain (the responder does not vouch)")
    func unknown() async throws {
        let result = try await verify(.unknown, pki.verifier(options(CountingTransport()))).get()
        #expect(result.verificationError?.code == "invalidCertificateChain")
        #expect(result.verificationError?.reason.contains("\"unknown\"") == true)
    }

    @Test("responder down (connection refused): RevocationCheckUnavailable, unreachable")
    func responderDown() async throws {
        let outcome = try await verify(.down, pki.verifier(options(CountingTransport())))
        guard case .failure(let unavailable) = outcome else {
            Issue.record("expected unavailable, got \(outcome)")
            return
        }
        #expect(unavailable.reason == .unreachable)
        #expect(unavailable.certificate.contains("leaf"))
    }

    @Test("responder that never answers: RevocationCheckUnavailable, timedOut")
    func responderNeverAnswers() async throws {
        let verifier = try pki.verifier(options(CountingTransport(), timeout: .milliseconds(800)))
        // The server never answers and never hangs up: only the verifier's timeout ends the wait.
        let outcome = try await verify(.silent, verifier)
        guard case .failure(let unavailable) = outcome else {
            Issue.record("expected unavailable, got \(outcome)")
            return
        }
        #expect(unavailable.reason == .timedOut)
    }

    @Test("response signed by an unrelated key: unverified, invalidCertificateChain")
    func unrelatedSigner() async throws {
        let result = try await verify(.unrelated, pki.verifier(options(CountingTransport()))).get()
        #expect(result.verificationError?.code == "invalidCertificateChain")
        #expect(result.verificationError?.reason.contains("not signed by its issuer") == true)
    }

    @Test("a genuine response about another serial: unverified, invalidCertificateChain")
    func otherSerial() async throws {
        let result = try await verify(.otherSerial, pki.verifier(options(CountingTransport()))).get()
        #expect(result.verificationError?.code == "invalidCertificateChain")
        #expect(result.verificationError?.reason.contains("does not answer for") == true)
    }

    @Test("stale response (nextUpdate one minute after thisUpdate, judged ten minutes later): invalidCertificateChain")
    func staleResponse() async throws {
        let clock = TestClock()
        clock.setOffset(600)
        var options = options(CountingTransport())
        options.clock = { clock.now }
        let result = try await verify(.expiring, pki.verifier(options)).get()
        #expect(result.verificationError?.code == "invalidCertificateChain")
        #expect(result.verificationError?.reason.contains("stale") == true)
    }

    @Test("HTTP 500: RevocationCheckUnavailable, httpStatus")
    func http500() async throws {
        let outcome = try await verify(.http500, pki.verifier(options(CountingTransport())))
        guard case .failure(let unavailable) = outcome else {
            Issue.record("expected unavailable, got \(outcome)")
            return
        }
        #expect(unavailable.reason == .httpStatus)
        #expect(unavailable.message.contains("500"))
    }

    @Test("garbage body: RevocationCheckUnavailable, invalidResponse")
    func garbageBody() async throws {
        let outcome = try await verify(.garbage, pki.verifier(options(CountingTransport())))
        guard case .failure(let unavailable) = outcome else {
            Issue.record("expected unavailable, got \(outcome)")
            return
        }
        #expect(unavailable.reason == .invalidResponse)
    }

    @Test("very large body (4 MiB): cut off at the limit, RevocationCheckUnavailable, responseTooLarge")
    func largeBody() async throws {
        let outcome = try await verify(.large, pki.verifier(options(CountingTransport())))
        guard case .failure(let unavailable) = outcome else {
            Issue.record("expected unavailable, got \(outcome)")
            return
        }
        #expect(unavailable.reason == .responseTooLarge)
    }

    @Test("cache: 200 verifications of one chain, one request per responder")
    func cacheHit() async throws {
        let transport = CountingTransport()
        let verifier = try pki.verifier(options(transport))
        let jws = try pki.transaction(.good)
        for _ in 0..<200 {
            try #require(try await verifier.verifyTransaction(jws).isVerified)
        }
        #expect(transport.count(pki.leafResponderURL) == 1)
        #expect(transport.count(pki.rootResponderURL) == 1)
    }

    @Test("cache: a cached revoked answer is still revoked, and not asked again")
    func cachedRevocation() async throws {
        let transport = CountingTransport()
        let verifier = try pki.verifier(options(transport))
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

    @Test("single flight: 32 concurrent verifications, one request per responder")
    func singleFlight() async throws {
        let transport = CountingTransport()
        let verifier = try pki.verifier(options(transport))
        let jws = try pki.transaction(.good)
        let verified = try await withThrowingTaskGroup(of: Bool.self) { group in
            for _ in 0..<32 {
                group.addTask { try await verifier.verifyTransaction(jws).isVerified }
            }
            return try await group.reduce(0) { $0 + ($1 ? 1 : 0) }
        }
        #expect(verified == 32)
        #expect(transport.count(pki.leafResponderURL) == 1)
        #expect(transport.count(pki.rootResponderURL) == 1)
    }

    @Test("expiry: the cached answer is reused before nextUpdate and asked again at it")
    func expiryAtNextUpdate() async throws {
        let clock = TestClock()
        let transport = CountingTransport()
        var options = options(transport)
        options.clock = { clock.now }
        let verifier = try pki.verifier(options)
        let jws = try pki.transaction(.expiring)
        #expect(try await verifier.verifyTransaction(jws).isVerified)
        #expect(transport.count(pki.expiringResponderURL) == 1)
        clock.setOffset(30)  // before nextUpdate (thisUpdate + 1 minute)
        #expect(try await verifier.verifyTransaction(jws).isVerified)
        #expect(transport.count(pki.expiringResponderURL) == 1)
        clock.setOffset(61)  // at or past nextUpdate: asked again; the fresh answer is good
        #expect(try await verifier.verifyTransaction(jws).isVerified)
        #expect(transport.count(pki.expiringResponderURL) == 2)
        #expect(transport.count(pki.rootResponderURL) == 1)
    }

    @Test("offline mode (the default) sends no request, synchronously or through the async entry point")
    func offlineSendsNothing() async throws {
        let verifier = try SignedDataVerifier(configuration: .init(
            trustedRoots: [try TrustedRoot(derEncoded: pki.rootDER)], bundleId: "com.example.app", environment: .sandbox,
            effectiveDate: .now))  // the re-signed vector's signedDate predates the freshly minted certificates
        let jws = try pki.transaction(.offline)
        #expect(try Self.verifiedSynchronously(jws, verifier))
        #expect(try await verifier.verifyTransaction(jws).isVerified)
        #expect(pki.offlineServer.requestCount == 0)
    }

    /// The synchronous entry point (an async context would pick the async overload).
    private static func verifiedSynchronously(_ jws: String, _ verifier: SignedDataVerifier) throws -> Bool {
        try verifier.verifyTransaction(jws).isVerified
    }

    @Test("online mode: the synchronous entry points refuse with onlineVerificationRequiresAsync")
    func synchronousRefused() throws {
        let verifier = try pki.verifier(options(CountingTransport()))
        #expect(throws: SignedDataDecodingError.self) { _ = try verifier.verifyTransaction(try pki.transaction(.good)) }
        do {
            _ = try verifier.verifyRenewalInfo("not even a JWS")
            Issue.record("expected a refusal")
        } catch {
            #expect(error.code == .onlineVerificationRequiresAsync)
        }
    }

    @Test("soft-fail: an unreachable responder verifies, and the skipped check is reported")
    func softFail() async throws {
        let skipped = SkippedChecks()
        let verifier = try pki.verifier(OCSPOptions(requestTimeout: Self.patientTimeout, overallDeadline: Self.patientTimeout * 2, softFail: true, onSkippedCheck: { skipped.add($0) }, transport: CountingTransport()))
        let result = try await verify(.down, verifier).get()
        #expect(result.isVerified)
        #expect(skipped.reasons == [.unreachable])
    }

    @Test("invalid OCSP options are a configuration error")
    func invalidOptions() throws {
        #expect(throws: VerifierConfigurationError.self) {
            try SignedDataVerifier(configuration: .init(revocation: .ocsp(OCSPOptions(requestTimeout: .zero))))
        }
    }
}

final class SkippedChecks: @unchecked Sendable {
    private let lock = NSLock()
    private var collected: [RevocationCheckUnavailable.Reason] = []
    func add(_ error: RevocationCheckUnavailable) { lock.withLock { collected.append(error.reason) } }
    var reasons: [RevocationCheckUnavailable.Reason] { lock.withLock { collected } }
}
