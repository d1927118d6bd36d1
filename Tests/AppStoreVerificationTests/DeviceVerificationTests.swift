import AppStoreVerificationTestSupport
import Foundation
import Testing
@testable import AppStoreVerification

@Suite("Device verification")
struct DeviceVerificationTests {
    // Computed independently with Python: base64(sha384("48ccfa42-...105a" + "9f3a1b2c-...5a6b")).
    static let nonce = "48CCFA42-7431-4F22-9908-7E88983E105A"
    static let device = UUID(uuidString: "9F3A1B2C-4D5E-4F60-8A7B-1C2D3E4F5A6B")!
    static let expected = "DCzOr5K9uJjuXaRGnj1lo/GNB1iZsLIYpSML6ourTLGuqlt25rMUMCadeLVsLdCH"

    static func appTransaction(deviceVerification: String?, nonce: String?) throws -> AppTransaction {
        var object: [String: Any] = ["bundleId": "com.example.app", "receiptType": "Sandbox"]
        object["deviceVerification"] = deviceVerification
        object["deviceVerificationNonce"] = nonce
        return try AppStoreJSON.makeDecoder().decode(AppTransaction.self, from: JSONSerialization.data(withJSONObject: object))
    }

    @Test("the computed value matches an independently computed pair")
    func knownAnswer() throws {
        #expect(try VerificationResult<AppTransaction>.deviceVerification(nonce: Self.nonce, deviceVerificationID: Self.device) == Self.expected)
    }

    @Test("a digest that cannot be computed fails the check instead of comparing a placeholder")
    func digestFailure() throws {
        let payload = try Self.appTransaction(deviceVerification: Self.expected, nonce: Self.nonce)
        let failing: ([UInt8]) throws(OpenSSLFailure) -> [UInt8] = { _ throws(OpenSSLFailure) in throw OpenSSLFailure(message: "no SHA-384 provider") }
        let result = VerificationResult<AppTransaction>.verified(payload).verifyingDevice(Self.device, sha384: failing)
        guard case .unverified(_, .invalidDeviceVerification(let reason)) = result else {
            Issue.record("expected invalidDeviceVerification, got \(result)")
            return
        }
        #expect(reason.contains("no SHA-384 provider"))
        // A digest of zeros, what the unchecked call returned before, never matches by accident either.
        let zeros: ([UInt8]) throws(OpenSSLFailure) -> [UInt8] = { _ in [UInt8](repeating: 0, count: 48) }
        #expect(!VerificationResult<AppTransaction>.verified(payload).verifyingDevice(Self.device, sha384: zeros).isVerified)
    }

    @Test("a matching device keeps the result verified; another device makes it unverified")
    func matchAndMismatch() throws {
        let payload = try Self.appTransaction(deviceVerification: Self.expected, nonce: Self.nonce)
        let verified = VerificationResult<AppTransaction>.verified(payload)
        #expect(verified.verifyingDevice(Self.device).isVerified)
        let other = verified.verifyingDevice(UUID())
        #expect(other.verificationError?.code == .invalidDeviceVerification)
    }

    @Test("a payload without device verification fields cannot be tied to a device")
    func missingFields() throws {
        let payload = try Self.appTransaction(deviceVerification: nil, nonce: nil)
        #expect(VerificationResult<AppTransaction>.verified(payload).verifyingDevice(Self.device).verificationError?.code == .invalidDeviceVerification)
    }

    @Test("an unverified result stays unverified with its original error")
    func unverifiedStays() throws {
        let payload = try Self.appTransaction(deviceVerification: Self.expected, nonce: Self.nonce)
        let result = VerificationResult<AppTransaction>.unverified(payload, .invalidSignature("x")).verifyingDevice(Self.device)
        #expect(result.verificationError == .invalidSignature("x"))
    }

    @Test("Xcode-signed transactions carry the fields in the documented format", .enabled(if: TestPaths.sharedIsPresent, sharedAbsentComment))
    func xcodeFieldFormats() throws {
        let jws = try TestPaths.text(TestPaths.sharedFile("vectors/apple/xcode/xcode-signed-transaction"))
        let payload = try AppStoreJSON.makeDecoder().decode(Transaction.self, from: try CompactJWS(parsing: jws).payloadData)
        #expect(UUID(uuidString: try #require(payload.deviceVerificationNonce)) != nil)
        #expect(Data(base64Encoded: try #require(payload.deviceVerification))?.count == 48)
    }
}
