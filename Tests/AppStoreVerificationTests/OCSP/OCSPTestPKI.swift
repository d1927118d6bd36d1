import Foundation
import Testing
@testable import AppStoreVerification

/// The OCSP tests' world, built once per test process: a PKI minted with the `openssl` command line
/// (Scripts/make-ocsp-test-pki.sh), real `openssl ocsp` responders on loopback ports, loopback
/// servers that misbehave, and one signed transaction per leaf.
///
/// Every responder runs under a watchdog shell that kills it as soon as the test process is gone, so
/// no process outlives the suite, whatever way it ends.
final class OCSPTestPKI: @unchecked Sendable {
    /// The leaves, each naming its own responder in its AIA.
    enum Leaf: String, CaseIterable {
        case good, revoked, unknown, down, silent, unrelated, otherSerial = "other-serial"
        case http500, garbage, large, expiring, offline
        /// Under the revoked intermediate.
        case underRevokedIntermediate = "leaf-under-revoked"
    }

    let directory: URL
    let rootDER: Data
    /// The transactions, one per leaf, signed at test time.
    private var jws: [Leaf: String] = [:]
    /// Responder URLs by role, for counting.
    let leafResponderURL: String
    let rootResponderURL: String
    let expiringResponderURL: String
    let offlineServer: LoopbackHTTPServer
    /// The misbehaving loopback servers, kept alive for the process.
    private let servers: [LoopbackHTTPServer]

    /// The shared instance, or why it could not be built (the tests then fail with that message).
    static let shared: Result<OCSPTestPKI, any Error> = Result { try OCSPTestPKI() }

    static func get() throws -> OCSPTestPKI { try shared.get() }

    private init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("asv-ocsp-\(ProcessInfo.processInfo.processIdentifier)-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let names = ["root", "leaf", "unrelated", "down", "silent", "other-serial", "http500", "garbage", "large", "expiring", "offline"]
        let ports = Dictionary(uniqueKeysWithValues: zip(names, try FreePorts.take(names.count)))
        func port(_ name: String) -> UInt16 { ports[name] ?? 0 }
        let leafPorts: [Leaf: String] = [
            .good: "leaf", .revoked: "leaf", .unknown: "leaf", .down: "down", .silent: "silent",
            .unrelated: "unrelated", .otherSerial: "other-serial", .http500: "http500", .garbage: "garbage",
            .large: "large", .expiring: "expiring", .offline: "offline",
        ]
        var arguments = [TestPaths.packageRoot.appendingPathComponent("Scripts/make-ocsp-test-pki.sh").path, directory.path, "\(port("root"))", "\(port("leaf"))"]
        for leaf in Leaf.allCases where leaf != .underRevokedIntermediate {
            let status = leaf == .revoked ? "R" : leaf == .unknown ? "-" : "V"
            arguments.append("\(leaf.rawValue):\(port(leafPorts[leaf] ?? "leaf")):\(status)")
        }
        try Self.run("/bin/bash", arguments)
        rootDER = try Data(contentsOf: directory.appendingPathComponent("root.der"))
        leafResponderURL = "http://127.0.0.1:\(port("leaf"))/"
        rootResponderURL = "http://127.0.0.1:\(port("root"))/"
        expiringResponderURL = "http://127.0.0.1:\(port("expiring"))/"

        // The real responders: the root answers for the intermediates itself, a delegated
        // OCSPSigning certificate for the leaves, an unrelated key for `unrelated`, and a responder
        // whose answers are good for one minute only for `expiring`.
        try Self.startResponder(in: directory, port: port("root"), ["-index", "root-index.txt", "-CA", "root.pem", "-rsigner", "root.pem", "-rkey", "root.key", "-ndays", "1"])
        try Self.startResponder(in: directory, port: port("leaf"), ["-index", "intermediate-index.txt", "-CA", "intermediate-cas.pem", "-rsigner", "ocsp-signer.pem", "-rkey", "ocsp-signer.key", "-ndays", "1"])
        try Self.startResponder(in: directory, port: port("unrelated"), ["-index", "intermediate-index.txt", "-CA", "intermediate-cas.pem", "-rsigner", "unrelated.pem", "-rkey", "unrelated.key", "-ndays", "1"])
        try Self.startResponder(in: directory, port: port("expiring"), ["-index", "intermediate-index.txt", "-CA", "intermediate-cas.pem", "-rsigner", "ocsp-signer.pem", "-rkey", "ocsp-signer.key", "-nmin", "1"])

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
        offlineServer = try LoopbackHTTPServer(port: port("offline"), behaviour: .respond(status: 500, body: Data()))
        self.servers = servers

        for leaf in Leaf.allCases {
            jws[leaf] = try signTransaction(leaf: leaf.rawValue, intermediate: leaf == .underRevokedIntermediate ? "intermediate-revoked" : "intermediate")
        }
        for name in ["root", "leaf", "unrelated", "expiring"] {
            // Read the responder's log rather than probing its port: `openssl ocsp` serves one
            // connection at a time, and a probe that connects and closes wedges it.
            guard Self.waitForLog(directory.appendingPathComponent("responder-\(port(name)).log"), containing: "waiting for OCSP client connections") else {
                throw OCSPFixtureError("the openssl ocsp responder '\(name)' did not start listening on 127.0.0.1:\(port(name))")
            }
        }
    }

    /// Waits until `file` contains `text`, for at most five seconds.
    static func waitForLog(_ file: URL, containing text: String) -> Bool {
        let deadline = Date().addingTimeInterval(5)
        while Date() < deadline {
            if let log = try? String(contentsOf: file, encoding: .utf8), log.contains(text) { return true }
            usleep(20_000)
        }
        return false
    }

    func transaction(_ leaf: Leaf) throws -> String {
        guard let text = jws[leaf] else { throw OCSPFixtureError("no JWS for \(leaf)") }
        return text
    }

    /// A verifier trusting the test root, online with `options` (their transport counts requests).
    func verifier(_ options: OCSPOptions) throws -> SignedDataVerifier {
        try SignedDataVerifier(configuration: .init(
            trustedRoots: [try TrustedRoot(derEncoded: rootDER)], bundleId: "com.example.app", environment: .sandbox,
            revocation: .ocsp(options)))
    }

    /// `openssl ocsp` on `port`, inside a watchdog that kills it when this process ends.
    static func startResponder(in directory: URL, port: UInt16, _ arguments: [String]) throws {
        // `openssl ocsp` ignores SIGTERM: the watchdog uses SIGKILL, and setpriv makes the kernel
        // send SIGKILL to the responder if the watchdog itself is killed.
        let pdeath = FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv") ? ["setpriv", "--pdeathsig", "KILL"] : []
        let command = (pdeath + ["openssl", "ocsp", "-port", "\(port)", "-ignore_err"] + arguments).joined(separator: " ")
        let parent = ProcessInfo.processInfo.processIdentifier
        let script = "\(command) >responder-\(port).log 2>&1 & child=$!; trap 'kill -KILL $child 2>/dev/null' EXIT HUP INT TERM; while kill -0 \(parent) 2>/dev/null && kill -0 $child 2>/dev/null; do sleep 0.2; done"
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", script]
        process.currentDirectoryURL = directory
        // Not the test process's own output: `swift test` waits for its pipe to close, so a
        // responder holding it would keep the run (and, through the watchdog, itself) alive.
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
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

    @discardableResult
    static func run(_ executable: String, _ arguments: [String], in directory: URL? = nil) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = directory }
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let text = String(decoding: data, as: UTF8.self)
        guard process.terminationStatus == 0 else {
            throw OCSPFixtureError("\(executable) \(arguments.joined(separator: " ")) failed (\(process.terminationStatus)): \(text)")
        }
        return text
    }
}

struct OCSPFixtureError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// Wraps the real URLSession transport and counts the requests per responder URL.
final class CountingTransport: OCSPTransport, @unchecked Sendable {
    private let lock = NSLock()
    private var counts: [String: Int] = [:]
    private let inner: any OCSPTransport

    init(_ inner: any OCSPTransport = URLSessionOCSPTransport()) { self.inner = inner }

    func post(_ body: Data, to url: URL, timeout: Duration, maximumResponseLength: Int) async throws -> OCSPHTTPResponse {
        lock.withLock { counts[url.absoluteString, default: 0] += 1 }
        return try await inner.post(body, to: url, timeout: timeout, maximumResponseLength: maximumResponseLength)
    }

    func count(_ url: String) -> Int { lock.withLock { counts[url] ?? 0 } }
    var total: Int { lock.withLock { counts.values.reduce(0, +) } }
}

/// A clock the tests move forward.
final class TestClock: @unchecked Sendable {
    private let lock = NSLock()
    private var offset: Int64 = 0
    func setOffset(_ seconds: Int64) { lock.withLock { offset = seconds } }
    var now: Int64 { lock.withLock { offset } + Int64(Date().timeIntervalSince1970.rounded(.down)) }
}
