import AppStoreVerificationTestSupport
import Foundation
import Testing
@testable import AppStoreVerification
import AppStoreVerificationTesting

/// Apple's own data from `../shared`: the real App Store chain, a real sandbox renewal info, the
/// mock signed data of Apple's library tests, and Xcode-signed data.
@Suite("Apple's data", .enabled(if: TestPaths.sharedIsPresent, sharedAbsentComment))
struct AppleVectorTests {
    struct RealChain: Decodable {
        var x5c: [String]
        var effectiveDate: Int64
    }

    static func realChain() throws -> (certificates: [Data], effectiveDate: Int64) {
        let data = try Data(contentsOf: TestPaths.sharedFile("vectors/apple/real-chain.json"))
        let chain = try JSONDecoder().decode(RealChain.self, from: data)
        return (try chain.x5c.map { try #require(Data(base64Encoded: $0)) }, chain.effectiveDate)
    }

    @Test("the real Apple chain validates strictly against the embedded root at its effective date")
    func realChainValidates() throws {
        let (certificates, effectiveDate) = try Self.realChain()
        let policy = AppleChainPolicy(trustStore: try TrustStore(roots: [.appleRootCAG3]), rules: .appStoreSignedData, strict: true)
        let chain = try policy.validate(certificates, at: EffectiveInstant(seconds: effectiveDate, origin: "test"))
        #expect(chain.validity.contains(effectiveDate))
    }

    @Test("the real Apple chain fails one second after the leaf's notAfter, and names the date")
    func realChainExpires() throws {
        let (certificates, _) = try Self.realChain()
        let leafValidity = try X509Certificate(derEncoded: certificates[0]).validity()
        let notAfter = Int64(leafValidity.upperBound.timeIntervalSince1970)
        let policy = AppleChainPolicy(trustStore: try TrustStore(roots: [.appleRootCAG3]), rules: .appStoreSignedData, strict: true)
        #expect(throws: Never.self) { try policy.validate(certificates, at: EffectiveInstant(seconds: notAfter - 1, origin: "test")) }
        let reason: String
        do {
            _ = try policy.validate(certificates, at: EffectiveInstant(seconds: notAfter + 1, origin: "test"))
            Issue.record("expected an expired chain")
            return
        } catch {
            guard case .invalidCertificateChain(let message) = error else {
                Issue.record("expected invalidCertificateChain, got \(error)")
                return
            }
            reason = message
        }
        #expect(reason.contains("expired"))
        #expect(reason.contains(DateText.iso8601(leafValidity.upperBound)))
    }

    @Test("the real chain is refused when only the test root is trusted")
    func realChainNeedsAppleRoot() throws {
        let (certificates, effectiveDate) = try Self.realChain()
        let policy = AppleChainPolicy(trustStore: try TrustStore(roots: [.testRoot()]), rules: .appStoreSignedData, strict: true)
        #expect(throws: VerificationError.self) { try policy.validate(certificates, at: EffectiveInstant(seconds: effectiveDate, origin: "test")) }
    }

    /// 2030-01-01T00:00:00Z: after the real 2023 vectors' leaves and the Xcode certificate expired,
    /// before Apple's roots do; the "now" of the tests that check expiry at now.
    static let later = AppStoreClock.manual(ManualClock(date: Date(timeIntervalSince1970: 1_893_456_000)))

    @Test("a real Apple-signed sandbox renewal info verifies at its signedDate and fails as expired now (2030)")
    func realSandboxRenewalInfo() throws {
        let jws = try TestPaths.text(TestPaths.sharedFile("vectors/real/sandbox-renewal-info-2023.jws"))
        let verifier = try SignedDataVerifier(configuration: .init(environment: .sandbox))
        let result = try verifier.verifyRenewalInfo(jws)
        #expect(result.isVerified, "\(String(describing: result.verificationError))")
        #expect(result.unsafePayloadValue.environment == .sandbox)

        let now = try SignedDataVerifier(configuration: .init(environment: .sandbox, effectiveDate: .now, clock: Self.later))
        let expired = try now.verifyRenewalInfo(jws)
        guard case .unverified(_, .invalidCertificateChain(let reason)) = expired else {
            Issue.record("expected an expired chain, got \(expired)")
            return
        }
        #expect(reason.contains("expired"))
    }

    static func mockVerifier(bundleId: String = "com.example", environment: AppStoreEnvironment = .sandbox) throws -> SignedDataVerifier {
        let testCA = try TrustedRoot(derEncoded: Data(contentsOf: TestPaths.sharedFile("vectors/apple/certs/testCA.der")))
        return try SignedDataVerifier(configuration: .init(
            trustedRoots: [testCA], bundleId: bundleId, appAppleId: 1234, environment: environment, strictChecks: false))
    }

    static func mock(_ name: String) throws -> String {
        try TestPaths.text(TestPaths.sharedFile("vectors/apple/mock_signed_data/\(name)"))
    }

    @Test("Apple's mock transaction passes chain and signature with the test CA trusted (its x5c[2] differs from testCA.der), and is missingRequiredProperties: it carries only environment, bundleId and signedDate")
    func mockTransaction() throws {
        let verifier = try Self.mockVerifier()
        let jws = try Self.mock("transactionInfo")
        let result = try verifier.verifyTransaction(jws)
        // The required-members check runs after the header, chain and signature checks, so this
        // error means all three passed.
        guard case .unverified(let transaction, .missingRequiredProperties(let reason)) = result else {
            Issue.record("expected missingRequiredProperties, got \(result)")
            return
        }
        #expect(reason.contains("transactionId") && !reason.contains("bundleId") && !reason.contains("signedDate"))
        #expect(transaction.missingRequiredMembers == ["transactionId", "originalTransactionId", "productId", "purchaseDate", "type"])
        // x5c[2] is informational: it is not the trusted certificate's bytes.
        let header = try JWSHeader(of: try CompactJWS(parsing: jws))
        #expect(header.certificateChain?[2] != (try Data(contentsOf: TestPaths.sharedFile("vectors/apple/certs/testCA.der"))))
    }

    @Test("Apple's mock data needs the relaxed X.509 mode: strict mode refuses the test CA")
    func mockNeedsRelaxedMode() throws {
        let testCA = try TrustedRoot(derEncoded: Data(contentsOf: TestPaths.sharedFile("vectors/apple/certs/testCA.der")))
        let strict = try SignedDataVerifier(configuration: .init(trustedRoots: [testCA], bundleId: "com.example", environment: .sandbox))
        let result = try strict.verifyTransaction(try Self.mock("transactionInfo"))
        #expect(result.verificationError?.code == .invalidCertificateChain)
    }

    @Test("Apple's mock renewal info and test notification verify")
    func mockRenewalAndNotification() throws {
        let verifier = try Self.mockVerifier()
        #expect(try verifier.verifyRenewalInfo(try Self.mock("renewalInfo")).isVerified)
        let notification = try verifier.verifyNotification(try Self.mock("testNotification"))
        #expect(notification.isVerified, "\(String(describing: notification.verificationError))")
        #expect(notification.unsafePayloadValue.notificationType == .test)
    }

    @Test("Apple's wrongBundleId notification fails the bundle check")
    func mockWrongBundleId() throws {
        let result = try Self.mockVerifier().verifyNotification(try Self.mock("wrongBundleId"))
        #expect(result.verificationError?.code == .invalidAppIdentifier)
    }

    @Test("Apple's missingX5CHeaderClaim notification fails")
    func mockMissingX5C() throws {
        let result = try Self.mockVerifier().verifyNotification(try Self.mock("missingX5CHeaderClaim"))
        #expect(result.verificationError?.code == .invalidCertificateChain)
    }

    @Test("Apple's legacy receipt fragment is not a JWS")
    func mockLegacyTransaction() throws {
        #expect(throws: SignedDataDecodingError.self) { try Self.mockVerifier().verifyTransaction(try Self.mock("legacyTransaction")) }
    }

    // MARK: Xcode

    static func xcode(_ name: String) throws -> String {
        try TestPaths.text(TestPaths.sharedFile("vectors/apple/xcode/\(name)"))
    }

    /// The "StoreKit Testing in Xcode" certificate, taken from an Xcode-signed file as a developer
    /// would export it from Xcode.
    static func xcodeCertificate() throws -> TrustedRoot {
        let header = try JWSHeader(of: try CompactJWS(parsing: try xcode("xcode-signed-transaction")))
        return try TrustedRoot(derEncoded: try #require(header.certificateChain?.first))
    }

    @Test("Xcode-signed data verifies against the exported Xcode certificate, and never without it")
    func xcodeData() throws {
        let trusting = try SignedDataVerifier(configuration: .init(
            bundleId: "com.example.naturelab.backyardbirds.example", xcodeCertificate: try Self.xcodeCertificate()))
        let plain = try SignedDataVerifier(configuration: .init(bundleId: "com.example.naturelab.backyardbirds.example"))

        let transaction = try trusting.verifyTransaction(try Self.xcode("xcode-signed-transaction"))
        #expect(transaction.isVerified, "\(String(describing: transaction.verificationError))")
        #expect(transaction.unsafePayloadValue.environment == .xcode)
        #expect(transaction.unsafePayloadValue.deviceVerificationNonce == "7edea87d-98f0-42d0-9682-49ca81022f73")
        let renewal = try trusting.verifyRenewalInfo(try Self.xcode("xcode-signed-renewal-info"))
        #expect(renewal.isVerified, "\(String(describing: renewal.verificationError))")
        // Fractional milliseconds survive.
        let renewalDate = try #require(renewal.unsafePayloadValue.renewalDate)
        #expect(abs(renewalDate.timeIntervalSince1970 * 1000 - 1700358336049.7297) < 0.01)
        let appTransaction = try trusting.verifyAppTransaction(try Self.xcode("xcode-signed-app-transaction"))
        #expect(appTransaction.isVerified, "\(String(describing: appTransaction.verificationError))")

        let refused = try plain.verifyTransaction(try Self.xcode("xcode-signed-transaction"))
        guard case .unverified(_, .invalidCertificateChain(let reason)) = refused else {
            Issue.record("Xcode data must not verify without the Xcode certificate: \(refused)")
            return
        }
        #expect(reason.contains("xcodeCertificate"))
    }

    @Test("Xcode data checked after the Xcode certificate expired is refused")
    func xcodeCertificateExpiry() throws {
        let verifier = try SignedDataVerifier(configuration: .init(effectiveDate: .now, xcodeCertificate: try Self.xcodeCertificate(), clock: Self.later))
        let result = try verifier.verifyTransaction(try Self.xcode("xcode-signed-transaction"))
        #expect(result.verificationError?.code == .invalidCertificateChain)
    }

    @Test("the Xcode certificate does not vouch for data claiming another environment")
    func xcodeCertificateOnlyForXcode() throws {
        // The real sandbox renewal info, checked by a verifier that trusts only the Xcode certificate.
        let verifier = try SignedDataVerifier(configuration: .init(
            trustedRoots: [try .testRoot()], xcodeCertificate: try Self.xcodeCertificate()))
        let result = try verifier.verifyRenewalInfo(try TestPaths.text(TestPaths.sharedFile("vectors/real/sandbox-renewal-info-2023.jws")))
        #expect(result.verificationError?.code == .invalidCertificateChain)
    }

    @Test("Xcode app receipts (PKCS #7, not JWS) are refused as malformed")
    func xcodeReceipts() throws {
        let verifier = try SignedDataVerifier()
        for name in ["xcode-app-receipt-empty", "xcode-app-receipt-with-transaction"] {
            #expect(throws: SignedDataDecodingError.self) { try verifier.verifyAppTransaction(try Self.xcode(name)) }
        }
    }
}
