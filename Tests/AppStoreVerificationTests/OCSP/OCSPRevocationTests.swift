import Foundation
import Testing
@testable import AppStoreVerification
import AppStoreVerificationTesting

/// Online verification against real `openssl ocsp` responders and loopback servers (127.0.0.1 only),
/// with a PKI minted at test time: see OCSPTestPKI.
@Suite("OCSP revocation checks against a real responder")
struct OCSPRevocationTests {
    let pki: OCSPTestPKI

    init() async throws {
        pki = try await OCSPTestPKI.get()
    }

    private func options(_ transport: CountingTransport, timeout: Duration = OCSPTestPKI.patientTimeout) -> OCSPOptions {
        OCSPTestPKI.options(transport, timeout: timeout)
    }

    private func verify(_ leaf: OCSPTestPKI.Leaf, _ verifier: OnlineSignedDataVerifier) async throws -> Result<VerificationResult<Transaction>, RevocationCheckUnavailable> {
        try await pki.verify(leaf, verifier)
    }

    @Test("good leaf and intermediate: verified, one request to each responder", arguments: TransportUnderTest.allCases)
    func good(_ kind: TransportUnderTest) async throws {
        let transport = CountingTransport(kind.make())
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
        #expect(result.verificationError?.code == .invalidCertificateChain)
        #expect(result.verificationError?.message.contains("\"unknown\"") == true)
    }

    @Test("responder down (connection refused): RevocationCheckUnavailable, unreachable")
    func responderDown() async throws {
        let outcome = try await verify(.down, pki.verifier(options(CountingTransport())))
        guard case .failure(let unavailable) = outcome else {
            Issue.record("expected unavailable, got \(outcome)")
            return
        }
        #expect(unavailable.code == .unreachable)
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
        #expect(unavailable.code == .timedOut)
    }

    @Test("a verification cancelled while a responder is silent: RevocationCheckUnavailable, cancelled (not timedOut)", .timeLimit(.minutes(1)))
    func cancelledWhileWaiting() async throws {
        let transport = CountingTransport()
        let verifier = try pki.verifier(options(transport))
        let pki = self.pki
        let verification = Task { try await pki.verify(.silent, verifier) }
        // Cancelled once the request to the silent responder is under way: the transport has been
        // asked for it (the event, not a fixed wait).
        let silent = pki.responderURL(of: .silent)
        await transport.firstRequest(to: silent)
        #expect(transport.count(silent) == 1)
        verification.cancel()
        let outcome = try await verification.value
        guard case .failure(let unavailable) = outcome else {
            Issue.record("expected unavailable, got \(outcome)")
            return
        }
        #expect(unavailable.code == .cancelled, "\(unavailable)")
    }

    @Test("response signed by an unrelated key: unverified, invalidCertificateChain")
    func unrelatedSigner() async throws {
        let result = try await verify(.unrelated, pki.verifier(options(CountingTransport()))).get()
        #expect(result.verificationError?.code == .invalidCertificateChain)
        #expect(result.verificationError?.message.contains("not signed by its issuer") == true)
    }

    @Test("a genuine response about another serial: unverified, invalidCertificateChain")
    func otherSerial() async throws {
        let result = try await verify(.otherSerial, pki.verifier(options(CountingTransport()))).get()
        #expect(result.verificationError?.code == .invalidCertificateChain)
        #expect(result.verificationError?.message.contains("does not answer for") == true)
    }

    @Test("stale response (nextUpdate one minute after thisUpdate, judged ten minutes later): invalidCertificateChain")
    func staleResponse() async throws {
        let clock = ManualClock(date: Date(timeIntervalSinceNow: 600))
        let result = try await verify(.expiring, pki.verifier(options(CountingTransport()), clock: .manual(clock))).get()
        #expect(result.verificationError?.code == .invalidCertificateChain)
        #expect(result.verificationError?.message.contains("stale") == true)
    }

    @Test("HTTP 500: RevocationCheckUnavailable, httpStatus")
    func http500() async throws {
        let outcome = try await verify(.http500, pki.verifier(options(CountingTransport())))
        guard case .failure(let unavailable) = outcome else {
            Issue.record("expected unavailable, got \(outcome)")
            return
        }
        #expect(unavailable.code == .httpStatus)
        #expect(unavailable.message.contains("500"))
    }

    @Test("garbage body: RevocationCheckUnavailable, invalidResponse")
    func garbageBody() async throws {
        let outcome = try await verify(.garbage, pki.verifier(options(CountingTransport())))
        guard case .failure(let unavailable) = outcome else {
            Issue.record("expected unavailable, got \(outcome)")
            return
        }
        #expect(unavailable.code == .invalidResponse)
    }

    @Test("very large body (4 MiB): cut off at the limit, RevocationCheckUnavailable, responseTooLarge", arguments: TransportUnderTest.allCases)
    func largeBody(_ kind: TransportUnderTest) async throws {
        let outcome = try await verify(.large, pki.verifier(options(CountingTransport(kind.make()))))
        guard case .failure(let unavailable) = outcome else {
            Issue.record("expected unavailable, got \(outcome)")
            return
        }
        #expect(unavailable.code == .responseTooLarge)
    }

    @Test("a body shorter than its Content-Length (default transport): RevocationCheckUnavailable, invalidResponse, saying so")
    func truncatedHTTPResponse() async throws {
        let outcome = try await verify(.truncatedHTTP, pki.verifier(options(CountingTransport())))
        guard case .failure(let unavailable) = outcome else {
            Issue.record("expected unavailable, got \(outcome)")
            return
        }
        #if canImport(FoundationNetworking)
        #expect(unavailable.code == .invalidResponse)
        #expect(unavailable.message.contains("sent no acceptable HTTP response about the leaf"), "\(unavailable.message)")
        #expect(unavailable.message.contains("incomplete"), "\(unavailable.message)")
        #expect(unavailable.message.contains("5 of the 1000 body bytes"), "\(unavailable.message)")
        #endif
    }

    @Test("the offline verifier sends no request")
    func offlineSendsNothing() throws {
        let verifier = try SignedDataVerifier(configuration: .init(
            trustedRoots: [try TrustedRoot(derEncoded: pki.rootDER)], bundleId: "com.example.app", environment: .sandbox,
            effectiveDate: .now))  // the re-signed vector's signedDate predates the freshly minted certificates
        let jws = try pki.transaction(.offline)
        #expect(try Self.verifiedSynchronously(jws, verifier))
        #expect(pki.offlineServer.requestCount == 0)
    }

    /// The synchronous entry point, called from a synchronous function.
    private static func verifiedSynchronously(_ jws: String, _ verifier: SignedDataVerifier) throws -> Bool {
        try verifier.verifyTransaction(jws).isVerified
    }

    @Test("the online verifier asks the responder the leaf names: the offline one's verdict, then revocation")
    func onlineAsksTheResponder() async throws {
        let verifier = try pki.verifier(options(CountingTransport()))
        #expect(try await verifier.verifyTransaction(try pki.transaction(.good)).isVerified)
        await #expect(throws: OnlineVerificationError.self) { _ = try await verifier.verifyRenewalInfo("not even a JWS") }
    }

    @Test("soft-fail: an unreachable responder verifies, and the skipped check is reported")
    func softFail() async throws {
        let skipped = SkippedChecks()
        let verifier = try pki.verifier(OCSPOptions(requestTimeout: OCSPTestPKI.patientTimeout, overallDeadline: OCSPTestPKI.patientTimeout * 2, softFail: true, onSkippedCheck: { skipped.add($0) }, transport: CountingTransport()))
        let result = try await verify(.down, verifier).get()
        #expect(result.isVerified)
        #expect(skipped.reasons == [.unreachable])
    }

    @Test("invalid OCSP options are a configuration error")
    func invalidOptions() throws {
        #expect(throws: VerifierConfigurationError.self) {
            try OnlineSignedDataVerifier(revocation: OCSPOptions(requestTimeout: .zero))
        }
    }
}

final class SkippedChecks: @unchecked Sendable {
    private let lock = NSLock()
    private var collected: [RevocationCheckUnavailable.Code] = []
    func add(_ error: RevocationCheckUnavailable) { lock.withLock { collected.append(error.code) } }
    var reasons: [RevocationCheckUnavailable.Code] { lock.withLock { collected } }
}
