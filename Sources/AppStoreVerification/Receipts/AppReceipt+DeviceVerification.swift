import Foundation

extension VerificationResult where SignedType == AppReceipt {
    /// Checks that the receipt was issued to the device with `identifierForVendor` (iOS, iPadOS,
    /// tvOS, visionOS: `UIDevice.current.identifierForVendor`, sent by your app with the receipt).
    ///
    /// See ``verifyingDevice(_:)-(Data)``.
    public func verifyingDevice(_ identifierForVendor: UUID) -> VerificationResult<AppReceipt> {
        let uuid = identifierForVendor.uuid
        let bytes = withUnsafeBytes(of: uuid) { Data($0) }
        return verifyingDevice(bytes, described: "identifierForVendor \(identifierForVendor.uuidString)")
    }

    /// Checks that the receipt was issued to the device with identifier `deviceIdentifier`: the
    /// 6-byte MAC address of the primary network interface on macOS, or the 16 bytes of
    /// `identifierForVendor` elsewhere.
    ///
    /// Apple's procedure: SHA-1(device identifier ‖ opaque value ‖ the bundle ID attribute's DER
    /// value, tag and length included) must equal the receipt's SHA-1 hash. A verified result whose
    /// check fails becomes `.unverified(_, .invalidDeviceVerification)`; an unverified result stays
    /// as it is.
    public func verifyingDevice(_ deviceIdentifier: Data) -> VerificationResult<AppReceipt> {
        verifyingDevice(deviceIdentifier, described: "device identifier \(deviceIdentifier.map { String(format: "%02x", $0) }.joined())")
    }

    /// The transaction ID of the first in-app purchase, `nil` when the receipt lists none: what
    /// Apple's `ReceiptUtility.extractTransactionIdFromAppReceipt` returns, but only from a verified
    /// receipt.
    ///
    /// - Throws: the ``VerificationError`` when the receipt is unverified.
    public var transactionId: String? {
        get throws(VerificationError) { try payloadValue.firstTransactionId }
    }

    private func verifyingDevice(_ identifier: Data, described: String) -> VerificationResult<AppReceipt> {
        guard case .verified(let receipt) = self else { return self }
        guard let opaque = receipt.opaqueValue, let bundleId = receipt.bundleIdEncoding, let expected = receipt.sha1Hash else {
            return .unverified(receipt, .invalidDeviceVerification("The receipt lacks its opaque value, bundle ID or SHA-1 hash (attributes 4, 2, 5), so it cannot be tied to a device."))
        }
        var input = identifier
        input.append(opaque)
        input.append(bundleId)
        let digest: [UInt8]
        do {
            digest = try Digest.sha1(input)
        } catch {
            return .unverified(receipt, .invalidDeviceVerification("The device check could not be computed: \(error.message). Nothing was compared, so the receipt is not tied to this device."))
        }
        var difference: UInt8 = expected.count == 20 ? 0 : 1
        for (index, byte) in expected.prefix(20).enumerated() { difference |= byte ^ digest[index] }
        guard difference == 0 else {
            return .unverified(receipt, .invalidDeviceVerification("The receipt's SHA-1 hash does not match \(described): the receipt was issued to another device (or the app sent the wrong identifier: the MAC address on macOS, identifierForVendor elsewhere)."))
        }
        return self
    }
}
