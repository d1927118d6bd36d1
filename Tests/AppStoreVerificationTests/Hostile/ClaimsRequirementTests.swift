import AppStoreVerificationTestSupport
import Foundation
import Testing
@testable import AppStoreVerification

/// Every kind of signed data runs every claims check it carries: a payload signed by a trusted
/// chain but naming another bundle, another app or another environment is refused, whatever its
/// kind. The checks are requirements of ``AppIdentityClaiming`` without defaults, so a new kind
/// cannot skip them; this test fails when a kind is added without a case here.
@Suite("Claims checks run for every kind of signed data")
struct ClaimsRequirementTests {
    static let good = (bundle: "\"com.example.app\"", app: "1234567890", environment: "\"Sandbox\"")
    static let bad = (bundle: "\"com.example.other\"", app: "987", environment: "\"Production\"")

    /// The payload of `kind` with the given bundle ID, App Apple ID and environment (raw JSON), for
    /// the members that kind carries.
    static func payload(_ kind: SignedPayloadKind, bundle: String, app: String, environment: String) -> String? {
        switch kind {
        case .transaction:
            return MintedJWS.transaction(["bundleId": bundle, "environment": environment])
        case .renewalInfo:
            return "{\"originalTransactionId\":\"1\",\"productId\":\"p\",\"environment\":\(environment),\"signedDate\":1772366400000}"
        case .appTransaction:
            return "{\"bundleId\":\(bundle),\"appAppleId\":\(app),\"receiptType\":\(environment),\"receiptCreationDate\":1772366400000,\"signedDate\":1772366400000,\"applicationVersion\":\"1\"}"
        case .realtimeRequest:
            return "{\"originalTransactionId\":\"1\",\"appAppleId\":\(app),\"productId\":\"p\",\"userLocale\":\"en-US\",\"requestIdentifier\":\"r\",\"environment\":\(environment),\"signedDate\":1772366400000}"
        case .notification:
            return "{\"notificationType\":\"TEST\",\"notificationUUID\":\"u\",\"version\":\"2.0\",\"signedDate\":1772366400000,\"data\":{\"bundleId\":\(bundle),\"appAppleId\":\(app),\"environment\":\(environment)}}"
        case .appReceipt:
            return nil  // PKCS#7: the receipt vectors below
        }
    }

    /// Which checks a kind carries: (bundle, app, environment).
    static func carries(_ kind: SignedPayloadKind) -> (bundle: Bool, app: Bool, environment: Bool) {
        switch kind {
        case .transaction: (true, false, true)
        case .renewalInfo: (false, false, true)
        case .realtimeRequest: (false, true, true)
        default: (true, true, true)
        }
    }

    func verify(_ kind: SignedPayloadKind, _ jws: String, _ verifier: SignedDataVerifier) throws -> VerificationError? {
        switch kind {
        case .transaction: try verifier.verifyTransaction(jws).verificationError
        case .renewalInfo: try verifier.verifyRenewalInfo(jws).verificationError
        case .appTransaction: try verifier.verifyAppTransaction(jws).verificationError
        case .realtimeRequest: try verifier.verifyRealtimeRequest(jws).verificationError
        default: try verifier.verifyNotification(jws).verificationError
        }
    }

    @Test("each JWS kind: verified as claimed, refused for another bundle, app or environment",
          arguments: SignedPayloadKind.allCases.filter { $0 != .appReceipt })
    func jwsKind(_ kind: SignedPayloadKind) throws {
        let minted = try MintedJWS()
        let verifier = try SignedDataVerifier(configuration: .init(
            trustedRoots: [try TrustedRoot(derEncoded: minted.pki.rootDER)], bundleId: "com.example.app", appAppleId: 1234567890,
            environment: .sandbox, effectiveDate: .now))
        let good = try #require(Self.payload(kind, bundle: Self.good.bundle, app: Self.good.app, environment: Self.good.environment), "\(kind) has no payload here: add it")
        #expect(try verify(kind, try minted.sign(good), verifier) == nil, "\(kind) as claimed")
        let carried = Self.carries(kind)
        let cases: [(Bool, String, String, String, String)] = [
            (carried.bundle, Self.bad.bundle, Self.good.app, Self.good.environment, "invalidAppIdentifier"),
            (carried.app, Self.good.bundle, Self.bad.app, Self.good.environment, "invalidAppIdentifier"),
            (carried.environment, Self.good.bundle, Self.good.app, Self.bad.environment, "invalidEnvironment"),
        ]
        for (isCarried, bundle, app, environment, code) in cases {
            let payload = try #require(Self.payload(kind, bundle: bundle, app: app, environment: environment))
            let error = try verify(kind, try minted.sign(payload), verifier)
            if isCarried {
                #expect(error?.code.description == code, "\(kind) with \(bundle) \(app) \(environment): \(String(describing: error))")
            } else {
                #expect(error == nil, "\(kind) carries no such claim, yet: \(String(describing: error))")
            }
        }
    }

    @Test("a transaction lacking a required member is missingRequiredProperties")
    func requiredMembers() throws {
        let minted = try MintedJWS()
        let payload = MintedJWS.transaction().replacingOccurrences(of: "\"transactionId\":\"2000000123456789\",", with: "")
        let error = try minted.verifier().verifyTransaction(try minted.sign(payload)).verificationError
        #expect(error?.code == .missingRequiredProperties, "\(String(describing: error))")
    }

    @Test("app receipts: refused for another bundle and another environment", arguments: [
        ("wrong-bundle-id", "invalidAppIdentifier"), ("wrong-environment", "invalidEnvironment"),
    ])
    func receipts(_ vector: String, _ code: String) throws {
        let verifier = try SignedDataVerifier(configuration: .init(
            bundleId: "com.example.app", environment: .sandbox,
            trustedReceiptRoots: [try TrustedRoot(derEncoded: Data(contentsOf: TestPaths.testVector("receipts/pki/root.der")))]))
        let result = try verifier.verifyAppReceipt(Data(contentsOf: TestPaths.testVector("receipts/\(vector).der")))
        #expect(result.verificationError?.code.description == code, "\(String(describing: result.verificationError))")
    }
}
