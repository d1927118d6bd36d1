import AppStoreVerification
import AppStoreVerificationTesting
import Foundation
import Testing

/// TestOCSPResponder with the library's online verifier, as a user's test runs them: a responder on
/// 127.0.0.1, a PKI naming it, minted data, an `OnlineSignedDataVerifier`. Each test starts its own responder and
/// stops it, whatever happens. A PKI costs three RSA keys: the tests share one per responder and
/// make a new leaf (`variant(.valid)`, one P-256 key) where a check needs a certificate of its own,
/// and run one at a time so that they do not hold both cooperative threads with key generation.
@Suite(.serialized) struct TestOCSPResponderTests {
    /// A started responder, a PKI it serves, a minter and an online verifier trusting the PKI.
    struct World {
        let responder: TestOCSPResponder
        let pki: TestPKI
        let minter: SignedDataMinter
        let verifier: OnlineSignedDataVerifier

        /// Generous deadlines: the whole suite runs on two loaded cores, where a check that waits for
        /// a thread can take seconds; a responder that does not answer is closed at once, not waited
        /// for.
        static let options = OCSPOptions(requestTimeout: .seconds(60), overallDeadline: .seconds(120))

        /// Runs `body` with a new world, and stops its responder afterwards.
        static func with(answerValidity: Duration? = .seconds(3600), options: OCSPOptions = World.options,
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

    @Test func goodAnswersAreCachedAndTheCertificatesNameTheResponder() async throws {
        try await World.with { world in
            #expect(world.pki.ocspResponder == world.responder.url)
            #expect(world.responder.url.absoluteString == "http://127.0.0.1:\(world.responder.port)/ocsp")
            let result = try await world.verifier.verifyTransaction(try world.transaction())
            #expect(result.isVerified, "\(String(describing: result.verificationError))")
            #expect(world.responder.requestCount(for: world.pki.chain.leaf) == 1)
            #expect(world.responder.requestCount(for: world.pki.chain.intermediate) == 1)
            #expect(world.responder.requestCount == 2)
            // Cached until nextUpdate: a second verification asks nothing.
            _ = try await world.verifier.verifyTransaction(try world.transaction("2"))
            #expect(world.responder.requestCount == 2)

            // A variant names the same responder, with a leaf of its own.
            let variant = try world.pki.variant(.valid)
            #expect(variant.ocspResponder == world.responder.url)
            #expect(variant.chain.leaf != world.pki.chain.leaf)

            // Written and read back, the PKI names it too, and so do its variants.
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("ocsp-pki-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: directory) }
            try world.pki.write(to: directory)
            let read = try TestPKI(contentsOf: directory)
            #expect(read.ocspResponder == world.responder.url)
            let leaf = try read.variant(.valid)
            let fromDirectory = try await world.verifier.verifyTransaction(try world.transaction("3", minter: SignedDataMinter(pki: leaf)))
            #expect(fromDirectory.isVerified, "\(String(describing: fromDirectory.verificationError))")
            #expect(world.responder.requestCount(for: leaf.chain.leaf) == 1)
        }
    }

    @Test func revokedAndUnknownAnswersAreVerdicts() async throws {
        try await World.with { world in
            // A revoked leaf: the verdict revokedCertificate; another leaf is unaffected.
            let revokedLeaf = try world.pki.variant(.valid)
            world.responder.setAnswer(.revoked(at: Date(timeIntervalSinceNow: -86_400), reason: 1), for: revokedLeaf.chain.leaf)
            let revoked = try await world.verifier.verifyTransaction(try world.transaction("1", minter: SignedDataMinter(pki: revokedLeaf)))
            guard case .unverified(let transaction, .revokedCertificate(let reason)) = revoked else {
                Issue.record("expected a revoked verdict, got \(revoked)")
                return
            }
            #expect(transaction.transactionId == "1")
            #expect(!reason.isEmpty)
            let good = try await world.verifier.verifyTransaction(try world.transaction("2"))
            #expect(good.isVerified, "\(String(describing: good.verificationError))")

            // An unknown leaf: the chain is refused.
            let unknownLeaf = try world.pki.variant(.valid)
            world.responder.setAnswer(.unknown, for: unknownLeaf.chain.leaf)
            let unknown = try await world.verifier.verifyTransaction(try world.transaction("3", minter: SignedDataMinter(pki: unknownLeaf)))
            #expect(unknown.verificationError?.code == .invalidCertificateChain, "\(unknown)")

            // A revoked intermediate revokes every leaf under it (a new verifier: the intermediate's
            // good answer is cached in this one).
            world.responder.setAnswer(.revoked(at: Date(timeIntervalSinceNow: -60)), for: world.pki.chain.intermediate)
            let fresh = try OnlineSignedDataVerifier(configuration: world.verifier.configuration, revocation: world.verifier.revocation)
            for jws in [try world.transaction("4"), try world.transaction("5", minter: SignedDataMinter(pki: world.pki.variant(.valid)))] {
                let result = try await fresh.verifyTransaction(jws)
                #expect(result.verificationError?.code == .revokedCertificate, "\(result)")
            }
        }
    }

    @Test func anUnavailableResponderMakesTheCheckUnavailableAndIsNotCached() async throws {
        try await World.with { world in
            for answer in [TestOCSPResponder.Answer.noAnswer, .httpError(status: 500), .httpError(status: 503)] {
                let leaf = try world.pki.variant(.valid)
                let minter = try SignedDataMinter(pki: leaf)
                world.responder.setAnswer(answer, for: leaf.chain.leaf)
                let jws = try world.transaction("1", minter: minter)
                do throws(OnlineVerificationError) {
                    let result = try await world.verifier.verifyTransaction(jws)
                    Issue.record("\(answer): expected no verdict, got \(result)")
                } catch {
                    #expect(error.isRetryable, "\(answer): \(error)")
                    #expect(error.code == .revocationCheckUnavailable, "\(answer)")
                }
                // Answered again: the failure was not cached.
                world.responder.setAnswer(.good, for: leaf.chain.leaf)
                let result = try await world.verifier.verifyTransaction(jws)
                #expect(result.isVerified, "\(answer): \(String(describing: result.verificationError))")
            }
        }
    }

    @Test func notificationsAndAppReceiptsAreCheckedOnline() async throws {
        try await World.with { world in
            let body = try world.minter.notificationBody(ResponseBodyV2DecodedPayload(notificationType: .didRenew),
                                                         transaction: Transaction(transactionId: "5", productId: "com.example.pro"),
                                                         renewalInfo: RenewalInfo(originalTransactionId: "5", productId: "com.example.pro"))
            let notification = try await world.verifier.verifyNotification(body)
            #expect(notification.isVerified, "\(String(describing: notification.verificationError))")

            let receipt = try world.minter.appReceipt(AppReceipt(inApp: [InAppPurchaseReceipt(productId: "com.example.pro", transactionId: "9")]))
            let good = try await world.verifier.verifyAppReceipt(receipt)
            #expect(good.isVerified, "\(String(describing: good.verificationError))")
            #expect(world.responder.requestCount(for: world.pki.receiptChain.leaf) == 1)
            #expect(world.responder.requestCount(for: world.pki.receiptChain.intermediate) == 1)

            // Revoked after the answers were cached: a new verifier sees it.
            world.responder.setAnswer(.revoked(at: Date(timeIntervalSinceNow: -60)), for: world.pki.chain.leaf)
            world.responder.setAnswer(.revoked(at: Date(timeIntervalSinceNow: -60)), for: world.pki.receiptChain.intermediate)
            let fresh = try OnlineSignedDataVerifier(configuration: world.verifier.configuration, revocation: world.verifier.revocation)
            let revokedNotification = try await fresh.verifyNotification(body)
            #expect(revokedNotification.verificationError?.code == .revokedCertificate, "\(revokedNotification)")
            let revokedReceipt = try await fresh.verifyAppReceipt(receipt)
            #expect(revokedReceipt.verificationError?.code == .revokedCertificate, "\(revokedReceipt)")
            // The JWS chain's intermediate has the receipt intermediate's serial; its answer is its own.
            let transaction = try await fresh.verifyTransaction(try world.transaction("6", minter: SignedDataMinter(pki: world.pki.variant(.valid))))
            #expect(transaction.isVerified, "\(String(describing: transaction.verificationError))")
        }
    }

    @Test func answersWithoutNextUpdateAreNotCached() async throws {
        try await World.with(answerValidity: nil) { world in
            _ = try await world.verifier.verifyTransaction(try world.transaction())
            world.responder.setAnswer(.revoked(at: Date(timeIntervalSinceNow: -60)), for: world.pki.chain.leaf)
            let result = try await world.verifier.verifyTransaction(try world.transaction())
            #expect(result.verificationError?.code == .revokedCertificate, "\(result)")
            #expect(world.responder.requestCount(for: world.pki.chain.leaf) == 2)

            // Stopped, it answers nothing: unavailable. Stopping twice is harmless.
            await world.responder.stop()
            await world.responder.stop()
            let jws = try world.transaction("7")
            do throws(OnlineVerificationError) {
                let stopped = try await world.verifier.verifyTransaction(jws)
                Issue.record("a verdict with the responder stopped: \(stopped)")
            } catch {
                #expect(error.code == .revocationCheckUnavailable, "\(error)")
            }
        }
    }

    @Test func requestsItCannotAnswerGetOCSPErrors() async throws {
        try await World.with { world in
            let transport = SocketOCSPTransport.shared
            // Not an OCSP request: an unsigned malformedRequest response (OCSPResponseStatus 1).
            let garbage = try await transport.post(Data("not DER".utf8), to: world.responder.url, timeout: .seconds(60), maximumResponseLength: 65_536)
            #expect(garbage.statusCode == 200)
            #expect(Array(garbage.body) == [0x30, 0x03, 0x0A, 0x01, 0x01])
            // A certificate of a CA it does not serve: unauthorized (6); asked through a verifier
            // trusting another PKI that names this responder.
            let stranger = try TestPKI(ocspResponder: world.responder.url)
            let verifier = try OnlineSignedDataVerifier(configuration: stranger.verifierConfiguration(), revocation: World.options)
            let jws = try SignedDataMinter(pki: stranger).transaction(Transaction(transactionId: "1", productId: "p"))
            do throws(OnlineVerificationError) {
                let result = try await verifier.verifyTransaction(jws)
                Issue.record("a verdict from a responder that does not serve the CA: \(result)")
            } catch {
                #expect(error.code == .revocationCheckUnavailable)
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
}
