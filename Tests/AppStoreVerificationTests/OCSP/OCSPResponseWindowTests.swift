import Foundation
import Testing
@testable import AppStoreVerification
import AppStoreVerificationTesting

/// When a real `openssl ocsp` answer is believed: thisUpdate not in the future, and, for an answer
/// without nextUpdate, not older than maximumCacheAge (both within the clock skew). The verifier's
/// clock is set (`SignedDataVerifier.Configuration.clock`, a `ManualClock`); the PKI's certificates are valid from a day earlier, so only
/// the answer's own times decide.
@Suite("OCSP response validity window against a real responder")
struct OCSPResponseWindowTests {
    let pki: OCSPTestPKI

    init() async throws {
        pki = try await OCSPTestPKI.get()
    }

    @Test("future response: thisUpdate later than now + clockSkew is invalidCertificateChain")
    func futureResponse() async throws {
        let clock = ManualClock(date: Date(timeIntervalSinceNow: -600))  // the verifier's now is ten minutes before the responder's
        let result = try await pki.verify(.good, pki.verifier(OCSPTestPKI.options(CountingTransport()), clock: .manual(clock))).get()
        guard case .unverified(_, .invalidCertificateChain(let reason)) = result else {
            Issue.record("expected invalidCertificateChain, got \(result)")
            return
        }
        #expect(reason.contains("issued in the future"), "\(reason)")
        #expect(reason.contains("leaf (x5c[0]"), "\(reason)")
    }

    @Test("no nextUpdate, fresh: verified, and not cached (the next verification asks again)")
    func noNextUpdateFresh() async throws {
        let transport = CountingTransport()
        let verifier = try pki.verifier(OCSPTestPKI.options(transport))
        for asked in 1...2 {
            let result = try await pki.verify(.noNextUpdate, verifier).get()
            #expect(result.isVerified, "\(String(describing: result.verificationError))")
            #expect(transport.count(pki.responderURL(of: .noNextUpdate)) == asked)
        }
    }

    @Test("no nextUpdate, judged after thisUpdate + maximumCacheAge + clockSkew: stale, invalidCertificateChain")
    func noNextUpdateStale() async throws {
        let clock = ManualClock(date: Date(timeIntervalSinceNow: 60 + 300 + 30))
        var options = OCSPTestPKI.options(CountingTransport())
        options.maximumCacheAge = .seconds(60)
        options.clockSkew = .seconds(300)
        let result = try await pki.verify(.noNextUpdate, pki.verifier(options, clock: .manual(clock))).get()
        guard case .unverified(_, .invalidCertificateChain(let reason)) = result else {
            Issue.record("expected invalidCertificateChain, got \(result)")
            return
        }
        #expect(reason.contains("stale"), "\(reason)")
        #expect(reason.contains("has no nextUpdate"), "\(reason)")
    }
}
