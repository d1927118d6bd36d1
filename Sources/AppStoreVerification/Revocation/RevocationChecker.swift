internal import CAppStoreOpenSSL
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Online mode's revocation checks: for a chain the offline checks already accepted, asks the OCSP
/// responders about the leaf and the intermediate (concurrently, through the cache), and turns the
/// answers into one verdict.
final class RevocationChecker: Sendable {
    /// What a check concludes.
    enum Verdict: Sendable {
        /// Neither certificate is revoked (or, under soft-fail, the check was skipped).
        case good
        /// A permanent verdict: `.revokedCertificate` or `.invalidCertificateChain`.
        case failed(VerificationError)
        /// No answer could be had.
        case unavailable(RevocationCheckUnavailable)
    }

    let options: OCSPOptions
    let cache: OCSPResponseCache
    /// The trusted roots, parsed, to find the one an intermediate's path was validated to.
    private let roots: [(certificate: X509Certificate, key: PublicKey)]
    /// The certificates behind each validated JWS header, so a warm verification reads no certificate.
    private let subjectsByHeader: LRUCache<HeaderSegmentKey, RevocationSubjects>
    /// The same for app receipts, by the certificates they embed.
    private let subjectsByReceiptCertificates: LRUCache<ReceiptCertificatesKey, RevocationSubjects>

    init(options: OCSPOptions, trustedRoots: [TrustedRoot], headerCacheCapacity: Int) throws(VerifierConfigurationError) {
        if let problem = options.configurationProblem() {
            throw VerifierConfigurationError(.invalidSetting, problem)
        }
        var roots: [(certificate: X509Certificate, key: PublicKey)] = []
        for root in trustedRoots {
            do {
                let certificate = try X509Certificate(derEncoded: root.derEncoded)
                roots.append((certificate, try certificate.publicKey()))
            } catch {
                throw VerifierConfigurationError(.invalidCertificate, "The trusted root \(root.name) cannot be read for OCSP: \(error.message).")
            }
        }
        self.options = options
        self.roots = roots
        self.cache = OCSPResponseCache(capacity: options.cacheCapacity)
        self.subjectsByHeader = LRUCache(capacity: max(1, headerCacheCapacity))
        self.subjectsByReceiptCertificates = LRUCache(capacity: 16)
    }

    /// Checks the chain of `jws`, which the offline checks already validated.
    func check(_ jws: CompactJWS) async -> Verdict {
        switch self.subjects(of: jws) {
        case .success(let subjects): return await check(subjects)
        case .failure(let error): return .failed(error)
        }
    }

    /// Checks the chain an app receipt embeds (`certificates`), which the offline checks already
    /// validated as `chain`.
    func check(receiptChain chain: ValidatedChain, certificates: ReceiptCertificatesKey) async -> Verdict {
        if let cached = subjectsByReceiptCertificates.value(for: certificates, where: { _ in true }) {
            return await check(cached)
        }
        guard let root = chain.root else {
            return .failed(.invalidCertificateChain("The receipt's intermediate (\(chain.intermediate.subject)) was validated to no configured receipt root, so its revocation status cannot be asked."))
        }
        let subjects = RevocationSubjects(
            leaf: RevocationSubject(certificate: chain.leaf, issuer: chain.intermediate, position: "the receipt's signing certificate (\(chain.leaf.subject))"),
            intermediate: RevocationSubject(certificate: chain.intermediate, issuer: root, position: "the receipt's intermediate (\(chain.intermediate.subject))"))
        subjectsByReceiptCertificates.insert(subjects, for: certificates.owned())
        return await check(subjects)
    }

    /// Asks about the leaf and the intermediate (through the cache) and combines the answers.
    private func check(_ subjects: RevocationSubjects) async -> Verdict {
        // The warm path: both answers cached, no suspension, no task.
        let now = options.clock()
        if let leaf = cache.answer(for: subjects.leaf.cacheKey, at: now),
           let intermediate = cache.answer(for: subjects.intermediate.cacheKey, at: now) {
            if case .good = leaf.status, case .good = intermediate.status {
                return .good  // what `combine` concludes from two good answers
            }
            return combine(.answer(leaf), subjects.leaf, .answer(intermediate), subjects.intermediate)
        }
        let deadline = options.overallDeadline
        let verdict = await Deadline.run(within: deadline) { [self] in
            async let leaf = outcome(for: subjects.leaf)
            async let intermediate = outcome(for: subjects.intermediate)
            return combine(await leaf, subjects.leaf, await intermediate, subjects.intermediate)
        } onTimeout: { cancelled in
            .unavailable(RevocationCheckUnavailable(
                reason: cancelled ? .cancelled : .timedOut, certificate: "the leaf and the intermediate", responderURL: nil,
                message: cancelled
                    ? "The verification was cancelled before its revocation checks finished. Try again later."
                    : "The revocation checks did not finish within the overall deadline of \(deadline.inSeconds) s. Try again later."))
        }
        if case .unavailable(let reason) = verdict, options.softFail {
            options.onSkippedCheck?(reason)
            return .good
        }
        return verdict
    }

    /// One verdict from the two outcomes: a revocation first, then another permanent refusal, then
    /// unavailability; good only when both are good.
    private func combine(_ leaf: OCSPOutcome, _ leafSubject: RevocationSubject, _ intermediate: OCSPOutcome, _ intermediateSubject: RevocationSubject) -> Verdict {
        let pairs = [(leaf, leafSubject), (intermediate, intermediateSubject)]
        for (outcome, subject) in pairs {
            if case .answer(let answer) = outcome, case .revoked(let time, let reason) = answer.status {
                let why = reason >= 0 ? String(cString: asv_ocsp_reason_name(reason)) : "no reason given"
                let responder = (try? subject.responder.get().absoluteString) ?? "its responder"
                return .failed(.revokedCertificate("\(subject.position.prefix(1).uppercased() + subject.position.dropFirst()) was revoked at \(DateText.iso8601(seconds: time)) (reason: \(why)), according to the OCSP responder \(responder). Data it signed must not be trusted."))
            }
        }
        for (outcome, _) in pairs {
            if case .invalid(let error) = outcome { return .failed(error) }
        }
        for (outcome, _) in pairs {
            if case .unavailable(let reason) = outcome { return .unavailable(reason) }
        }
        return .good
    }

    /// The outcome for one certificate: cached, shared with a request in flight, or asked now.
    private func outcome(for subject: RevocationSubject) async -> OCSPOutcome {
        let url: URL
        switch subject.responder {
        case .success(let found): url = found
        case .failure(let error): return .invalid(error)
        }
        return await cache.outcome(for: subject.cacheKey, clock: options.clock) { [options] in
            await Self.ask(subject, at: url, options: options)
        }
    }

    /// Sends one request and judges the response.
    private static func ask(_ subject: RevocationSubject, at url: URL, options: OCSPOptions) async -> OCSPOutcome {
        var nonce: [UInt8]?
        if options.sendsNonce {
            var generator = SystemRandomNumberGenerator()
            nonce = (0..<16).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        }
        let exchange = OCSPExchange(subject: subject, url: url, nonce: nonce)
        let position = subject.position
        let responder = url.absoluteString
        func unavailable(_ reason: RevocationCheckUnavailable.Reason, _ sentence: String) -> OCSPOutcome {
            .unavailable(RevocationCheckUnavailable(reason: reason, certificate: position, responderURL: responder, message: sentence + " Try again later."))
        }
        let body: Data
        switch exchange.requestBody() {
        case .success(let built): body = built
        case .failure(let failure): return unavailable(.invalidResponse, "The OCSP request about \(position) cannot be built: \(failure.message).")
        }
        let timeout = options.requestTimeout
        let limit = options.maximumResponseLength
        let transport = options.transport
        let received: Result<OCSPHTTPResponse, TransportFailure> = await Deadline.run(within: timeout) {
            do {
                return .success(try await transport.post(body, to: url, timeout: timeout, maximumResponseLength: limit))
            } catch {
                return .failure(TransportFailure(error))
            }
        } onTimeout: { cancelled in
            .failure(TransportFailure(timedOut: !cancelled, cancelled: cancelled, message: cancelled ? "the request was cancelled" : "no response within \(timeout.inSeconds) s"))
        }
        let response: OCSPHTTPResponse
        switch received {
        case .success(let answered): response = answered
        case .failure(let failure):
            if failure.tooLarge {
                return unavailable(.responseTooLarge, "The OCSP responder \(responder) sent more than \(limit) bytes about \(position); the response was cut off and refused.")
            }
            if failure.cancelled {
                return unavailable(.cancelled, "The OCSP request to \(responder) about \(position) was cancelled.")
            }
            if failure.timedOut {
                return unavailable(.timedOut, "The OCSP responder \(responder) did not answer about \(position) in time: \(failure.message).")
            }
            if failure.invalidResponse {
                return unavailable(.invalidResponse, "The OCSP responder \(responder) sent no acceptable HTTP response about \(position): \(failure.message).")
            }
            return unavailable(.unreachable, "The OCSP responder \(responder) could not be reached about \(position): \(failure.message).")
        }
        guard response.statusCode == 200 else {
            return unavailable(.httpStatus, "The OCSP responder \(responder) answered HTTP \(response.statusCode) about \(position), not 200\(response.statusCode / 100 == 3 ? " (redirects are not followed)" : "").")
        }
        guard response.body.count <= limit else {
            return unavailable(.responseTooLarge, "The OCSP responder \(responder) sent \(response.body.count) bytes about \(position), more than the \(limit) accepted.")
        }
        return exchange.judge(response.body, now: options.clock(), options: options)
    }

    /// The leaf and the intermediate of the chain in `jws`'s header, with their issuers.
    private func subjects(of jws: CompactJWS) -> Result<RevocationSubjects, VerificationError> {
        let key = HeaderSegmentKey(jws.headerSegment)
        if let cached = subjectsByHeader.value(for: key, where: { _ in true }) {
            return .success(cached)
        }
        // The offline checks validated this header's chain; its certificates are read again from
        // x5c once per distinct header (then remembered), never on the warm path.
        let chain: [Data]
        do {
            chain = try JWSHeader(of: jws).requireCertificateChain()
        } catch {
            return .failure(error)
        }
        guard chain.count >= 2,
              let leaf = try? X509Certificate(derEncoded: chain[0]),
              let intermediate = try? X509Certificate(derEncoded: chain[1])
        else {
            return .failure(.invalidCertificateChain("The x5c certificates cannot be read again for the revocation check."))
        }
        guard let root = roots.first(where: { intermediate.isSigned(by: $0.key) })?.certificate else {
            return .failure(.invalidCertificateChain("No configured trusted root issued the intermediate (x5c[1], \(intermediate.subject)), so its revocation status cannot be asked."))
        }
        let subjects = RevocationSubjects(
            leaf: RevocationSubject(certificate: leaf, issuer: intermediate, position: "the leaf (x5c[0], \(leaf.subject))"),
            intermediate: RevocationSubject(certificate: intermediate, issuer: root, position: "the intermediate (x5c[1], \(intermediate.subject))"))
        subjectsByHeader.insert(subjects, for: key.owned())
        return .success(subjects)
    }
}

/// Why a transport gave no response, sorted into the reasons the verifier reports.
struct TransportFailure: Error, Sendable {
    var timedOut = false
    var cancelled = false
    var tooLarge = false
    /// The HTTP response was malformed or cut short (``OCSPTransportError/Kind/invalidResponse``).
    var invalidResponse = false
    var message: String

    init(timedOut: Bool, cancelled: Bool, message: String) {
        self.timedOut = timedOut
        self.cancelled = cancelled
        self.message = message
    }

    init(_ error: any Error) {
        if error is OCSPResponseTooLarge {
            tooLarge = true
        }
        if let urlError = error as? URLError {
            timedOut = urlError.code == .timedOut
            cancelled = urlError.code == .cancelled
        }
        if error is CancellationError {
            cancelled = true
        }
        if let transportError = error as? OCSPTransportError {
            invalidResponse = transportError.kind == .invalidResponse
            message = transportError.message
            return
        }
        message = "\(error.localizedDescription)"
    }
}
