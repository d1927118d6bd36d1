internal import CAppStoreOpenSSL
import Foundation

/// What a ``TestOCSPResponder`` knows (its CAs, the answers set, the requests counted) and how it
/// answers one HTTP request. Every field is read and changed under `lock`; OpenSSL work runs outside
/// it.
final class TestOCSPResponderState: @unchecked Sendable {
    private let lock = NSLock()
    private let defaultAnswer: TestOCSPResponder.Answer
    private let answerValidity: Duration?
    // Guarded by `lock`.
    private var issuers: [(certificate: TestCertificate, key: TestPrivateKey)] = []
    private var answers: [TestCertificate: TestOCSPResponder.Answer] = [:]
    /// `answers` by the query a request about each certificate makes; `nil` once stale.
    private var resolved: [OCSPResponderCodec.Query: TestOCSPResponder.Answer]?
    private var counts: [OCSPResponderCodec.Query: Int] = [:]
    private(set) var totalRequestsValue = 0

    init(defaultAnswer: TestOCSPResponder.Answer, answerValidity: Duration?) {
        self.defaultAnswer = defaultAnswer
        self.answerValidity = answerValidity
    }

    var totalRequests: Int { lock.withLock { totalRequestsValue } }

    func add(issuer: TestCertificate, key: TestPrivateKey) {
        lock.withLock {
            guard !issuers.contains(where: { $0.certificate == issuer }) else { return }
            issuers.append((issuer, key))
            resolved = nil
        }
    }

    func setAnswer(_ answer: TestOCSPResponder.Answer, for certificate: TestCertificate) {
        lock.withLock {
            answers[certificate] = answer
            resolved = nil
        }
    }

    func requestCount(for certificate: TestCertificate) -> Int {
        let known = lock.withLock { issuers.map(\.certificate) }
        guard let query = try? OCSPResponderCodec.query(for: certificate, issuers: known) else { return 0 }
        return lock.withLock { counts[query] ?? 0 }
    }

    /// The answers by query, resolved again when stale (outside the lock; a change made meanwhile
    /// marks them stale again).
    private func resolvedAnswers() -> (issuers: [(certificate: TestCertificate, key: TestPrivateKey)], answers: [OCSPResponderCodec.Query: TestOCSPResponder.Answer]) {
        let (known, current, cached) = lock.withLock { (issuers, answers, resolved) }
        if let cached { return (known, cached) }
        var table: [OCSPResponderCodec.Query: TestOCSPResponder.Answer] = [:]
        let certificates = known.map(\.certificate)
        for (certificate, answer) in current {
            if let query = try? OCSPResponderCodec.query(for: certificate, issuers: certificates) { table[query] = answer }
        }
        lock.withLock {
            if issuers.count == known.count, answers == current { resolved = table }
        }
        return (known, table)
    }

    /// The HTTP answer to one request.
    func reply(to request: LoopbackHTTPRequest) -> LoopbackHTTPServer.Reply {
        guard request.method == "POST" else {
            return Self.text(405, "this OCSP responder answers POST requests (Content-Type: application/ocsp-request)")
        }
        let (known, table) = resolvedAnswers()
        let queries: [OCSPResponderCodec.Query]
        switch OCSPResponderCodec.queries(in: request.body, issuers: known.map(\.certificate)) {
        case .failure:
            count([])
            return Self.ocspError(ASV_OCSP_RESPONDER_MALFORMED_REQUEST)
        case .success(let read):
            queries = read
        }
        count(queries)
        // One response is signed by one CA: every certificate asked about must be one of its.
        guard let issuerIndex = queries.first?.issuerIndex, queries.allSatisfy({ $0.issuerIndex == issuerIndex }) else {
            return Self.ocspError(ASV_OCSP_RESPONDER_UNAUTHORIZED)
        }
        var singles: [OCSPResponderCodec.SingleAnswer] = []
        for query in queries {
            switch table[query] ?? defaultAnswer {
            case .noAnswer: return .closeWithoutAnswer
            case .httpError(let status): return Self.text(status, "the test set this certificate's answer to HTTP \(status)")
            case .good: singles.append(.init(status: .good))
            case .unknown: singles.append(.init(status: .unknown))
            case .revoked(let date, let reason): singles.append(.init(status: .revoked(at: date, reason: reason)))
            }
        }
        let thisUpdate = Date(timeIntervalSinceNow: -60)
        let nextUpdate = answerValidity.map { thisUpdate.addingTimeInterval(Double($0.components.seconds) + Double($0.components.attoseconds) / 1e18) }
        do {
            let issuer = known[issuerIndex]
            let body = try OCSPResponderCodec.response(to: request.body, answers: singles, issuer: issuer.certificate, key: issuer.key,
                                                       thisUpdate: thisUpdate, nextUpdate: nextUpdate)
            return .respond(status: 200, headers: [("Content-Type", "application/ocsp-response")], body: body)
        } catch {
            return Self.text(500, "the test OCSP responder cannot sign: \(error.message)")
        }
    }

    private func count(_ queries: [OCSPResponderCodec.Query]) {
        lock.withLock {
            totalRequestsValue += 1
            for query in Set(queries) { counts[query, default: 0] += 1 }
        }
    }

    private static func text(_ status: Int, _ message: String) -> LoopbackHTTPServer.Reply {
        .respond(status: status, headers: [("Content-Type", "text/plain; charset=utf-8")], body: Data((message + "\n").utf8))
    }

    private static func ocspError(_ status: asv_ocsp_responder_status) -> LoopbackHTTPServer.Reply {
        guard let body = try? OCSPResponderCodec.errorResponse(status) else {
            return text(500, "the test OCSP responder cannot encode an error response")
        }
        return .respond(status: 200, headers: [("Content-Type", "application/ocsp-response")], body: body)
    }
}
