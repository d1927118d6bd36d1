/// The claims step of verification, for every kind of signed data: the data must carry the members
/// every genuine instance carries, and belong to the configured app and environment.
extension SignedDataVerifier.Configuration {
    /// Checks `data`'s required members, then what it says about its app and environment
    /// (``AppIdentityClaiming/appIdentity``) against this configuration.
    ///
    /// - Throws: `missingRequiredProperties`, `invalidAppIdentifier` or `invalidEnvironment`.
    func checkClaims(of data: some AppIdentityClaiming, kind: SignedPayloadKind) throws(VerificationError) {
        let missing = data.missingRequiredMembers
        if !missing.isEmpty {
            throw .missingRequiredProperties("The payload lacks \(missing.joined(separator: ", ")), which \(kind) signed by the App Store always carries.")
        }
        let claims = data.appIdentity
        let isReceipt = kind == .appReceipt
        let subject = isReceipt ? "The receipt" : "The payload"
        if let expected = bundleId, claims.carriesBundleId {
            guard let claimed = claims.bundleId else {
                throw .invalidAppIdentifier("\(subject) has no bundle ID; this verifier expects \"\(expected)\".")
            }
            guard claimed == expected else {
                throw .invalidAppIdentifier("\(subject)'s bundle ID is \"\(LogSafeText.escaping(claimed))\"; this verifier expects \"\(expected)\". The data belongs to another app.")
            }
        }
        if let expected = appAppleId, claims.carriesAppAppleId {
            let claimed = claims.appAppleId
            // Sandbox data may lack the App Apple ID (apps not yet on the App Store have none):
            // only a Production verifier refuses that, and, for receipts, a Production receipt.
            let production = isReceipt ? claims.environment == .production : environment == .production
            if claimed != expected, claimed != nil || production {
                let field = isReceipt ? "app item ID" : "appAppleId"
                throw .invalidAppIdentifier("\(subject)'s \(field) is \(claimed.map(String.init) ?? "missing"); this verifier expects the App Apple ID \(expected). The data belongs to another app.")
            }
        }
        if let expected = environment, claims.environment != expected {
            let claimed = claims.environment.map { "\"\(LogSafeText.escaping($0.rawValue))\"" } ?? "missing"
            let note = isReceipt ? " (receipts write Production, ProductionSandbox for Sandbox, or Xcode)" : ""
            throw .invalidEnvironment("\(subject)'s environment is \(claimed); this verifier expects \"\(expected.rawValue)\"\(note). Use one verifier per environment (Sandbox data is never valid for Production).")
        }
    }
}
