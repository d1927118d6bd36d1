import AppStoreVerificationTestSupport
import AppStoreVerificationTesting
import Foundation

/// The `--online` tests' world, built once per test process with the repository's
/// Scripts/make-ocsp-test-pki.sh: a P-256 PKI for transactions and an RSA one for app receipts,
/// each with the leaves good, revoked and down, and real `openssl ocsp` responders on loopback
/// (each PKI's root answers for its intermediates, a delegated signer for its leaves); `down`
/// names a port nobody listens on.
///
/// The responders (``OpenSSLOCSPResponder``) are killed, and the directory (it holds private keys)
/// deleted, when the test process ends, however it ends.
final class OnlineTestPKI: Sendable {
    enum Leaf: String, CaseIterable {
        case good, revoked, down
    }

    private let directory: URL
    /// The roots to pass to `--root`.
    let rootFile: String
    let receiptRootFile: String
    private let transactions: [Leaf: String]
    /// The real responders, listening.
    private let responders: [BackgroundProcess]
    private let receipts: [Leaf: Data]

    /// Built once, by the first test that asks, off the cooperative pool (it runs processes).
    private static let building = Task { () async throws -> OnlineTestPKI in try await offThePool { try OnlineTestPKI() } }

    static func get() async throws -> OnlineTestPKI { try await building.value }

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
        try ProcessRunner.deleteWhenThisProcessEnds(directory)
        let ports = try FreePorts.take(5)
        let downPort = ports[4]
        let jws = directory.appendingPathComponent("jws"), rsa = directory.appendingPathComponent("receipts")
        var responders: [BackgroundProcess] = []
        for (pki, keys, rootPort, leafPort) in [(jws, "ec", ports[0], ports[1]), (rsa, "rsa", ports[2], ports[3])] {
            let script = TestPaths.repositoryRoot.appendingPathComponent("Scripts/make-ocsp-test-pki.sh").path
            try Self.run(["OCSP_TEST_KEYS=\(keys)", "/bin/bash", script, pki.path, "\(rootPort)", "\(leafPort)",
                          "good:\(leafPort):V", "revoked:\(leafPort):R", "down:\(downPort):V"])
            responders.append(try OpenSSLOCSPResponder.start(in: pki, port: rootPort, ["-ndays", "1", "-index", "root-index.txt", "-CA", "root.pem", "-rsigner", "root.pem", "-rkey", "root.key"]))
            responders.append(try OpenSSLOCSPResponder.start(in: pki, port: leafPort, ["-ndays", "1", "-index", "intermediate-index.txt", "-CA", "intermediate-cas.pem", "-rsigner", "ocsp-signer.pem", "-rkey", "ocsp-signer.key"]))
        }
        self.responders = responders
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
    }

    /// Runs `/usr/bin/env arguments`; throws with its output when it fails.
    private static func run(_ arguments: [String]) throws {
        let run = try ProcessRunner.run("/usr/bin/env", arguments)
        guard run.status == 0 else {
            throw FixtureError("\(arguments.joined(separator: " ")) failed (\(run.status)): \(run.output)")
        }
    }
}
