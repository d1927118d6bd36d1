import AppStoreVerificationTestSupport
import Foundation
import Testing
@testable import AppStoreVerification

/// The receipt side of online mode: app receipts signed by an RSA test PKI shaped like Apple's
/// receipt chain (Scripts/make-ocsp-test-pki.sh with OCSP_TEST_KEYS=rsa), whose certificates name
/// real `openssl ocsp` responders on 127.0.0.1.
final class OCSPReceiptPKI: @unchecked Sendable {
    enum Leaf: String, CaseIterable {
        case good, revoked, down
        /// Under the revoked intermediate.
        case underRevokedIntermediate = "leaf-under-revoked"
    }

    let directory: URL
    let rootDER: Data
    let leafResponderURL: String
    let rootResponderURL: String
    private var receipts: [Leaf: Data] = [:]

    /// Built once, asynchronously, by the first test that asks for it.
    private static let building = Task { () async throws -> OCSPReceiptPKI in try await offThePool { try OCSPReceiptPKI() } }

    static func get() async throws -> OCSPReceiptPKI { try await building.value }

    /// The real responders (listening once built).
    private let responders: [BackgroundProcess]

    private init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("asv-ocsp-receipts-\(ProcessInfo.processInfo.processIdentifier)-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try ProcessRunner.deleteWhenThisProcessEnds(directory)
        let ports = try FreePorts.take(3)
        let (rootPort, leafPort, downPort) = (ports[0], ports[1], ports[2])
        let script = TestPaths.repositoryRoot.appendingPathComponent("Scripts/make-ocsp-test-pki.sh").path
        try OCSPReceiptPKI.run(["env", "OCSP_TEST_KEYS=rsa", "/bin/bash", script, directory.path, "\(rootPort)", "\(leafPort)",
                                "good:\(leafPort):V", "revoked:\(leafPort):R", "down:\(downPort):V"], in: directory)
        rootDER = try Data(contentsOf: directory.appendingPathComponent("root.der"))
        leafResponderURL = "http://127.0.0.1:\(leafPort)/"
        rootResponderURL = "http://127.0.0.1:\(rootPort)/"
        responders = [
            try OpenSSLOCSPResponder.start(in: directory, port: rootPort, ["-index", "root-index.txt", "-CA", "root.pem", "-rsigner", "root.pem", "-rkey", "root.key", "-ndays", "1"]),
            try OpenSSLOCSPResponder.start(in: directory, port: leafPort, ["-index", "intermediate-index.txt", "-CA", "intermediate-cas.pem", "-rsigner", "ocsp-signer.pem", "-rkey", "ocsp-signer.key", "-ndays", "1"]),
        ]
        for leaf in Leaf.allCases {
            receipts[leaf] = try signReceipt(leaf: leaf.rawValue, intermediate: leaf == .underRevokedIntermediate ? "intermediate-revoked" : "intermediate")
        }
    }

    func receipt(_ leaf: Leaf) throws -> Data {
        guard let receipt = receipts[leaf] else { throw FixtureError("no receipt for \(leaf)") }
        return receipt
    }

    /// A verifier whose receipt root is the test root, online with `options`.
    func verifier(_ options: OCSPOptions) throws -> OnlineSignedDataVerifier {
        try OnlineSignedDataVerifier(
            configuration: .init(bundleId: "com.example.app", trustedReceiptRoots: [try TrustedRoot(derEncoded: rootDER)]), revocation: options)
    }

    /// An app receipt signed by `leaf.key` (RSA, SHA-256, no signed attributes, like the App
    /// Store's) embedding [leaf, intermediate, root], created now.
    private func signReceipt(leaf: String, intermediate: String) throws -> Data {
        let payload = DER.set(
            DER.attribute(0, DER.tlv(0x0C, Array("ProductionSandbox".utf8))),
            DER.attribute(2, DER.tlv(0x0C, Array("com.example.app".utf8))),
            DER.attribute(12, DER.tlv(0x16, Array(DateText.iso8601(Date()).utf8))))
        let payloadFile = directory.appendingPathComponent("\(leaf).payload")
        try Data(payload).write(to: payloadFile)
        let signed = directory.appendingPathComponent("\(leaf).p7")
        // `openssl cms` writes the certificates as a DER SET OF, sorted by encoding; App Store
        // receipts list them leaf first, so they are left out here and inserted in that order.
        try Self.run(["openssl", "cms", "-sign", "-binary", "-nodetach", "-noattr", "-nocerts", "-md", "sha256",
                      "-in", payloadFile.path, "-signer", "\(leaf).pem", "-inkey", "\(leaf).key",
                      "-outform", "DER", "-out", signed.path], in: directory)
        let certificates = try [leaf, intermediate, "root"].flatMap { [UInt8](try Data(contentsOf: directory.appendingPathComponent("\($0).der"))) }
        return Data(try DER.insertingCertificates(certificates, into: [UInt8](Data(contentsOf: signed))))
    }

    private static func run(_ arguments: [String], in directory: URL) throws {
        try OCSPTestPKI.run("/usr/bin/env", arguments, in: directory)
    }
}

extension DER {
    /// `pkcs7` (a DER ContentInfo holding a SignedData without certificates) with a `certificates`
    /// field holding `certificates` (DER, concatenated) after the SignedData's contentInfo.
    static func insertingCertificates(_ certificates: [UInt8], into pkcs7: [UInt8]) throws -> [UInt8] {
        var outer = ReceiptDERReader(pkcs7, window: 0..<pkcs7.count)
        var contentInfo = outer.reader(inside: try outer.read(0x30, "ContentInfo"))
        let contentType = try contentInfo.read(0x06, "content type")
        var explicit = contentInfo.reader(inside: try contentInfo.read(0xA0, "content"))
        var signedData = explicit.reader(inside: try explicit.read(0x30, "SignedData"))
        var members: [[UInt8]] = []
        while !signedData.isAtEnd {
            members.append(Array(pkcs7[try signedData.read("member").encoding]))
        }
        guard members.count == 4 else { throw FixtureError("unexpected SignedData shape (\(members.count) members)") }
        members.insert(tlv(0xA0, certificates), at: 3)
        return tlv(0x30, Array(pkcs7[contentType.encoding]) + tlv(0xA0, tlv(0x30, members.flatMap { $0 })))
    }
}

@Suite("OCSP revocation checks of app receipts against a real responder")
struct OCSPReceiptTests {
    let pki: OCSPReceiptPKI

    init() async throws {
        pki = try await OCSPReceiptPKI.get()
    }

    private func options(_ transport: CountingTransport, timeout: Duration = OCSPTestPKI.patientTimeout) -> OCSPOptions {
        OCSPOptions(requestTimeout: timeout, overallDeadline: timeout * 2, transport: transport)
    }

    private func verify(_ leaf: OCSPReceiptPKI.Leaf, _ verifier: OnlineSignedDataVerifier) async throws -> Result<VerificationResult<AppReceipt>, RevocationCheckUnavailable> {
        do {
            return .success(try await verifier.verifyAppReceipt(try pki.receipt(leaf)))
        } catch let error as OnlineVerificationError {
            switch error {
            case .revocationCheckUnavailable(let unavailable): return .failure(unavailable)
            case .decoding(let decoding): throw decoding
            }
        }
    }

    @Test("the minted receipts verify offline (the fixture is sound)")
    func offline() throws {
        let verifier = try SignedDataVerifier(configuration: .init(bundleId: "com.example.app", trustedReceiptRoots: [TrustedRoot(derEncoded: pki.rootDER)]))
        for leaf in OCSPReceiptPKI.Leaf.allCases {
            let result = try verifier.verifyAppReceipt(try pki.receipt(leaf))
            #expect(result.isVerified, "\(leaf): \(String(describing: result.verificationError))")
        }
    }

    @Test("good receipt chain: verified, one request to each responder, then answered from the cache")
    func good() async throws {
        let transport = CountingTransport()
        let verifier = try pki.verifier(options(transport))
        for _ in 0..<20 {
            let result = try await verify(.good, verifier).get()
            #expect(result.isVerified, "\(String(describing: result.verificationError))")
        }
        #expect(transport.count(pki.leafResponderURL) == 1)
        #expect(transport.count(pki.rootResponderURL) == 1)
    }

    @Test("revoked receipt signing certificate: unverified, revokedCertificate naming it")
    func revokedLeaf() async throws {
        let result = try await verify(.revoked, pki.verifier(options(CountingTransport()))).get()
        guard case .unverified(let receipt, .revokedCertificate(let reason)) = result else {
            Issue.record("expected revokedCertificate, got \(result)")
            return
        }
        #expect(receipt.bundleId == "com.example.app")
        #expect(reason.contains("receipt's signing certificate"))
        #expect(reason.contains("keyCompromise"))
    }

    @Test("revoked receipt intermediate: unverified, revokedCertificate naming the intermediate")
    func revokedIntermediate() async throws {
        let result = try await verify(.underRevokedIntermediate, pki.verifier(options(CountingTransport()))).get()
        guard case .unverified(_, .revokedCertificate(let reason)) = result else {
            Issue.record("expected revokedCertificate, got \(result)")
            return
        }
        #expect(reason.contains("intermediate"))
    }

    @Test("responder down: revocationCheckUnavailable is thrown, not a verdict")
    func down() async throws {
        let result = try await verify(.down, pki.verifier(options(CountingTransport())))
        guard case .failure(let unavailable) = result else {
            Issue.record("expected revocationCheckUnavailable, got \(result)")
            return
        }
        #expect(unavailable.code == .unreachable)
    }

    @Test("online, input that is not a receipt is a decoding error, before any request")
    func notAReceipt() async throws {
        let transport = CountingTransport()
        let verifier = try pki.verifier(options(transport))
        await #expect(throws: OnlineVerificationError.self) { _ = try await verifier.verifyAppReceipt(Data([0x30])) }
        #expect(transport.total == 0)
    }

    @Test("the offline verifier sends no request")
    func offlineSendsNothing() throws {
        let verifier = try SignedDataVerifier(configuration: .init(bundleId: "com.example.app", trustedReceiptRoots: [TrustedRoot(derEncoded: pki.rootDER)]))
        let result = try verifier.verifyAppReceipt(try pki.receipt(.down))
        #expect(result.isVerified)
    }
}
