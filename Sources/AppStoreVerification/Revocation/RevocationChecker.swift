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
    /// The time responses and cache entries are judged at (the verifier's clock), in whole seconds.
    let clock: AppStoreClock
    let cache: OCSPResponseCache
    /// The subjects of each app receipt chain, by the certificates the receipts embed.
    private let subjectsByReceiptCertificates: LRUCache<ReceiptCertificatesKey, RevocationSubjects>

    init(options: OCSPOptions, clock: AppStoreClock) throws(VerifierConfigurationError) {
        if let problem = options.configurationProblem() {
            throw VerifierConfigurationError(.invalidSetting, problem)
        }
        self.options = options
        self.clock = clock
        self.cache = OCSPResponseCache(capacity: options.cacheCapacity)
        self.subjectsByReceiptCertificates = LRUCache(capacity: 16)
    }

    /// Checks a JWS chain the offline checks validated, by the subjects derived from it then
    /// (``ValidatedChainCache/Entry/revocationSubjects``): no certificate is read again.
    func check(chain subjects: Result<RevocationSubjects, VerificationError>) async -> Verdict {
        switch subjects {
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
        switch RevocationSubjects.of(receiptChain: chain) {
        case .success(let subjects):
            subjectsByReceiptCertificates.insert(subjects, for: certificates.owned())
            return await check(subjects)
        case .failure(let error):
            return .failed(error)
        }
    }

    /// Asks about the leaf and the intermediate (through the cache) and combines the answers.
    private func check(_ subjects: RevocationSubjects) async -> Verdict {
        // The warm path: both answers cached, no suspension, no task.
        let now = clock.nowSeconds
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
                code: cancelled ? .cancelled : .timedOut, certificate: "the leaf and the intermediate", responderURL: nil,
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
        return await cache.outcome(for: subject.cacheKey, clock: clock) { [options, clock] in
            await Self.ask(subject, at: url, options: options, clock: clock)
        }
    }

    /// Sends one request and judges the response at `clock`'s current second.
    private static func ask(_ subject: RevocationSubject, at url: URL, options: OCSPOptions, clock: AppStoreClock) async -> OCSPOutcome {
        var nonce: [UInt8]?
        if options.sendsNonce {
            var generator = SystemRandomNumberGenerator()
            nonce = (0..<16).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        }
        let exchange = OCSPExchange(subject: subject, url: url, nonce: nonce)
        let position = subject.position
        let responder = url.absoluteString
        func unavailable(_ reason: RevocationCheckUnavailable.Code, _ sentence: String) -> OCSPOutcome {
            .unavailable(RevocationCheckUnavailable(code: reason, certificate: position, responderURL: responder, message: sentence + " Try again later."))
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
        return exchange.judge(response.body, now: clock.nowSeconds, options: options)
    }
}

/// Why a transport gave no response, sorted into the reasons the verifier reports.
struct TransportFailure: Error, Sendable {
    var timedOut = false
    var cancelled = false
    var tooLarge = false
    /// The HTTP response was malformed or cut short (``OCSPTransportError/Code/invalidResponse``).
    var invalidResponse = false
    var message: String

    init(timedOut: Bool, cancelled: Bool, message: String) {
        self.timedOut = timedOut
        self.cancelled = cancelled
        self.message = message
    }

    init(_ error: any Error) {
        if let urlError = error as? URLError {
            timedOut = urlError.code == .timedOut
            cancelled = urlError.code == .cancelled
        }
        if error is CancellationError {
            cancelled = true
        }
        if let transportError = error as? OCSPTransportError {
            invalidResponse = transportError.code == .invalidResponse
            tooLarge = transportError.code == .responseTooLarge
            message = transportError.message
            return
        }
        message = "\(error.localizedDescription)"
    }
}
