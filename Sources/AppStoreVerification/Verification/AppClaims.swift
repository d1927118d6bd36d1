/// What a payload says about the app and environment it belongs to, for the verifier's checks
/// (``SignedDataVerifier/Configuration`` `checkClaims`).
protocol AppClaims {
    /// Whether this kind of payload carries a bundle ID at all.
    var carriesBundleId: Bool { get }
    /// Whether this kind of payload carries an App Apple ID at all.
    var carriesAppAppleId: Bool { get }
    var claimedBundleId: String? { get }
    var claimedAppAppleId: Int64? { get }
    var claimedEnvironment: AppStoreEnvironment? { get }
}

extension Transaction: AppClaims {
    var carriesBundleId: Bool { true }
    var carriesAppAppleId: Bool { false }
    var claimedBundleId: String? { storedBundleId }
    var claimedAppAppleId: Int64? { nil }
    var claimedEnvironment: AppStoreEnvironment? { storedEnvironment }
}

extension RenewalInfo: AppClaims {
    // Renewal info names neither the bundle nor the app; only the environment is checked, as in
    // Apple's library.
    var carriesBundleId: Bool { false }
    var carriesAppAppleId: Bool { false }
    var claimedBundleId: String? { nil }
    var claimedAppAppleId: Int64? { nil }
    var claimedEnvironment: AppStoreEnvironment? { environment }
}

extension AppTransaction: AppClaims {
    var carriesBundleId: Bool { true }
    var carriesAppAppleId: Bool { true }
    var claimedBundleId: String? { bundleId }
    var claimedAppAppleId: Int64? { appAppleId }
    var claimedEnvironment: AppStoreEnvironment? { receiptType }
}

extension DecodedRealtimeRequestBody: AppClaims {
    var carriesBundleId: Bool { false }
    var carriesAppAppleId: Bool { true }
    var claimedBundleId: String? { nil }
    var claimedAppAppleId: Int64? { appAppleId }
    var claimedEnvironment: AppStoreEnvironment? { environment }
}

extension ResponseBodyV2DecodedPayload: AppClaims {
    // As Apple's library: the identity comes from `data`, `summary`, `externalPurchaseToken` or
    // `appData`, whichever the notification carries.
    var carriesBundleId: Bool { true }
    var carriesAppAppleId: Bool { true }

    var claimedBundleId: String? {
        data?.bundleId ?? summary?.bundleId ?? externalPurchaseToken?.bundleId ?? appData?.bundleId
    }

    var claimedAppAppleId: Int64? {
        data?.appAppleId ?? summary?.appAppleId ?? externalPurchaseToken?.appAppleId ?? appData?.appAppleId
    }

    var claimedEnvironment: AppStoreEnvironment? {
        if let data { return data.environment }
        if let summary { return summary.environment }
        if let token = externalPurchaseToken {
            // External purchase tokens carry no environment: Apple's library derives it from the
            // identifier's prefix.
            return token.externalPurchaseId?.hasPrefix("SANDBOX") == true ? .sandbox : .production
        }
        return appData?.environment
    }
}
