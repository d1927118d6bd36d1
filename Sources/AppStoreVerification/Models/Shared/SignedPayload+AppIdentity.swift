// Each payload kind's claims (``AppIdentityClaiming``), as Apple's library reads them.

extension Transaction {
    /// A transaction names its bundle and environment.
    public var appIdentity: AppIdentityClaims {
        AppIdentityClaims(bundleId: storedBundleId, appAppleId: nil, carriesAppAppleId: false, environment: storedEnvironment)
    }
}

extension RenewalInfo {
    /// Renewal info names neither the bundle nor the app; only the environment is checked, as in
    /// Apple's library.
    public var appIdentity: AppIdentityClaims {
        AppIdentityClaims(bundleId: nil, carriesBundleId: false, appAppleId: nil, carriesAppAppleId: false, environment: environment)
    }

    /// Renewal info has no member beyond what decoding requires that it always carries.
    public var missingRequiredMembers: [String] { [] }
}

extension AppTransaction {
    /// An app transaction names its bundle, its app and (as `receiptType`) its environment.
    public var appIdentity: AppIdentityClaims {
        AppIdentityClaims(bundleId: bundleId, appAppleId: appAppleId, environment: receiptType)
    }

    /// An app transaction has no member beyond what decoding requires that it always carries.
    public var missingRequiredMembers: [String] { [] }
}

extension DecodedRealtimeRequestBody {
    /// A realtime request names its app and environment, not its bundle.
    public var appIdentity: AppIdentityClaims {
        AppIdentityClaims(bundleId: nil, carriesBundleId: false, appAppleId: appAppleId, environment: environment)
    }

    /// A realtime request has no member beyond what decoding requires that it always carries.
    public var missingRequiredMembers: [String] { [] }
}

extension ResponseBodyV2DecodedPayload {
    /// As Apple's library: the identity comes from `data`, `summary`, `externalPurchaseToken` or
    /// `appData`, whichever the notification carries.
    public var appIdentity: AppIdentityClaims {
        AppIdentityClaims(
            bundleId: data?.bundleId ?? summary?.bundleId ?? externalPurchaseToken?.bundleId ?? appData?.bundleId,
            appAppleId: data?.appAppleId ?? summary?.appAppleId ?? externalPurchaseToken?.appAppleId ?? appData?.appAppleId,
            environment: claimedEnvironment)
    }

    private var claimedEnvironment: AppStoreEnvironment? {
        if let data { return data.environment }
        if let summary { return summary.environment }
        if let token = externalPurchaseToken {
            // External purchase tokens carry no environment: Apple's library derives it from the
            // identifier's prefix.
            return token.externalPurchaseId?.hasPrefix("SANDBOX") == true ? .sandbox : .production
        }
        return appData?.environment
    }

    /// A notification has no member beyond what decoding requires that it always carries.
    public var missingRequiredMembers: [String] { [] }
}

extension AppReceipt: AppIdentityClaiming {
    /// A receipt names its bundle, its app (the app item ID; 0 in receipts of apps not on the App
    /// Store, read as missing) and its environment (the receipt type).
    public var appIdentity: AppIdentityClaims {
        AppIdentityClaims(bundleId: bundleId, appAppleId: appItemId.flatMap { $0 == 0 ? nil : $0 }, environment: environment)
    }

    /// A receipt has no member beyond what decoding requires that it always carries.
    public var missingRequiredMembers: [String] { [] }
}
