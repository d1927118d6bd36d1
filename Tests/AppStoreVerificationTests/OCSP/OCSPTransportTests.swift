import Foundation
import Testing
@testable import AppStoreVerification

/// What the verifier fetches and for how long: redirects, the URL scheme, the overall deadline.
/// Every case ends within a second or so, whatever the machine's load: the outcomes asserted do not
/// depend on timing.
@Suite("OCSP transport rules")
struct OCSPTransportTests {
    let pki: OCSPTestPKI

    init() async throws {
        pki = try await OCSPTestPKI.get()
    }

    @Test("a responder URL answering 302 to the real responder: not followed, RevocationCheckUnavailable, httpStatus", arguments: TransportUnderTest.allCases)
    func redirectNotFollowed(_ kind: TransportUnderTest) async throws {
        let outcome = try await pki.verify(.redirect, pki.verifier(OCSPTestPKI.options(CountingTransport(kind.make()))))
        // Followed, the response judged would be the real responder's (to a GET), not the 302.
        guard case .failure(let unavailable) = outcome else {
            Issue.record("expected unavailable, got \(outcome)")
            return
        }
        #expect(unavailable.code == .httpStatus)
        #expect(unavailable.message.contains("HTTP 302"), "\(unavailable.message)")
        #expect(unavailable.message.contains("redirects are not followed"), "\(unavailable.message)")
    }

    @Test("a certificate whose AIA names an https:// responder: never fetched, invalidCertificateChain")
    func httpsResponderNotFetched() async throws {
        let transport = CountingTransport()
        let result = try await pki.verify(.httpsAIA, pki.verifier(OCSPTestPKI.options(transport))).get()
        guard case .unverified(_, .invalidCertificateChain(let reason)) = result else {
            Issue.record("expected invalidCertificateChain, got \(result)")
            return
        }
        #expect(reason.contains("only http:// responders are asked"), "\(reason)")
        #expect(reason.contains(pki.responderURL(of: .httpsAIA)), "\(reason)")
        #expect(transport.count(pki.responderURL(of: .httpsAIA)) == 0)
        #expect(transport.total == transport.count(pki.rootResponderURL))  // only the intermediate was asked about
    }

    @Test("the overall deadline on its own (requests may take 120 s, the verification 0.3 s): RevocationCheckUnavailable, timedOut")
    func overallDeadline() async throws {
        var options = OCSPTestPKI.options(CountingTransport())
        options.requestTimeout = .seconds(120)
        options.overallDeadline = .milliseconds(300)
        // The server never answers and never hangs up: only the overall deadline ends the wait.
        let outcome = try await pki.verify(.deadline, pki.verifier(options))
        // The request itself, shared through the cache with any other verification, lives on until
        // its own timeout; stop the server so that it ends now (its thread and socket go at once;
        // through URLSession on Linux, a waiting request would also keep a thread busy).
        await pki.deadlineServer.stop()
        guard case .failure(let unavailable) = outcome else {
            Issue.record("expected unavailable, got \(outcome)")
            return
        }
        #expect(unavailable.code == .timedOut)
        #expect(unavailable.certificate == "the leaf and the intermediate")
        #expect(unavailable.message.contains("overall deadline"), "\(unavailable.message)")
    }
}
