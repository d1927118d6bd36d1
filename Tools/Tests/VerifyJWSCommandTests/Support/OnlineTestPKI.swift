import AppStoreVerificationTesting
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The `--online` tests' world, built once per test process with the repository's
/// Scripts/make-ocsp-test-pki.sh: a P-256 PKI for transactions and an RSA one for app receipts,
/// each with the leaves good, revoked and down, and real `openssl ocsp` responders on loopback
/// (each PKI's root answers for its intermediates, a delegated signer for its leaves); `down`
/// names a port nobody listens on.
///
/// The responders are killed, and the directory (it holds private keys) deleted, when the test
/// process ends, however it ends (``ProcessLifeline``).
final class OnlineTestPKI: Sendable {
    enum Leaf: String, CaseIterable {
        case good, revoked, down
    }

    private let directory: URL
    /// The roots to pass to `--root`.
    let rootFile: String
    let receiptRootFile: String
    private let transactions: [Leaf: String]
    private let receipts: [Leaf: Data]

    static let shared: Result<OnlineTestPKI, any Error> = Result { try OnlineTestPKI() }

    static func get() throws -> OnlineTestPKI { try shared.get() }

    /// One signed transaction (the payload of TestVectors' transaction-valid) per leaf.
    func transaction(_ leaf: Leaf) throws -> String {
        guard let jws = transactions[leaf] else { throw FixtureError("no transaction for \(leaf)") }
        return jws
    }

    /// One app receipt (DER, created now) per leaf.
    func receipt(_ leaf: Leaf) throws -> Data {
        guard let receipt = receipts[leaf] else { throw FixtureError("no receipt for \(leaf)") }
        return receipt
    }

    private init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("verify-jws-ocsp-\(getpid())-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try ProcessLifeline.deleteWhenThisProcessEnds(directory)
        let ports = try FreePorts.take(5)
        let downPort = ports[4]
        let jws = directory.appendingPathComponent("jws"), rsa = directory.appendingPathComponent("receipts")
        var responderPorts: [UInt16] = []
        for (pki, keys, rootPort, leafPort) in [(jws, "ec", ports[0], ports[1]), (rsa, "rsa", ports[2], ports[3])] {
            let script = TestPaths.repositoryRoot.appendingPathComponent("Scripts/make-ocsp-test-pki.sh").path
            try Self.run(["OCSP_TEST_KEYS=\(keys)", "/bin/bash", script, pki.path, "\(rootPort)", "\(leafPort)",
                          "good:\(leafPort):V", "revoked:\(leafPort):R", "down:\(downPort):V"])
            try Self.startResponder(in: pki, port: rootPort, ["-index", "root-index.txt", "-CA", "root.pem", "-rsigner", "root.pem", "-rkey", "root.key"])
            try Self.startResponder(in: pki, port: leafPort, ["-index", "intermediate-index.txt", "-CA", "intermediate-cas.pem", "-rsigner", "ocsp-signer.pem", "-rkey", "ocsp-signer.key"])
            responderPorts += [rootPort, leafPort]
        }
        rootFile = jws.appendingPathComponent("root.der").path
        receiptRootFile = rsa.appendingPathComponent("root.der").path

        // Signed with the Testing product's minter, from a PKI directory per leaf in its layout:
        // the P-256 chain signs JWS, the RSA chain receipts.
        let vector = try TestPaths.text(TestPaths.testVector("jws/transaction-valid.jws"))
        guard let payload = base64URLDecoded(String(vector.split(separator: ".")[1])) else { throw FixtureError("transaction-valid.jws has no payload") }
        let receiptJSON = Data(#"{"environment":"ProductionSandbox","bundleId":"com.example.app","receiptCreationDate":\#(Int64(Date().timeIntervalSince1970) * 1000)}"#.utf8)
        var transactions: [Leaf: String] = [:], receipts: [Leaf: Data] = [:]
        for leaf in Leaf.allCases {
            let minterDirectory = directory.appendingPathComponent("minter-\(leaf.rawValue)")
            try FileManager.default.createDirectory(at: minterDirectory, withIntermediateDirectories: true)
            for (prefix, pki) in [("", jws), ("receipt-", rsa)] {
                for (name, source) in [("root.der", "root.der"), ("intermediate.der", "intermediate.der"),
                                       ("leaf.der", "\(leaf.rawValue).der"), ("leaf.key", "\(leaf.rawValue).key")] {
                    try FileManager.default.copyItem(at: pki.appendingPathComponent(source), to: minterDirectory.appendingPathComponent(prefix + name))
                }
            }
            let minter = try SignedDataMinter(pki: TestPKI(contentsOf: minterDirectory))
            transactions[leaf] = try minter.sign(payloadJSON: payload)
            receipts[leaf] = try minter.appReceipt(json: receiptJSON)
        }
        self.transactions = transactions
        self.receipts = receipts

        for port in responderPorts {
            try Self.waitUntilAnswering(port: port, log: directory.appendingPathComponent("responder-\(port).log"))
        }
    }

    /// `openssl ocsp` on `port`, answering from `directory`'s files, killed when this process ends.
    private static func startResponder(in directory: URL, port: UInt16, _ arguments: [String]) throws {
        try ProcessLifeline.startKilledWhenThisProcessEnds(["openssl", "ocsp", "-port", "\(port)", "-ignore_err", "-ndays", "1"] + arguments,
                                                           in: directory, log: directory.deletingLastPathComponent().appendingPathComponent("responder-\(port).log").path)
    }

    /// Waits until the responder on `port` answers an HTTP request, retrying while nothing listens.
    private static func waitUntilAnswering(port: UInt16, log: URL) throws {
        let deadline = Date().addingTimeInterval(60)
        while !answers(port: port) {
            guard Date() < deadline else {
                let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
                throw FixtureError("the openssl ocsp responder on 127.0.0.1:\(port) never answered: \(text)")
            }
            usleep(10_000)
        }
    }

    /// Whether an HTTP server on 127.0.0.1:`port` answers `GET /` (a full exchange, read to its
    /// end: `openssl ocsp` serves one connection at a time, and one closed without a request
    /// wedges it). The responder answers it with an OCSP malformedRequest and goes on serving.
    private static func answers(port: UInt16) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var timeout = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
        }
        guard connected else { return false }
        let request = Array("GET / HTTP/1.0\r\n\r\n".utf8)
        guard send(fd, request, request.count, Int32(MSG_NOSIGNAL)) == request.count else { return false }
        var answer: [UInt8] = [], buffer = [UInt8](repeating: 0, count: 1024)
        while true {
            let count = recv(fd, &buffer, buffer.count, 0)
            guard count > 0 else { break }
            answer += buffer[..<count]
        }
        return answer.starts(with: Array("HTTP/1.".utf8))
    }

    /// Runs `/usr/bin/env arguments`; throws with its output when it fails.
    private static func run(_ arguments: [String]) throws {
        let run = try ProcessRunner.run("/usr/bin/env", arguments)
        guard run.status == 0 else {
            throw FixtureError("\(arguments.joined(separator: " ")) failed (\(run.status)): \(run.output)")
        }
    }
}

struct FixtureError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
