import Foundation

/// A payload that carries StoreKit's device verification fields.
public protocol DeviceVerifiable: SignedPayload {
    /// Base64 of SHA-384 over the lowercased ``deviceVerificationNonce`` followed by the lowercased
    /// device verification ID of the device the data was signed for.
    var deviceVerification: String? { get }
    /// The UUID mixed into ``deviceVerification``.
    var deviceVerificationNonce: String? { get }
}

extension Transaction: DeviceVerifiable {}
extension RenewalInfo: DeviceVerifiable {}
extension AppTransaction: DeviceVerifiable {}

extension VerificationResult where SignedType: DeviceVerifiable {
    /// Checks that the payload was signed for the device with `deviceVerificationID`
    /// (`AppStore.deviceVerificationID` on that device, sent by your app).
    ///
    /// Apple's procedure: SHA-384 of the ASCII text of the lowercased `deviceVerificationNonce`
    /// followed by the lowercased device verification ID, base64-encoded, must equal
    /// `deviceVerification`. A verified result whose check fails becomes
    /// `.unverified(_, .invalidDeviceVerification)`; an unverified result stays as it is.
    public func verifyingDevice(_ deviceVerificationID: UUID) -> VerificationResult<SignedType> {
        verifyingDevice(deviceVerificationID, sha384: { (bytes) throws(OpenSSLFailure) in try Digest.sha384(bytes) })
    }

    /// ``verifyingDevice(_:)`` with the digest function given (tests substitute a failing one).
    func verifyingDevice(_ deviceVerificationID: UUID, sha384: ([UInt8]) throws(OpenSSLFailure) -> [UInt8]) -> VerificationResult<SignedType> {
        guard case .verified(let payload) = self else { return self }
        guard let expected = payload.deviceVerification, let nonce = payload.deviceVerificationNonce else {
            return .unverified(payload, .invalidDeviceVerification("The payload has no deviceVerification and deviceVerificationNonce, so it cannot be tied to a device. StoreKit includes them in data it gives the app; data from the App Store Server API or notifications has none."))
        }
        let computed: String
        do {
            computed = try Self.deviceVerification(nonce: nonce, deviceVerificationID: deviceVerificationID, sha384: sha384)
        } catch {
            return .unverified(payload, .invalidDeviceVerification("The device check could not be computed: \(error.message). Nothing was compared, so the payload is not tied to this device."))
        }
        guard Self.constantTimeEqual(Array(computed.utf8), Array(expected.utf8)) else {
            return .unverified(payload, .invalidDeviceVerification("The payload's deviceVerification does not match device verification ID \(deviceVerificationID.uuidString.lowercased()) with nonce \(nonce.lowercased()): the data was signed for another device."))
        }
        return self
    }

    /// Base64 of SHA-384(lowercased nonce ‖ lowercased device verification ID).
    ///
    /// - Parameter sha384: the digest function (OpenSSL's; tests substitute a failing one).
    /// - Throws: when the digest cannot be computed: a digest that failed never stands in for one.
    static func deviceVerification(
        nonce: String, deviceVerificationID: UUID,
        sha384: ([UInt8]) throws(OpenSSLFailure) -> [UInt8] = { (bytes) throws(OpenSSLFailure) in try Digest.sha384(bytes) }
    ) throws(OpenSSLFailure) -> String {
        let text = nonce.lowercased() + deviceVerificationID.uuidString.lowercased()
        return Data(try sha384(Array(text.utf8))).base64EncodedString()
    }

    private static func constantTimeEqual(_ lhs: [UInt8], _ rhs: [UInt8]) -> Bool {
        guard lhs.count == rhs.count else { return false }
        var difference: UInt8 = 0
        for index in lhs.indices { difference |= lhs[index] ^ rhs[index] }
        return difference == 0
    }
}
