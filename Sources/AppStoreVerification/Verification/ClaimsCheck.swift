/// Step 5 of verification: the payload must belong to the configured app and environment.
extension SignedDataVerifier.Configuration {
    /// Checks what `claims` says about its app and environment against this configuration.
    ///
    /// Which payloads carry what: transactions carry a bundle ID, app transactions and
    /// notifications a bundle ID and an App Apple ID, realtime requests an App Apple ID, renewal info
    /// neither (only its environment is checked), as in Apple's library.
    ///
    /// - Throws: `invalidAppIdentifier` or `invalidEnvironment`.
    func checkClaims(of claims: some AppClaims) throws(VerificationError) {
        if let expected = bundleId, claims.carriesBundleId {
            guard let claimed = claims.claimedBundleId else {
                throw .invalidAppIdentifier("The payload has no bundleId; this verifier expects \"\(expected)\".")
            }
            guard claimed == expected else {
                throw .invalidAppIdentifier("The payload's bundleId is \"\(LogSafeText.escaping(claimed))\"; this verifier expects \"\(expected)\". The data belongs to another app.")
            }
        }
        if let expected = appAppleId, claims.carriesAppAppleId {
            let claimed = claims.claimedAppAppleId
            // Sandbox data may lack the App Apple ID (apps not yet on the App Store have none).
            if claimed != expected, claimed != nil || environment == .production {
                throw .invalidAppIdentifier("The payload's appAppleId is \(claimed.map(String.init) ?? "missing"); this verifier expects \(expected). The data belongs to another app.")
            }
        }
        if let expected = environment, claims.claimedEnvironment != expected {
            let claimed = claims.claimedEnvironment.map { "\"\(LogSafeText.escaping($0.rawValue))\"" } ?? "missing"
            throw .invalidEnvironment("The payload's environment is \(claimed); this verifier expects \"\(expected.rawValue)\". Use one verifier per environment (Sandbox data is never valid for Production).")
        }
    }
}
