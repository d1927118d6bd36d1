import Foundation

extension SignedDataVerifier {
    /// Verifies and decodes a legacy app receipt given as base64 text (what apps read from
    /// `Bundle.main.appStoreReceiptURL` and used to send to Apple's deprecated `verifyReceipt`).
    ///
    /// White space (line breaks included) in the text is ignored. See
    /// ``verifyAppReceipt(_:)-23ida`` for what is checked.
    ///
    /// - Throws: ``SignedDataDecodingError`` (`malformedReceipt`, `inputTooLarge`) when the text is
    ///   not base64 of an app receipt, or `onlineVerificationRequiresAsync`, before reading the
    ///   input, when online revocation checks are on (use the `async` overload then).
    public func verifyAppReceipt(_ appReceipt: String) throws(SignedDataDecodingError) -> VerificationResult<AppReceipt> {
        try refuseSynchronousUseOnline(SignedPayloadKind.appReceipt.entryPoint)
        return try offlineVerifyAppReceipt(appReceipt).result
    }

    /// Verifies and decodes a legacy app receipt given as bytes: the receipt file's DER (or BER)
    /// PKCS#7, or its base64 text.
    ///
    /// 1. OpenSSL parses the PKCS#7 SignedData: attached content, exactly one signer, no trailing
    ///    bytes (failures throw ``SignedDataDecodingError``: there is no receipt);
    /// 2. the payload is decoded strictly into ``AppReceipt`` (failures throw too);
    /// 3. the embedded chain must lead to a configured receipt root
    ///    (``Configuration/receiptRoots``, default Apple Root CA) with Apple's marker extensions, at
    ///    the effective date (by default the receipt's creation date); a receipt whose environment is
    ///    Xcode is checked against ``Configuration/xcodeReceiptCertificate`` alone, and never without it;
    /// 4. the signer's RSA signature (SHA-256 or SHA-1) must verify over the payload;
    /// 5. bundle ID, app Apple ID (the receipt's app item ID; a Production receipt must carry it)
    ///    and environment must match the configuration where it names them.
    /// A failure in steps 3–5 yields ``VerificationResult/unverified(_:_:)`` with the reason.
    ///
    /// Tie the receipt to the device that sent it with the result's `verifyingDevice(_:)` (the
    /// receipt overload, taking the device's `identifierForVendor`).
    ///
    /// With online revocation checks on (``Configuration/revocation``), use the `async` overload:
    /// this one then throws `onlineVerificationRequiresAsync` before reading the input.
    public func verifyAppReceipt(_ appReceipt: Data) throws(SignedDataDecodingError) -> VerificationResult<AppReceipt> {
        try refuseSynchronousUseOnline(SignedPayloadKind.appReceipt.entryPoint)
        return try offlineVerifyAppReceipt(appReceipt).result
    }

    /// Verifies and decodes a legacy app receipt given as base64 text, online when revocation checks
    /// are on: after the offline checks of the synchronous overload, with the effective date now,
    /// the OCSP responders named by the receipt's signing certificate and its intermediate are asked
    /// whether either is revoked (answers cached). With revocation off it returns exactly the
    /// synchronous result. Xcode receipts are not checked for revocation (their certificate names no
    /// responder).
    ///
    /// - Throws: ``OnlineVerificationError``: `.decoding` when the input is not an app receipt,
    ///   `.revocationCheckUnavailable` when no revocation answer could be had (retry later).
    public func verifyAppReceipt(_ appReceipt: String) async throws(OnlineVerificationError) -> VerificationResult<AppReceipt> {
        try await checkRevocation(of: Result { () throws(SignedDataDecodingError) in try offlineVerifyAppReceipt(appReceipt) })
    }

    /// Verifies and decodes a legacy app receipt given as bytes (DER, BER or base64 text), online
    /// when revocation checks are on: see the `String` overload.
    ///
    /// - Throws: ``OnlineVerificationError``.
    public func verifyAppReceipt(_ appReceipt: Data) async throws(OnlineVerificationError) -> VerificationResult<AppReceipt> {
        try await checkRevocation(of: Result { () throws(SignedDataDecodingError) in try offlineVerifyAppReceipt(appReceipt) })
    }

    /// The transaction ID of the first in-app purchase of a **verified** receipt, or `nil` when it
    /// lists none: what Apple's `ReceiptUtility.extractTransactionIdFromAppReceipt` returns, except
    /// that Apple's does not verify the receipt and this does (an unsigned blob yields nothing).
    ///
    /// - Throws: ``SignedDataDecodingError`` when the input is not an app receipt, and
    ///   ``VerificationError`` when the receipt does not verify.
    public func extractTransactionIdFromAppReceipt(_ appReceipt: String) throws -> String? {
        try refuseSynchronousUseOnline("extractTransactionIdFromAppReceipt")
        return try verifyAppReceipt(appReceipt).transactionId
    }

    /// The transaction ID of the first in-app purchase of a **verified** receipt, online when
    /// revocation checks are on (see the synchronous overload).
    ///
    /// - Throws: ``OnlineVerificationError`` when the input is not an app receipt or no revocation
    ///   answer could be had, and ``VerificationError`` when the receipt does not verify.
    public func extractTransactionIdFromAppReceipt(_ appReceipt: String) async throws -> String? {
        try await verifyAppReceipt(appReceipt).transactionId
    }

    /// What the offline checks concluded, with what the revocation check needs.
    struct ReceiptVerification {
        let result: VerificationResult<AppReceipt>
        /// The App Store chain the receipt was verified with (`nil` for Xcode receipts and failures).
        let chain: ValidatedChain?
        /// The receipt's embedded certificates.
        let certificates: ReceiptCertificatesKey?
    }

    /// Revocation can only withdraw a verdict the offline checks gave; input they could not decode
    /// throws `.decoding`.
    private func checkRevocation(of offline: Result<ReceiptVerification, SignedDataDecodingError>) async throws(OnlineVerificationError) -> VerificationResult<AppReceipt> {
        let verification = try offline.mapError { OnlineVerificationError.decoding($0) }.get()
        guard let revocationChecker, case .verified(let receipt) = verification.result,
              let chain = verification.chain, let certificates = verification.certificates
        else { return verification.result }
        switch await revocationChecker.check(receiptChain: chain, certificates: certificates) {
        case .good: return verification.result
        case .failed(let error): return .unverified(receipt, error)
        case .unavailable(let error): throw .revocationCheckUnavailable(error)
        }
    }

    /// Base64 text: length limit, then decoding.
    private func offlineVerifyAppReceipt(_ appReceipt: String) throws(SignedDataDecodingError) -> ReceiptVerification {
        let length = appReceipt.utf8.count
        guard length <= configuration.maximumInputLength else {
            throw SignedDataDecodingError(.inputTooLarge, "The receipt is \(length) bytes of text; the verifier accepts at most \(configuration.maximumInputLength). Raise maximumInputLength if this is expected.")
        }
        return try offlineVerifyAppReceipt(encoded: Self.receiptBytes(base64: Array(appReceipt.utf8)))
    }

    /// DER/BER bytes or base64 text: length limit, then decoding.
    private func offlineVerifyAppReceipt(_ appReceipt: Data) throws(SignedDataDecodingError) -> ReceiptVerification {
        guard appReceipt.count <= configuration.maximumInputLength else {
            throw SignedDataDecodingError(.inputTooLarge, "The receipt is \(appReceipt.count) bytes; the verifier accepts at most \(configuration.maximumInputLength). Raise maximumInputLength if this is expected.")
        }
        if appReceipt.first == 0x30 {
            return try offlineVerifyAppReceipt(encoded: appReceipt)
        }
        return try offlineVerifyAppReceipt(encoded: Self.receiptBytes(base64: Array(appReceipt)))
    }

    /// Every check but revocation.
    private func offlineVerifyAppReceipt(encoded: Data) throws(SignedDataDecodingError) -> ReceiptVerification {
        if encoded.first == UInt8(ascii: "{") {
            throw SignedDataDecodingError(.malformedReceipt, "This is an old-style transaction receipt (a property list, SKPaymentTransaction.transactionReceipt, deprecated since iOS 7), not an app receipt; it carries no verifiable signature. Ask the app for its app receipt (Bundle.main.appStoreReceiptURL) or, better, for StoreKit 2 signed transactions.")
        }
        if let verification = verifyWarmAppReceipt(encoded) {
            return verification
        }
        let signedData = try ReceiptSignedData(encoded: encoded)
        let receipt = try AppReceipt(payload: signedData.content)
        let instant = effectiveInstant(of: receipt)
        let checked: AppReceiptPolicy.Checked
        do throws(VerificationError) {
            checked = try receiptPolicy.verify(signedData, receipt: receipt, at: instant)
            try checkClaims(of: receipt)
        } catch {
            return ReceiptVerification(result: .unverified(receipt, error), chain: nil, certificates: nil)
        }
        return ReceiptVerification(result: .verified(receipt), chain: checked.chain, certificates: checked.certificates)
    }

    /// The warm path: a DER receipt that embeds exactly the certificates of a chain validated for
    /// an earlier receipt, valid at this one's effective date, is checked without parsing any
    /// certificate (``ReceiptEnvelope``). `nil` sends the receipt down the general path, which
    /// checks everything and reports any problem; the verdicts of both paths are the same.
    private func verifyWarmAppReceipt(_ encoded: Data) -> ReceiptVerification? {
        let der = encoded.withUnsafeBytes { [UInt8]($0) }
        guard let envelope = ReceiptEnvelope(der: der),
              let chain = receiptPolicy.cachedChain(for: envelope.certificates),
              let signedData = ReceiptSignedData(withoutCertificates: envelope.withoutCertificates, signer: chain.leaf),
              let receipt = try? AppReceipt(decoding: signedData.contentBytes),
              receipt.environment != .xcode,
              chain.validity.contains(effectiveInstant(of: receipt).seconds)
        else { return nil }
        do throws(VerificationError) {
            try receiptPolicy.verifySignature(of: signedData)
            try checkClaims(of: receipt)
        } catch {
            return ReceiptVerification(result: .unverified(receipt, error), chain: nil, certificates: nil)
        }
        return ReceiptVerification(result: .verified(receipt), chain: chain, certificates: envelope.certificates)
    }

    /// The instant a receipt's chain is checked at: by default its creation date; now online.
    private func effectiveInstant(of receipt: AppReceipt) -> EffectiveInstant {
        effectiveDatePolicy.instant(
            signingDate: receipt.receiptCreationDate, origin: "the receipt's creation date",
            fallbackOrigin: "now, as the receipt has no creation date")
    }

    /// Bundle ID, app Apple ID (the receipt's app item ID) and environment against the configuration.
    private func checkClaims(of receipt: AppReceipt) throws(VerificationError) {
        if let expected = configuration.bundleId, receipt.bundleId != expected {
            let claimed = receipt.bundleId.map { "\"\($0)\"" } ?? "missing"
            throw .invalidAppIdentifier("The receipt's bundle ID is \(claimed); this verifier expects \"\(expected)\". The receipt belongs to another app.")
        }
        if let expected = configuration.appAppleId {
            // The app item ID is the app's Apple ID; receipts of apps not on the App Store (sandbox,
            // TestFlight before release) carry 0 or nothing, which only Production refuses.
            let claimed = receipt.appItemId.flatMap { $0 == 0 ? nil : $0 }
            if claimed != expected, claimed != nil || receipt.environment == .production {
                throw .invalidAppIdentifier("The receipt's app item ID is \(claimed.map(String.init) ?? "missing"); this verifier expects the app Apple ID \(expected). The receipt belongs to another app.")
            }
        }
        if let expected = configuration.environment, receipt.environment != expected {
            let claimed = receipt.receiptType.map { "\"\($0)\"" } ?? "missing"
            throw .invalidEnvironment("The receipt's environment is \(claimed); this verifier expects \"\(expected.rawValue)\" (receipts write Production, ProductionSandbox for Sandbox, or Xcode). Use one verifier per environment.")
        }
    }

    /// Decodes base64 text (standard alphabet, padded), ignoring ASCII white space.
    private static func receiptBytes(base64 text: [UInt8]) throws(SignedDataDecodingError) -> Data {
        let compact = text.filter { !($0 == 0x20 || (0x09...0x0D).contains($0)) }
        guard !compact.isEmpty else {
            throw SignedDataDecodingError(.malformedReceipt, "The receipt is empty.")
        }
        do {
            return try Base64.decodeStandard(compact)
        } catch {
            throw SignedDataDecodingError(.malformedReceipt, "The receipt is not DER and not standard padded base64 text (\(error)); send the receipt file's bytes base64-encoded, as apps did for verifyReceipt.")
        }
    }
}
