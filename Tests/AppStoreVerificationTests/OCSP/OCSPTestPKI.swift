import Foundation
import Testing
@testable import AppStoreVerification

/// The OCSP tests' world, built once per test process: a PKI minted with the `openssl` command line
/// (Scripts/make-ocsp-test-pki.sh), real `openssl ocsp` responders on loopback ports, loopback
/// servers that misbehave, and one signed transaction per leaf.
///
/// Every responder runs under a watchdog shell that kills it as soon as the test process is gone, so
/// no process outlives the suite, whatever way it ends; another watchdog then deletes the PKI's
/// directory (it holds private keys). The watchdogs do not poll: they wait on the end of the test process (``ProcessRunner/startUntilThisProcessEnds(_:in:)``).
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
    let offlineServer: LoopbackHTTPServer
    /// The silent server of `Leaf.deadline`.
    let deadlineServer: LoopbackHTTPServer
    /// The misbehaving loopback servers, kept alive for the process.
    private let servers: [LoopbackHTTPServer]
    private let lateResponder = NSLock()
    private var lateResponderStarted = false

    /// The shared instance, built once, asynchronously, by the first test that asks for it; the
    /// tests then fail with the reason it could not be built.
    private static let building = Task { () async throws -> OCSPTestPKI in
        let pki = try OCSPTestPKI()
        for (name, port) in pki.responderPorts {
            try await waitUntilAnswering(port: port, name: name)
        }
        return pki
    }

    static func get() async throws -> OCSPTestPKI { try await building.value }

    /// The real responders started with the PKI, by name, and their ports.
    private let responderPorts: [(String, UInt16)]

    private init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("asv-ocsp-\(ProcessInfo.processInfo.processIdentifier)-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try Self.deleteWhenThisProcessEnds(directory)
        let names = ["root", "leaf"] + Leaf.allCases.map(\.responder).filter { $0 != "leaf" }
        let ports = Dictionary(uniqueKeysWithValues: zip(names, try FreePorts.take(names.count)))
        self.ports = ports
        func port(_ name: String) -> UInt16 { ports[name] ?? 0 }
        var arguments = [TestPaths.packageRoot.appendingPathComponent("Scripts/make-ocsp-test-pki.sh").path, directory.path, "\(port("root"))", "\(port("leaf"))"]
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
        var responders: [(String, [String], logsRequests: Bool)] = [
            ("root", ["-index", "root-index.txt", "-CA", "root.pem", "-rsigner", "root.pem", "-rkey", "root.key", "-ndays", "1"], true),
            ("leaf", leafResponder + ["-rsigner", "ocsp-signer.pem", "-rkey", "ocsp-signer.key", "-ndays", "1"], false),
            ("unrelated", leafResponder + ["-rsigner", "unrelated.pem", "-rkey", "unrelated.key", "-ndays", "1"], false),
            ("expiring", leafResponder + ["-rsigner", "ocsp-signer.pem", "-rkey", "ocsp-signer.key", "-nmin", "1"], false),
            ("no-next-update", leafResponder + ["-rsigner", "ocsp-signer.pem", "-rkey", "ocsp-signer.key"], false),
            ("delegate-no-eku", leafResponder + ["-rsigner", "noeku-signer.pem", "-rkey", "noeku-signer.key", "-ndays", "1"], false),
            ("delegate-other-ca", leafResponder + ["-rsigner", "foreign-signer.pem", "-rkey", "foreign-signer.key", "-rother", "sibling-ca.pem", "-ndays", "1"], false),
        ]
        for leaf in [Leaf.cacheHit, .singleFlight] {
            responders.append((leaf.rawValue, ["-index", "intermediate-index.txt", "-CA", "\(leaf.issuer).pem", "-rsigner", "\(leaf.issuer).pem", "-rkey", "\(leaf.issuer).key", "-ndays", "1"], true))
        }
        for (name, responderArguments, logsRequests) in responders {
            try Self.startResponder(in: directory, port: port(name), responderArguments, logsRequests: logsRequests)
        }
        responderPorts = responders.map { ($0.0, port($0.0)) }

        // A genuine, signed answer about `good`, served to whoever asks about `other-serial`.
        try Self.run("/usr/bin/env", ["openssl", "ocsp", "-issuer", "intermediate.pem", "-cert", "good.pem", "-no_nonce", "-reqout", "good.req"], in: directory)
        try Self.run("/usr/bin/env", ["openssl", "ocsp", "-index", "intermediate-index.txt", "-CA", "intermediate-cas.pem", "-rsigner", "ocsp-signer.pem", "-rkey", "ocsp-signer.key", "-ndays", "1", "-reqin", "good.req", "-respout", "good.resp"], in: directory)
        let goodAnswer = try Data(contentsOf: directory.appendingPathComponent("good.resp"))
        var servers: [LoopbackHTTPServer] = []
        servers.append(try LoopbackHTTPServer(port: port("other-serial"), behaviour: .respond(status: 200, body: goodAnswer)))
        servers.append(try LoopbackHTTPServer(port: port("silent"), behaviour: .silent))
        servers.append(try LoopbackHTTPServer(port: port("http500"), behaviour: .respond(status: 500, body: Data("internal error".utf8))))
        servers.append(try LoopbackHTTPServer(port: port("garbage"), behaviour: .respond(status: 200, body: Data("this is not DER at all, just text".utf8))))
        servers.append(try LoopbackHTTPServer(port: port("large"), behaviour: .respond(status: 200, body: Data(repeating: 0x30, count: 4 << 20))))
        servers.append(try LoopbackHTTPServer(port: port("redirect"), behaviour: .redirect(location: leafResponderURL)))
        servers.append(try LoopbackHTTPServer(port: port("truncated-http"), behaviour: .raw(Data("HTTP/1.1 200 OK\r\nContent-Type: application/ocsp-response\r\nContent-Length: 1000\r\n\r\nshort".utf8))))
        // OCSPResponse { responseStatus tryLater (3) / internalError (2) }: unsigned, no responseBytes.
        servers.append(try LoopbackHTTPServer(port: port("try-later"), behaviour: .respond(status: 200, body: Data([0x30, 0x03, 0x0A, 0x01, 0x03]))))
        servers.append(try LoopbackHTTPServer(port: port("internal-error"), behaviour: .respond(status: 200, body: Data([0x30, 0x03, 0x0A, 0x01, 0x02]))))
        // OCSPResponse { successful, responseBytes [0] { responseType 1.2.3.4, response OCTET STRING { 30 00 } } }.
        servers.append(try LoopbackHTTPServer(port: port("not-basic"), behaviour: .respond(status: 200, body: Data([
            0x30, 0x10, 0x0A, 0x01, 0x00, 0xA0, 0x0B, 0x30, 0x09, 0x06, 0x03, 0x2A, 0x03, 0x04, 0x04, 0x02, 0x30, 0x00,
        ]))))
        offlineServer = try LoopbackHTTPServer(port: port("offline"), behaviour: .respond(status: 500, body: Data()))
        deadlineServer = try LoopbackHTTPServer(port: port("deadline"), behaviour: .silent)
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

    /// Starts the real responder of `Leaf.late` (once; later calls only wait for it to answer).
    func startLateResponder() async throws {
        let port = ports[Leaf.late.rawValue] ?? 0
        try lateResponder.withLock {
            guard !lateResponderStarted else { return }
            try Self.startResponder(in: directory, port: port, ["-index", "intermediate-index.txt", "-CA", "intermediate-cas.pem", "-rsigner", "ocsp-signer.pem", "-rkey", "ocsp-signer.key", "-ndays", "1"])
            lateResponderStarted = true
        }
        try await Self.waitUntilAnswering(port: port, name: "late")
    }

    /// How many requests about `certificate` (a certificate name of the PKI: "cache-hit",
    /// "intermediate-cache-hit", ...) the responder `name` has served, read from the responder's
    /// own `-text` output (only responders started with `logsRequests` print it). `openssl ocsp`
    /// prints each request, with the serial numbers it asks about, before it sends the answer, and
    /// its output is line-buffered (stdbuf), so every answered request is in the log.
    func requestsServed(by name: String, about certificate: String) throws -> Int {
        let serial = try Self.run("/usr/bin/env", ["openssl", "x509", "-in", "\(certificate).pem", "-noout", "-serial"], in: directory)
            .trimmingCharacters(in: .whitespacesAndNewlines).replacingOccurrences(of: "serial=", with: "")
        let log = try String(contentsOf: directory.appendingPathComponent("responder-\(ports[name] ?? 0).log"), encoding: .utf8)
        let requests = log.components(separatedBy: "OCSP Request Data:").dropFirst()
            .map { $0.components(separatedBy: "OCSP Response Data:")[0] }
        return requests.filter { request in
            request.split(separator: "\n").contains { $0.trimmingCharacters(in: .whitespaces) == "Serial Number: \(serial)" }
        }.count
    }

    /// Waits until the `openssl ocsp` responder on `port` answers: connects and sends a real
    /// request (`GET / HTTP/1.0`), reading the answer to its end, until a connection is accepted.
    /// (A bare connect-and-close probe wedges OpenSSL 3.0's responder, which serves one connection
    /// at a time; `-ignore_err` keeps it serving after the probe's request.) Gives up only if no
    /// connection is accepted for two minutes: a responder that did not start.
    static func waitUntilAnswering(port: UInt16, name: String) async throws {
        let giveUp = ContinuousClock.now + .seconds(120)
        while true {
            if let connection = try? SocketConnection.connect(host: "127.0.0.1", port: port, deadline: .now + .seconds(30),
                                                               timeout: .seconds(30), cancellation: CancellationFlag()) {
                try? connection.send(Array("GET / HTTP/1.0\r\n\r\n".utf8))
                var buffer = [UInt8](repeating: 0, count: 4096)
                while let count = try? connection.receive(into: &buffer), count > 0 {}
                return
            }
            guard ContinuousClock.now < giveUp else {
                throw OCSPFixtureError("the openssl ocsp responder '\(name)' never accepted a connection on 127.0.0.1:\(port)")
            }
            try await Task.sleep(for: .milliseconds(20))
        }
    }

    func transaction(_ leaf: Leaf) throws -> String {
        guard let text = jws[leaf] else { throw OCSPFixtureError("no JWS for \(leaf)") }
        return text
    }

    /// A verifier trusting the test root, online with `options` (their transport counts requests).
    func verifier(_ options: OCSPOptions, clock: AppStoreClock = .system) throws -> OnlineSignedDataVerifier {
        try OnlineSignedDataVerifier(
            configuration: .init(trustedRoots: [try TrustedRoot(derEncoded: rootDER)], bundleId: "com.example.app", environment: .sandbox, clock: clock),
            revocation: options)
    }

    /// `openssl ocsp` on `port`, inside a watchdog that kills it when this process ends. With
    /// `logsRequests`, the responder prints every request and answer (`-text`) to its log, line by
    /// line, for ``requestsServed(by:about:)``.
    static func startResponder(in directory: URL, port: UInt16, _ arguments: [String], logsRequests: Bool = false) throws {
        // `openssl ocsp` ignores SIGTERM: the watchdog uses SIGKILL, and setpriv makes the kernel
        // send SIGKILL to the responder if the watchdog itself is killed.
        let pdeath = FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv") ? ["setpriv", "--pdeathsig", "KILL"] : []
        // stdout is a file: without stdbuf, `-text` output would sit in a 4 KiB buffer.
        let text = logsRequests ? ["stdbuf", "-oL", "openssl", "ocsp", "-text"] : ["openssl", "ocsp"]
        let command = (pdeath + text + ["-port", "\(port)", "-ignore_err"] + arguments).joined(separator: " ")
        let script = "\(command) >responder-\(port).log 2>&1 & child=$!; trap 'kill -KILL $child 2>/dev/null' EXIT HUP INT TERM; read _"
        try ProcessRunner.startUntilThisProcessEnds(script, in: directory)
    }

    /// Deletes `directory` once this process has ended, however it ends (a watchdog shell outside
    /// it): the OCSP test PKIs hold private keys, which must not stay in the temporary directory.
    static func deleteWhenThisProcessEnds(_ directory: URL) throws {
        let quoted = "'" + directory.path.replacingOccurrences(of: "'", with: "'\\''") + "'"
        try ProcessRunner.startUntilThisProcessEnds("read _; rm -rf -- \(quoted)", in: URL(fileURLWithPath: "/"))
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
        let raw = try Self.rawSignature(fromDER: Data(contentsOf: signatureFile))
        return "\(signingInput).\(base64URLEncoded(raw))"
    }

    /// DER ECDSA-Sig-Value (SEQUENCE { INTEGER r, INTEGER s }) to JOSE's 64-byte r || s.
    static func rawSignature(fromDER der: Data) throws -> Data {
        let bytes = [UInt8](der)
        guard bytes.count > 8, bytes[0] == 0x30 else { throw OCSPFixtureError("not a DER ECDSA signature") }
        var index = bytes[1] & 0x80 == 0 ? 2 : 2 + Int(bytes[1] & 0x7F)
        var out = Data()
        for _ in 0..<2 {
            guard index + 2 <= bytes.count, bytes[index] == 0x02 else { throw OCSPFixtureError("not a DER ECDSA signature") }
            let length = Int(bytes[index + 1])
            guard index + 2 + length <= bytes.count else { throw OCSPFixtureError("truncated DER ECDSA signature") }
            var integer = Array(bytes[(index + 2)..<(index + 2 + length)])
            while integer.count > 32, integer.first == 0 { integer.removeFirst() }
            guard integer.count <= 32 else { throw OCSPFixtureError("an ECDSA P-256 integer longer than 32 bytes") }
            out.append(Data(repeating: 0, count: 32 - integer.count))
            out.append(contentsOf: integer)
            index += 2 + length
        }
        return out
    }

    /// Runs `executable` (through ``ProcessRunner``) and returns its standard output followed by
    /// its standard error; throws when it fails.
    @discardableResult
    static func run(_ executable: String, _ arguments: [String], in directory: URL? = nil) throws -> String {
        let run = try ProcessRunner.run(executable, arguments, in: directory)
        guard run.status == 0 else {
            throw OCSPFixtureError("\(executable) \(arguments.joined(separator: " ")) failed (\(run.status)): \(run.output)")
        }
        return run.output
    }
}

struct OCSPFixtureError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// Wraps a real transport (by default the verifier's default one: SocketOCSPTransport on Linux)
/// and counts the requests per responder URL.
final class CountingTransport: OCSPTransport, @unchecked Sendable {
    private let lock = NSLock()
    private var counts: [String: Int] = [:]
    private let inner: any OCSPTransport

    init(_ inner: any OCSPTransport = OCSPOptions.defaultTransport) { self.inner = inner }

    func post(_ body: Data, to url: URL, timeout: Duration, maximumResponseLength: Int) async throws -> OCSPHTTPResponse {
        lock.withLock { counts[url.absoluteString, default: 0] += 1 }
        return try await inner.post(body, to: url, timeout: timeout, maximumResponseLength: maximumResponseLength)
    }

    func count(_ url: String) -> Int { lock.withLock { counts[url] ?? 0 } }
    var total: Int { lock.withLock { counts.values.reduce(0, +) } }
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

