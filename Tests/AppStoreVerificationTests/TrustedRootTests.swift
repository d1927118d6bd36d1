import AppStoreVerificationTestSupport
import Foundation
import Testing
@testable import AppStoreVerification

@Suite("Trusted roots")
struct TrustedRootTests {
    @Test("the embedded Apple Root CA - G3 has Apple's published SHA-256 fingerprint")
    func embeddedRootFingerprint() throws {
        #expect(TrustedRoot.appleRootCAG3.sha256Fingerprint
            == "63:34:3A:BF:B8:9A:6A:03:EB:B5:7E:9B:3F:5F:A7:BE:7C:4F:5C:75:6F:30:17:B3:A8:C4:88:C3:65:3E:91:79")
        let parsed = try TrustedRoot(derEncoded: TrustedRoot.appleRootCAG3.derEncoded)
        #expect(parsed.name.contains("Apple Root CA - G3"))
    }

    @Test("the embedded root is byte-identical to Apple's published certificate", .enabled(if: TestPaths.sharedIsPresent, sharedAbsentComment))
    func embeddedRootMatchesPublishedFile() throws {
        let published = try Data(contentsOf: TestPaths.sharedFile("apple/AppleRootCA-G3.cer"))
        #expect(published == TrustedRoot.appleRootCAG3.derEncoded)
    }

    @Test("a verifier trusts the embedded root by default")
    func defaultConfiguration() {
        #expect(SignedDataVerifier.Configuration().trustedRoots == [.appleRootCAG3])
    }

    @Test("PEM text with several certificates yields every root; DER and PEM files both load")
    func pemAndFiles() throws {
        let der = try Data(contentsOf: TestPaths.testVector("pki/root.der"))
        let other = try Data(contentsOf: TestPaths.testVector("pki/other-root.der"))
        func pem(_ data: Data) -> String {
            let body = data.base64EncodedString(options: [.lineLength64Characters, .endLineWithLineFeed])
            return "-----BEGIN CERTIFICATE-----\n\(body)\n-----END CERTIFICATE-----\n"
        }
        let roots = try TrustedRoot.roots(pemEncoded: "junk before\n" + pem(der) + pem(other))
        #expect(roots.map(\.derEncoded) == [der, other])

        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(UUID().uuidString)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let pemFile = directory.appendingPathComponent("roots.pem")
        try Data((pem(der) + pem(other)).utf8).write(to: pemFile)
        #expect(try TrustedRoot.roots(contentsOf: pemFile).count == 2)
        #expect(try TrustedRoot.roots(contentsOf: TestPaths.testVector("pki/root.der")).map(\.derEncoded) == [der])
    }

    @Test("bad root input is a configuration error, never a crash")
    func badRoots() throws {
        let der = try Data(contentsOf: TestPaths.testVector("pki/root.der"))
        for bad in [Data(), Data([0x30]), der.prefix(100), der + Data([0, 0]), Data(repeating: 0xFF, count: 5000)] {
            #expect(throws: VerifierConfigurationError.self) { try TrustedRoot(derEncoded: Data(bad)) }
        }
        #expect(throws: VerifierConfigurationError.self) { try TrustedRoot.roots(pemEncoded: "no certificate here") }
        #expect(throws: VerifierConfigurationError.self) {
            try TrustedRoot.roots(pemEncoded: "-----BEGIN CERTIFICATE-----\n!!!!\n-----END CERTIFICATE-----")
        }
        #expect(throws: VerifierConfigurationError.self) {
            try SignedDataVerifier(configuration: .init(trustedRoots: []))
        }
    }

    @Test("Production without an App Apple ID is refused, as in Apple's library")
    func productionNeedsAppAppleId() {
        #expect(throws: VerifierConfigurationError.self) {
            try SignedDataVerifier(configuration: .init(bundleId: "com.example.app", environment: .production))
        }
        #expect(throws: Never.self) {
            try SignedDataVerifier(configuration: .init(bundleId: "com.example.app", appAppleId: 1, environment: .production))
        }
    }
}
