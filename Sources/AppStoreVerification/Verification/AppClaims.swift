/// What a payload says about the app and environment it belongs to, for the verifier's checks.
protocol AppClaims {
    /// Whether this kind of payload carries a bundle ID at all.
    var carriesBundleId: Bool { get }
    /// Whether this kind of payload carries an App Apple ID at all.
    var carriesAppAppleId: Bool { get }
    var claimedBundleId: String? { get }
    var claimedAppAppleId: Int64? { get }
    var claimedEnvironment: Environment? { get }
}
