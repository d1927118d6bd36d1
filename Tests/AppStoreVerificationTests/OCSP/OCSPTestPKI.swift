import AppStoreVerificationTestSupport
import Foundation
import Testing
@testable import AppStoreVerification

/// The OCSP tests' world, built once per test process: a PKI minted with the `openssl` command line
/// (Scripts/make-ocsp-test-pki.sh), real `openssl ocsp` responders on loopback ports, loopback
/// servers that misbehave, and one signed transaction per leaf.
///
/// Every responder is an ``OpenSSLOCSPResponder`` (ready once it prints that it listens, killed
/// when the test process is gone, whatever way it ends); a watchdog deletes the PKI's directory
/// (it holds private keys) then. Nothing polls: the watchdogs wait on the end of the test process.
final class OCSPTestPKI: @unchecked Sendable {
    /// The leaves, each naming its own responder in its AIA.
    enum Leaf: String, CaseIterable {
        case good, revoked, unknown, down, silent, unrelated, otherSerial = "other-serial"
        case http500, garbage, large, expiring, offline
        /// Answered by a responder whose answers carry no nextUpdate.
        case noNextUpdate = "no-next-update"
        /// Its responder is started by the test that uses it (down until then).
        case late
        /// Its responder URL answers 302 to the real responder.
        case redirect
        /// Unsigned error statuses, and a successful response of a type other than basic.
        case tryLater = "try-later", internalError = "internal-error", notBasic = "not-basic"
        /// Its AIA names an https:// responder.
        case httpsAIA = "https-aia"
        /// Its responder URL answers with a body shorter than its Content-Length.
        case truncatedHTTP = "truncated-http"
        /// Its responder never answers (a silent server of its own, which the test hangs up).
        case deadline
        /// Answered by a responder certificate the intermediate signed without OCSPSigning.
        case delegateNoEKU = "delegate-no-eku"
        /// Answered by a responder certificate with OCSPSigning that another CA signed.
        case delegateOtherCA = "delegate-other-ca"
        /// Under intermediates of their own, with responders of their own that log every request
        /// they serve (`-text`), so that the tests can count requests at the responders.
        case cacheHit = "cache-hit", singleFlight = "single-flight"
        /// Under the revoked intermediate.
        case underRevokedIntermediate = "leaf-under-revoked"

        /// The certificate that issued the leaf.
        var issuer: String {
            switch self {
            case .underRevokedIntermediate: "intermediate-revoked"
            case .cacheHit, .singleFlight: "intermediate-\(rawValue)"
            default: "intermediate"
            }
        }

        /// The port (by name) its AIA names.
        var responder: String {
            switch self {
            case .good, .revoked, .unknown, .underRevokedIntermediate: "leaf"
            default: rawValue
            }
        }
    }

    let directory: URL
    let rootDER: Data
    /// The transactions, one per leaf, signed at test time.
    private var jws: [Leaf: String] = [:]
    /// The loopback ports, by responder name ("root", "leaf", or a leaf's raw value).
    private let ports: [String: UInt16]
    /// Responder URLs by role, for counting.
    let leafResponderURL: String
    let rootResponderURL: String
    let expiringResponderURL: String
    let offlineServer: OCSPTestServer
    /// The silent server of `Leaf.deadline`.
    let deadlineServer: OCSPTestServer
    /// The misbehaving loopback servers, kept alive for the process.
    private let servers: [OCSPTestServer]
    /// The real responders by name, for ``requestsServed(by:about:)``; `late` once started.
    private var responders: [String: BackgroundProcess] = [:]
    private let lateResponder = NSLock()

    /// The shared instance, built once, asynchronously (off the cooperative pool: it runs
    /// processes), by the first test that asks for it; the tests then fail with the reason it could
    /// not be built.
    private static let building = Task { () async throws -> OCSPTestPKI in try await offThePool { try OCSPTestPKI() } }

    static func get() async throws -> OCSPTestPKI { try await building.value }

    private init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("asv-ocsp-\(ProcessInfo.processInfo.processIdentifier)-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try ProcessRunner.deleteWhenThisProcessEnds(directory)
        let names = ["root", "leaf"] + Leaf.allCases.map(\.responder).filter { $0 != "leaf" }
        let ports = Dictionary(uniqueKeysWithValues: zip(names, try FreePorts.take(names.count)))
        self.ports = ports
        func port(_ name: String) -> UInt16 { ports[name] ?? 0 }
        var arguments = [TestPaths.repositoryRoot.appendingPathComponent("Scripts/make-ocsp-test-pki.sh").path, directory.path, "\(port("root"))", "\(port("leaf"))"]
        for leaf in Leaf.allCases where leaf != .underRevokedIntermediate {
            let status = leaf == .revoked ? "R" : leaf == .unknown ? "-" : "V"
            arguments.append("\(leaf.rawValue):\(port(leaf.responder)):\(status):\(leaf.issuer):\(leaf == .httpsAIA ? "https" : "http")")
        }
        try Self.run("/usr/bin/env", ["OCSP_TEST_DELEGATES=1", "/bin/bash"] + arguments)
        rootDER = try Data(contentsOf: directory.appendingPathComponent("root.der"))
        leafResponderURL = "http://127.0.0.1:\(port("leaf"))/"
        rootResponderURL = "http://127.0.0.1:\(port("root"))/"
        expiringResponderURL = "http://127.0.0.1:\(port("expiring"))/"

        // The real responders: the root answers for the intermediates itself, a delegated
        // OCSPSigning certificate for the leaves, an unrelated key for `unrelated`, a responder
        // whose answers are good for one minute only for `expiring`, one whose answers have no
        // nextUpdate (no -ndays) for `no-next-update`, delegated certificates the verifier must not
        // believe for the `delegate-*` leaves, and the counted leaves' own intermediates.
        let leafResponder = ["-index", "intermediate-index.txt", "-CA", "intermediate-cas.pem"]
        var commands: [(String, [String], logsRequests: Bool)] = [
            ("root", ["-index", "root-index.txt", "-CA", "root.pem", "-rsigner", "root.pem", "-rkey", "root.key", "-ndays", "1"], true),
            ("leaf", leafResponder + ["-rsigner", "ocsp-signer.pem", "-rkey", "ocsp-signer.key", "-ndays", "1"], false),
            ("unrelated", leafResponder + ["-rsigner", "unrelated.pem", "-rkey", "unrelated.key", "-ndays", "1"], false),
            ("expiring", leafResponder + ["-rsigner", "ocsp-signer.pem", "-rkey", "ocsp-signer.key", "-nmin", "1"], false),
            ("no-next-update", leafResponder + ["-rsigner", "ocsp-signer.pem", "-rkey", "ocsp-signer.key"], false),
            ("delegate-no-eku", leafResponder + ["-rsigner", "noeku-signer.pem", "-rkey", "noeku-signer.key", "-ndays", "1"], false),
            ("delegate-other-ca", leafResponder + ["-rsigner", "foreign-signer.pem", "-rkey", "foreign-signer.key", "-rother", "sibling-ca.pem", "-ndays", "1"], false),
        ]
        for leaf in [Leaf.cacheHit, .singleFlight] {
            commands.append((leaf.rawValue, ["-index", "intermediate-index.txt", "-CA", "\(leaf.issuer).pem", "-rsigner", "\(leaf.issuer).pem", "-rkey", "\(leaf.issuer).key", "-ndays", "1"], true))
        }
        var started: [String: BackgroundProcess] = [:]
        for (name, responderArguments, logsRequests) in commands {
            started[name] = try OpenSSLOCSPResponder.start(in: directory, port: port(name), responderArguments, logsRequests: logsRequests)
        }
        responders = started

        // A genuine, signed answer about `good`, served to whoever asks about `other-serial`.
        try Self.run("/usr/bin/env", ["openssl", "ocsp", "-issuer", "intermediate.pem", "-cert", "good.pem", "-no_nonce", "-reqout", "good.req"], in: directory)
        try Self.run("/usr/bin/env", ["openssl", "ocsp", "-index", "intermediate-index.txt", "-CA", "intermediate-cas.pem", "-rsigner", "ocsp-signer.pem", "-rkey", "ocsp-signer.key", "-ndays", "1", "-reqin", "good.req", "-respout", "good.resp"], in: directory)
        let goodAnswer = try Data(contentsOf: directory.appendingPathComponent("good.resp"))
        var servers: [OCSPTestServer] = []
        servers.append(try OCSPTestServer(port: port("other-serial"), behaviour: .respond(status: 200, body: goodAnswer)))
        servers.append(try OCSPTestServer(port: port("silent"), behaviour: .silent))
        servers.append(try OCSPTestServer(port: port("http500"), behaviour: .respond(status: 500, body: Data("internal error".utf8))))
        servers.append(try OCSPTestServer(port: port("garbage"), behaviour: .respond(status: 200, body: Data("this is not DER at all, just text".utf8))))
        servers.append(try OCSPTestServer(port: port("large"), behaviour: .respond(status: 200, body: Data(repeating: 0x30, count: 4 << 20))))
        servers.append(try OCSPTestServer(port: port("redirect"), behaviour: .redirect(location: leafResponderURL)))
        servers.append(try OCSPTestServer(port: port("truncated-http"), behaviour: .raw(Data("HTTP/1.1 200 OK\r\nContent-Type: application/ocsp-response\r\nContent-Length: 1000\r\n\r\nshort".utf8))))
        // OCSPResponse { responseStatus tryLater (3) / internalError (2) }: unsigned, no responseBytes.
        servers.append(try OCSPTestServer(port: port("try-later"), behaviour: .respond(status: 200, body: Data([0x30, 0x03, 0x0A, 0x01, 0x03]))))
        servers.append(try OCSPTestServer(port: port("internal-error"), behaviour: .respond(status: 200, body: Data([0x30, 0x03, 0x0A, 0x01, 0x02]))))
        // OCSPResponse { successful, responseBytes [0] { responseType 1.2.3.4, response OCTET STRING { 30 00 } } }.
        servers.append(try OCSPTestServer(port: port("not-basic"), behaviour: .respond(status: 200, body: Data([
            0x30, 0x10, 0x0A, 0x01, 0x00, 0xA0, 0x0B, 0x30, 0x09, 0x06, 0x03, 0x2A, 0x03, 0x04, 0x04, 0x02, 0x30, 0x00,
        ]))))
        offlineServer = try OCSPTestServer(port: port("offline"), behaviour: .respond(status: 500, body: Data()))
        deadlineServer = try OCSPTestServer(port: port("deadline"), behaviour: .silent)
        self.servers = servers

        for leaf in Leaf.allCases {
            jws[leaf] = try signTransaction(leaf: leaf.rawValue, intermediate: leaf.issuer)
        }
    }

    /// The responder URL `leaf`'s AIA names (https for `httpsAIA`).
    func responderURL(of leaf: Leaf) -> String {
        "\(leaf == .httpsAIA ? "https" : "http")://127.0.0.1:\(ports[leaf.responder] ?? 0)/"
    }

    /// The URL of the responder (or loopback server) called `name`: "root", "leaf", or a leaf's
    /// raw value.
    func url(ofResponder name: String) -> String { "http://127.0.0.1:\(ports[name] ?? 0)/" }

    /// Starts the real responder of `Leaf.late` (once) and returns once it listens.
    func startLateResponder() async throws {
        let port = ports[Leaf.late.rawValue] ?? 0
        try lateResponder.withLock {
            guard responders[Leaf.late.rawValue] == nil else { return }
            responders[Leaf.late.rawValue] = try OpenSSLOCSPResponder.start(
                in: directory, port: port, ["-index", "intermediate-index.txt", "-CA", "intermediate-cas.pem", "-rsigner", "ocsp-signer.pem", "-rkey", "ocsp-signer.key", "-ndays", "1"])
        }
    }

    /// How many requests about `certificate` (a certificate name of the PKI: "cache-hit",
    /// "intermediate-cache-hit", ...) the responder `name` has served, read from the responder's
    /// own `-text` output (only responders started with `logsRequests` print it). `openssl ocsp`
    /// prints each request, with the serial numbers it asks about, before it sends the answer, and
    /// its output is line-buffered (stdbuf), so every answered request is in the log.
    func requestsServed(by name: String, about certificate: String) throws -> Int {
        let serial = try Self.run("/usr/bin/env", ["openssl", "x509", "-in", "\(certificate).pem", "-noout", "-serial"], in: directory)
            .trimmingCharacters(in: .whitespacesAndNewlines).replacingOccurrences(of: "serial=", with: "")
        guard let log = lateResponder.withLock({ responders[name]?.output }) else { throw FixtureError("no responder called \(name)") }
        let requests = log.components(separatedBy: "OCSP Request Data:").dropFirst()
            .map { $0.components(separatedBy: "OCSP Response Data:")[0] }
        return requests.filter { request in
            request.split(separator: "\n").contains { $0.trimmingCharacters(in: .whitespaces) == "Serial Number: \(serial)" }
        }.count
    }

    func transaction(_ leaf: Leaf) throws -> String {
        guard let text = jws[leaf] else { throw FixtureError("no JWS for \(leaf)") }
        return text
    }

    /// A verifier trusting the test root, online with `options` (their transport counts requests).
    func verifier(_ options: OCSPOptions, clock: AppStoreClock = .system) throws -> OnlineSignedDataVerifier {
        try OnlineSignedDataVerifier(
            configuration: .init(trustedRoots: [try TrustedRoot(derEncoded: rootDER)], bundleId: "com.example.app", environment: .sandbox, clock: clock),
            revocation: options)
    }

    /// A transaction JWS signed by `leaf.key` with x5c [leaf, intermediate, root]: the payload of
    /// the shipped vector transaction-valid.jws (bundle com.example.app, Sandbox), re-signed.
    private func signTransaction(leaf: String, intermediate: String) throws -> String {
        let vector = try TestPaths.text(TestPaths.testVector("jws/transaction-valid.jws"))
        let payloadSegment = String(vector.split(separator: ".")[1])
        let x5c = try [leaf, intermediate, "root"].map { try Data(contentsOf: directory.appendingPathComponent("\($0).der")).base64EncodedString() }
        let header = try JSONSerialization.data(withJSONObject: ["alg": "ES256", "x5c": x5c], options: [.sortedKeys])
        let signingInput = "\(base64URLEncoded(header)).\(payloadSegment)"
        let inputFile = directory.appendingPathComponent("\(leaf).input")
        try Data(signingInput.utf8).write(to: inputFile)
        let signatureFile = directory.appendingPathComponent("\(leaf).sig")
        try Self.run("/usr/bin/env", ["openssl", "dgst", "-sha256", "-sign", "\(leaf).key", "-out", signatureFile.path, inputFile.path], in: directory)
        guard let raw = ECDSASignatureEncoding.raw(fromDER: try Data(contentsOf: signatureFile)) else { throw FixtureError("openssl dgst wrote no DER ECDSA signature") }
        return "\(signingInput).\(base64URLEncoded(raw))"
    }

    /// Runs `executable` (through ``ProcessRunner``) and returns its standard output followed by
    /// its standard error; throws when it fails.
    @discardableResult
    static func run(_ executable: String, _ arguments: [String], in directory: URL? = nil) throws -> String {
        let run = try ProcessRunner.run(executable, arguments, in: directory)
        guard run.status == 0 else {
            throw FixtureError("\(executable) \(arguments.joined(separator: " ")) failed (\(run.status)): \(run.output)")
        }
        return run.output
    }
}

/// Wraps a real transport (by default the verifier's default one: SocketOCSPTransport on Linux)
/// and counts the requests per responder URL.
final class CountingTransport: OCSPTransport, @unchecked Sendable {
    private let lock = NSLock()
    private var counts: [String: Int] = [:]
    private var waiters: [(url: String, continuation: CheckedContinuation<Void, Never>)] = []
    private let inner: any OCSPTransport

    init(_ inner: any OCSPTransport = OCSPOptions.defaultTransport) { self.inner = inner }

    func post(_ body: Data, to url: URL, timeout: Duration, maximumResponseLength: Int) async throws -> OCSPHTTPResponse {
        let key = url.absoluteString
        let resumed = lock.withLock {
            counts[key, default: 0] += 1
            let ready = waiters.filter { $0.url == key }
            waiters.removeAll { $0.url == key }
            return ready
        }
        resumed.forEach { $0.continuation.resume() }
        return try await inner.post(body, to: url, timeout: timeout, maximumResponseLength: maximumResponseLength)
    }

    func count(_ url: String) -> Int { lock.withLock { counts[url] ?? 0 } }
    var total: Int { lock.withLock { counts.values.reduce(0, +) } }

    /// Returns once a request to `url` has been asked of the transport (at once if one has).
    func firstRequest(to url: String) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let asked = lock.withLock {
                if counts[url, default: 0] == 0 { waiters.append((url, continuation)) }
                return counts[url, default: 0] > 0
            }
            if asked { continuation.resume() }
        }
    }
}

/// The real transports the verifier-level tests that are about the transport run through: the
/// default one (SocketOCSPTransport on Linux, URLSessionOCSPTransport on Apple platforms) and
/// URLSessionOCSPTransport, which stays public everywhere.
enum TransportUnderTest: String, CaseIterable, Sendable, CustomStringConvertible {
    case defaultTransport = "default"
    case urlSession = "URLSession"

    /// A new transport of this kind.
    func make() -> any OCSPTransport {
        switch self {
        case .defaultTransport: OCSPOptions.defaultTransport
        case .urlSession: URLSessionOCSPTransport()
        }
    }

    var description: String { rawValue }
}

