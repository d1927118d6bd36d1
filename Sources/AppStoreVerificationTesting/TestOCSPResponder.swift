import Foundation

/// An OCSP responder (RFC 6960) on 127.0.0.1 for tests of online verification: it answers, for each
/// certificate, what the test set (``Answer``: good, revoked, unknown, or unavailable), in responses
/// signed by the key of the CA that issued the certificate, as Apple's responders sign theirs.
///
/// Start one, make a PKI whose certificates name it, mint with that PKI, and verify with a verifier
/// in online mode trusting it:
///
/// ```swift
/// let responder = try await TestOCSPResponder.start()
/// let pki = try responder.makePKI()
/// let minter = try SignedDataMinter(pki: pki)
/// let verifier = try OnlineSignedDataVerifier(configuration: pki.verifierConfiguration())
///
/// responder.setAnswer(.revoked(at: Date()), for: pki.chain.leaf)
/// let result = try await verifier.verifyTransaction(try minter.transaction(Transaction(transactionId: "1", productId: "p")))
/// // result is .unverified(transaction, .revokedCertificate(...))
/// await responder.stop()
/// ```
///
/// It listens on a port the kernel chose (``url``), reads each request (`POST`, one request per
/// connection), matches each certificate asked about to the CAs it serves by the request's CertID
/// (the issuer's name and key hashes, under whatever hash algorithm the request uses, and the
/// serial number), echoes the request's nonce, and signs with SHA-256. A request about a
/// certificate none of its CAs issued is answered `unauthorized`, one that does not decode
/// `malformedRequest`, as real responders answer. Responses carry a thisUpdate a minute in the past
/// and a nextUpdate ``answerValidity`` later; a verifier caches an answer until then (at most its
/// `OCSPOptions.maximumCacheAge`), so set a certificate's answer before the verifier first asks
/// about it, or verify with `OCSPOptions(maximumCacheAge: .zero)`, or use a new leaf
/// (`pki.variant(.valid)` makes one under the same CAs).
///
/// Everything it runs (a listening thread, a thread per open connection) ends with ``stop()``; call
/// it at the end of each test. It is safe to use from any task.
public final class TestOCSPResponder: Sendable {
    /// The responder's URL, `http://127.0.0.1:PORT/ocsp`: what certificates name in their Authority
    /// Information Access extension.
    public let url: URL
    /// The port it listens on, on 127.0.0.1.
    public let port: UInt16
    /// How long each answer is valid (its nextUpdate after its thisUpdate); `nil` for answers without
    /// nextUpdate, which verifiers do not cache.
    public let answerValidity: Duration?

    private let state: TestOCSPResponderState
    private let server: LoopbackHTTPServer

    private init(server: LoopbackHTTPServer, state: TestOCSPResponderState, answerValidity: Duration?) {
        self.server = server
        self.state = state
        self.port = server.port
        self.answerValidity = answerValidity
        // A literal URL with a numeric port always parses.
        self.url = URL(string: "http://127.0.0.1:\(server.port)/ocsp") ?? URL(fileURLWithPath: "/")
    }

    /// Starts a responder on 127.0.0.1, on a free port.
    ///
    /// - Parameters:
    ///   - answerValidity: How long each answer is valid; one hour by default. `nil` sends answers
    ///     without nextUpdate (a verifier accepts them for its `maximumCacheAge` and never caches
    ///     them).
    ///   - defaultAnswer: The answer for certificates no ``setAnswer(_:for:)`` named; ``Answer/good``
    ///     by default.
    /// - Throws: ``AppStoreTestingError`` (`socketFailure`) when no socket can listen on 127.0.0.1;
    ///   `invalidArgument` for an answer validity that is not positive.
    public static func start(answerValidity: Duration? = .seconds(3600), defaultAnswer: Answer = .good) async throws(AppStoreTestingError) -> TestOCSPResponder {
        if let answerValidity, answerValidity <= .zero {
            throw AppStoreTestingError(.invalidArgument, "answerValidity must be positive (or nil for answers without nextUpdate)")
        }
        let state = TestOCSPResponderState(defaultAnswer: defaultAnswer, answerValidity: answerValidity)
        let server = try LoopbackHTTPServer.start(maximumBodyLength: 65_536) { request in state.reply(to: request) }
        return TestOCSPResponder(server: server, state: state, answerValidity: answerValidity)
    }

    /// Runs `body` with a started responder, and stops the responder when `body` returns or throws.
    ///
    /// ```swift
    /// try await TestOCSPResponder.withResponder { responder in
    ///     let pki = try responder.makePKI()
    ///     // mint, verify, set answers ...
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - answerValidity: See ``start(answerValidity:defaultAnswer:)``.
    ///   - defaultAnswer: See ``start(answerValidity:defaultAnswer:)``.
    ///   - isolation: The caller's actor, inherited (leave the default): `body` runs there.
    ///   - body: The test.
    /// - Returns: What `body` returns.
    /// - Throws: What `body` throws, or ``AppStoreTestingError`` when the responder cannot start.
    public static func withResponder<Result>(answerValidity: Duration? = .seconds(3600), defaultAnswer: Answer = .good,
                                             isolation: isolated (any Actor)? = #isolation,
                                             _ body: (TestOCSPResponder) async throws -> Result) async throws -> Result {
        let responder = try await start(answerValidity: answerValidity, defaultAnswer: defaultAnswer)
        do {
            let result = try await body(responder)
            await responder.stop()
            return result
        } catch {
            await responder.stop()
            throw error
        }
    }

    /// Stops the responder: it stops listening, closes open connections, and returns once all its
    /// threads have ended. Verifications asking it afterwards find no responder (unavailable).
    public func stop() async {
        await server.stop()
    }

    /// Makes a new ``TestPKI`` whose intermediates and leaves name this responder, and serves it
    /// (``serve(_:)``).
    ///
    /// - Parameter variant: What is wrong with its chains; ``TestPKI/Variant/valid`` by default.
    /// - Throws: ``AppStoreTestingError`` when OpenSSL fails.
    public func makePKI(_ variant: TestPKI.Variant = .valid) throws(AppStoreTestingError) -> TestPKI {
        let pki = try TestPKI(variant, ocspResponder: url)
        try serve(pki)
        return pki
    }

    /// Answers for the certificates `pki`'s CAs issue (JWS and receipt chains): its intermediates,
    /// signed by their roots' keys, and every leaf under them, signed by the intermediates' keys,
    /// including the leaves of its variants.
    ///
    /// - Throws: ``AppStoreTestingError`` (`invalidArgument`) for a PKI without its CA keys (read
    ///   from a directory that lacks them).
    public func serve(_ pki: TestPKI) throws(AppStoreTestingError) {
        for chain in [pki.chain, pki.receiptChain] {
            guard let rootKey = chain.rootKey, let intermediateKey = chain.intermediateKey else {
                throw AppStoreTestingError(.invalidArgument, "this PKI has no CA keys (it was read from a directory without root.key and intermediate.key), so no response can be signed for it; make it with makePKI() or TestPKI(ocspResponder:)")
            }
            serve(issuer: chain.root, key: rootKey)
            serve(issuer: chain.intermediate, key: intermediateKey)
        }
    }

    /// Answers for the certificates `issuer` issued, in responses signed with `key` (the private key
    /// of `issuer`'s public key): for a CA of your own.
    public func serve(issuer: TestCertificate, key: TestPrivateKey) {
        state.add(issuer: issuer, key: key)
    }

    /// Sets what the responder answers about `certificate` from now on (until set again).
    ///
    /// Verifiers cache answers: see the type's discussion.
    public func setAnswer(_ answer: Answer, for certificate: TestCertificate) {
        state.setAnswer(answer, for: certificate)
    }

    /// The number of requests that asked about `certificate` so far (a request about two
    /// certificates counts for each): to see whether a verifier asked, or used its cache.
    public func requestCount(for certificate: TestCertificate) -> Int {
        state.requestCount(for: certificate)
    }

    /// The number of requests answered so far (or closed unanswered), of every kind.
    public var requestCount: Int { state.totalRequests }
}
