import AppStoreVerification
import AppStoreVerificationTesting
import Foundation
import Testing

/// TestOCSPResponder with the library's online verifier, as a user's test runs them: a responder on
/// 127.0.0.1, a PKI naming it, minted data, an `OnlineSignedDataVerifier`. Each test starts its own responder and
/// stops it, whatever happens.
@Suite struct TestOCSPResponderTests {
    /// A started responder, a PKI it serves, a minter and an online verifier trusting the PKI.
    struct World {
        let responder: TestOCSPResponder
        let pki: TestPKI
        let minter: SignedDataMinter
        let verifier: OnlineSignedDataVerifier

        /// Runs `body` with a new world, and stops its responder afterwards.
        /// Generous time limits: `swift test` runs every suite of the package in one process, in
        /// parallel on Swift's cooperative pool (two threads on a two-core machine); CPU-bound suites
        /// can hold both threads long enough that a 10 s deadline would measure them, not the responder.
        static let patientOptions = OCSPOptions(requestTimeout: .seconds(60), overallDeadline: .seconds(120))

        static func with(answerValidity: Duration? = .seconds(3600), options: OCSPOptions = patientOptions,
                         _ body: (World) async throws -> Void) async throws {
            let responder = try await TestOCSPResponder.start(answerValidity: answerValidity)
            do {
                let pki = try responder.makePKI()
                let world = World(responder: responder, pki: pki, minter: try SignedDataMinter(pki: pki),
                                  verifier: try OnlineSignedDataVerifier(configuration: pki.verifierConfiguration(), revocation: options))
                try await body(world)
            } catch {
                await responder.stop()
                throw error
            }
            await responder.stop()
        }

        func transaction(_ id: String = "1", minter: SignedDataMinter? = nil) throws -> String {
            try (minter ?? self.minter).transaction(Transaction(transactionId: id, productId: "com.example.pro"))
        }
    }

    @Test func aGoodAnswerVerifiesAndTheResponderWasAskedAboutBothCertificates() async throws {
        try await World.with { world in
            let result = try await world.verifier.verifyTransaction(try world.transaction())
            #expect(result.isVerified, "\(String(describing: result.verificationError))")
            #expect(world.responder.requestCount(for: world.pki.chain.leaf) == 1)
            #expect(world.responder.requestCount(for: world.pki.chain.intermediate) == 1)
            #expect(world.responder.requestCount == 2)
            // Cached until nextUpdate: a second verification asks nothing.
            _ = try await world.verifier.verifyTransaction(try world.transaction("2"))
            #expect(world.responder.requestCount == 2)
        }
    }

    @Test func theCertificatesNameTheResponder() async throws {
        try await World.with { world in
            #expect(world.pki.ocspResponder == world.responder.url)
            #expect(world.responder.url.absoluteString == "http://127.0.0.1:\(world.responder.port)/ocsp")
            let variant = try world.pki.variant(.valid)
            #expect(variant.ocspResponder == world.responder.url)
            #expect(variant.chain.leaf != world.pki.chain.leaf)
        }
    }

    @Test func aRevokedLeafIsARevokedVerdict() async throws {
        try await World.with { world in
            world.responder.setAnswer(.revoked(at: Date(timeIntervalSinceNow: -86_400), reason: 1), for: world.pki.chain.leaf)
            let result = try await world.verifier.verifyTransaction(try world.transaction())
            guard case .unverified(let transaction, .revokedCertificate(let reason)) = result else {
                Issue.record("expected a revoked verdict, got \(result)")
                return
            }
            #expect(transaction.transactionId == "1")
            #expect(!reason.isEmpty)
        }
    }

    @Test func aRevokedIntermediateRevokesEveryLeafUnderIt() async throws {
        try await World.with { world in
            world.responder.setAnswer(.revoked(at: Date(timeIntervalSinceNow: -60)), for: world.pki.chain.intermediate)
            let other = try SignedDataMinter(pki: world.pki.variant(.valid))
            for jws in [try world.transaction(), try world.transaction("2", minter: other)] {
                let result = try await world.verifier.verifyTransaction(jws)
                #expect(result.verificationError?.code == "revokedCertificate", "\(result)")
            }
        }
    }

    @Test func anUnknownAnswerRefusesTheChain() async throws {
        try await World.with { world in
            world.responder.setAnswer(.unknown, for: world.pki.chain.leaf)
            let result = try await world.verifier.verifyTransaction(try world.transaction())
            #expect(result.verificationError?.code == "invalidCertificateChain", "\(result)")
        }
    }

    @Test(arguments: [TestOCSPResponder.Answer.noAnswer, .httpError(status: 500), .httpError(status: 503)])
    func anUnavailableResponderMakesTheCheckUnavailable(_ answer: TestOCSPResponder.Answer) async throws {
        try await World.with { world in
            world.responder.setAnswer(answer, for: world.pki.chain.leaf)
            let jws = try world.transaction()
            do throws(OnlineVerificationError) {
                let result = try await world.verifier.verifyTransaction(jws)
                Issue.record("expected no verdict, got \(result)")
            } catch {
                #expect(error.isRetryable, "\(error)")
                #expect(error.code == "revocationCheckUnavailable")
            }
            // Answered again: the failure was not cached.
            world.responder.setAnswer(.good, for: world.pki.chain.leaf)
            let result = try await world.verifier.verifyTransaction(try world.transaction())
            #expect(result.isVerified, "\(String(describing: result.verificationError))")
        }
    }

    @Test func eachLeafHasItsOwnAnswer() async throws {
        try await World.with { world in
            let revokedPKI = try world.pki.variant(.valid)
            world.responder.setAnswer(.revoked(at: Date(timeIntervalSinceNow: -60)), for: revokedPKI.chain.leaf)
            let good = try await world.verifier.verifyTransaction(try world.transaction())
            let revoked = try await world.verifier.verifyTransaction(try world.transaction("2", minter: SignedDataMinter(pki: revokedPKI)))
            #expect(good.isVerified)
            #expect(revoked.verificationError?.code == "revokedCertificate")
        }
    }

    @Test func notificationsAndTheirNestedDataAreCheckedOnline() async throws {
        try await World.with { world in
            let body = try world.minter.notificationBody(ResponseBodyV2DecodedPayload(notificationType: .didRenew),
                                                         transaction: Transaction(transactionId: "5", productId: "com.example.pro"),
                                                         renewalInfo: RenewalInfo(originalTransactionId: "5", productId: "com.example.pro"))
            let result = try await world.verifier.verifyNotification(body)
            #expect(result.isVerified, "\(String(describing: result.verificationError))")
            world.responder.setAnswer(.revoked(at: Date(timeIntervalSinceNow: -60)), for: world.pki.chain.leaf)
            let fresh = try OnlineSignedDataVerifier(configuration: world.verifier.configuration, revocation: world.verifier.revocation)
            let revoked = try await fresh.verifyNotification(body)
            #expect(revoked.verificationError?.code == "revokedCertificate", "\(revoked)")
        }
    }

    @Test func appReceiptsAreCheckedUnderTheirRSAChain() async throws {
        try await World.with { world in
            let receipt = try world.minter.appReceipt(AppReceipt(inApp: [InAppPurchaseReceipt(productId: "com.example.pro", transactionId: "9")]))
            let good = try await world.verifier.verifyAppReceipt(receipt)
            #expect(good.isVerified, "\(String(describing: good.verificationError))")
            #expect(world.responder.requestCount(for: world.pki.receiptChain.leaf) == 1)
            #expect(world.responder.requestCount(for: world.pki.receiptChain.intermediate) == 1)
            world.responder.setAnswer(.revoked(at: Date(timeIntervalSinceNow: -60)), for: world.pki.receiptChain.intermediate)
            let fresh = try OnlineSignedDataVerifier(configuration: world.verifier.configuration, revocation: world.verifier.revocation)
            let revoked = try await fresh.verifyAppReceipt(receipt)
            #expect(revoked.verificationError?.code == "revokedCertificate", "\(revoked)")
            // The JWS chain's intermediate has the same serial; its answer is its own.
            let transaction = try await fresh.verifyTransaction(try world.transaction())
            #expect(transaction.isVerified, "\(String(describing: transaction.verificationError))")
        }
    }

    @Test func answersWithoutNextUpdateAreNotCached() async throws {
        try await World.with(answerValidity: nil) { world in
            _ = try await world.verifier.verifyTransaction(try world.transaction())
            world.responder.setAnswer(.revoked(at: Date(timeIntervalSinceNow: -60)), for: world.pki.chain.leaf)
            let result = try await world.verifier.verifyTransaction(try world.transaction())
            #expect(result.verificationError?.code == "revokedCertificate", "\(result)")
            #expect(world.responder.requestCount(for: world.pki.chain.leaf) == 2)
        }
    }

    @Test func aStoppedResponderIsUnavailable() async throws {
        try await World.with { world in
            await world.responder.stop()
            await world.responder.stop()
            let jws = try world.transaction()
            do throws(OnlineVerificationError) {
                let result = try await world.verifier.verifyTransaction(jws)
                Issue.record("a verdict with the responder stopped: \(result)")
            } catch {
                #expect(error.code == "revocationCheckUnavailable", "\(error)")
            }
        }
    }

    @Test func requestsItCannotAnswerGetOCSPErrorsOrHTTPErrors() async throws {
        try await World.with { world in
            let transport = SocketOCSPTransport.shared
            // Not an OCSP request: an unsigned malformedRequest response (OCSPResponseStatus 1).
            let garbage = try await transport.post(Data("not DER".utf8), to: world.responder.url, timeout: .seconds(10), maximumResponseLength: 65_536)
            #expect(garbage.statusCode == 200)
            #expect(Array(garbage.body) == [0x30, 0x03, 0x0A, 0x01, 0x01])
            // A certificate of a CA it does not serve: unauthorized (6); asked through a verifier
            // trusting another PKI that names this responder.
            let stranger = try TestPKI(ocspResponder: world.responder.url)
            let verifier = try OnlineSignedDataVerifier(configuration: stranger.verifierConfiguration())
            let jws = try SignedDataMinter(pki: stranger).transaction(Transaction(transactionId: "1", productId: "p"))
            do throws(OnlineVerificationError) {
                let result = try await verifier.verifyTransaction(jws)
                Issue.record("a verdict from a responder that does not serve the CA: \(result)")
            } catch {
                #expect(error.code == "revocationCheckUnavailable")
                #expect(error.description.contains("unauthorized (OCSPResponseStatus 6)"), "\(error)")
            }
            #expect(world.responder.requestCount >= 2)
        }
    }

    @Test func aResponderURLACertificateCannotCarryIsRefused() throws {
        for text in ["ftp://127.0.0.1/ocsp", "http:///ocsp", "http://127.0.0.1/a,b"] {
            let url = try #require(URL(string: text))
            #expect(throws: AppStoreTestingError.self) { _ = try TestPKI(ocspResponder: url) }
        }
    }

    @Test func aPKIDirectoryKeepsItsResponder() async throws {
        try await World.with { world in
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("ocsp-pki-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: directory) }
            try world.pki.write(to: directory)
            let read = try TestPKI(contentsOf: directory)
            #expect(read.ocspResponder == world.responder.url)
            let leaf = try read.variant(.valid)
            let result = try await world.verifier.verifyTransaction(try SignedDataMinter(pki: leaf).transaction(Transaction(transactionId: "3", productId: "p")))
            #expect(result.isVerified, "\(String(describing: result.verificationError))")
            #expect(world.responder.requestCount(for: leaf.chain.leaf) == 1)
        }
    }
}
