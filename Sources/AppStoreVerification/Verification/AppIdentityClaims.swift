/// What signed data says about the app and environment it belongs to: what the verifier checks
/// against ``SignedDataVerifier/Configuration/bundleId``, ``SignedDataVerifier/Configuration/appAppleId``
/// and ``SignedDataVerifier/Configuration/environment``.
///
/// Which kinds carry what follows Apple's library: transactions carry a bundle ID, app
/// transactions, notifications and app receipts a bundle ID and an App Apple ID, realtime requests
/// an App Apple ID, renewal info neither (only its environment is checked).
public struct AppIdentityClaims: Sendable, Hashable {
    /// Whether this kind of data names a bundle at all; when not, no bundle ID is checked.
    public var carriesBundleId: Bool
    /// The bundle ID the data names; `nil` when it is missing.
    public var bundleId: String?
    /// Whether this kind of data names an App Apple ID at all; when not, none is checked.
    public var carriesAppAppleId: Bool
    /// The App Apple ID the data names; `nil` when it is missing (Sandbox data of an app not yet on
    /// the App Store has none, and only Production refuses that).
    public var appAppleId: Int64?
    /// The environment the data says it comes from; `nil` when it names none.
    public var environment: AppStoreEnvironment?

    /// Creates the claims of one piece of signed data.
    public init(bundleId: String?, carriesBundleId: Bool = true, appAppleId: Int64?, carriesAppAppleId: Bool = true, environment: AppStoreEnvironment?) {
        self.carriesBundleId = carriesBundleId
        self.bundleId = bundleId
        self.carriesAppAppleId = carriesAppAppleId
        self.appAppleId = appAppleId
        self.environment = environment
    }
}

/// Signed data the verifier checks beyond its signature: the app and environment it claims, and the
/// members every genuine instance of its kind carries. Every kind the verifier returns conforms —
/// the JWS payloads through ``SignedPayload``, and ``AppReceipt`` — and the requirements have no
/// default, so a new kind cannot skip these checks by forgetting them.
public protocol AppIdentityClaiming {
    /// The app and environment this data says it belongs to.
    var appIdentity: AppIdentityClaims { get }

    /// The members every genuine instance of this kind carries that this one lacks; empty for
    /// every genuine one. A verified instance lacking any is
    /// ``VerificationError/missingRequiredProperties(_:)``, so non-optional accessors never read a
    /// placeholder.
    var missingRequiredMembers: [String] { get }
}
