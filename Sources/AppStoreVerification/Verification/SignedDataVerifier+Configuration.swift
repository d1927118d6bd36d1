import Foundation

extension SignedDataVerifier {
    /// Everything a verifier checks against. Build it once; the verifier copies it.
    public struct Configuration: Sendable {
        /// The roots chains must lead to. Default: Apple Root CA - G3, embedded in the package.
        public var trustedRoots: [TrustedRoot]
        /// Your app's bundle ID; payloads carrying another are `invalidAppIdentifier`. `nil` skips
        /// the check (not recommended in production).
        public var bundleId: String?
        /// Your app's Apple ID (App Store Connect's "Apple ID" number). Required when ``environment``
        /// is Production, as in Apple's library; payloads carrying another are `invalidAppIdentifier`.
        public var appAppleId: Int64?
        /// The environment payloads must come from; `nil` skips the check.
        public var environment: AppStoreEnvironment?
        /// The instant at which certificates must be valid. Default: the payload's signing date.
        public var effectiveDate: EffectiveDatePolicy
        /// Whether OpenSSL's strict X.509 checks apply (`X509_V_FLAG_X509_STRICT`, as in Apple's
        /// library). Apple's chains pass them; relax only for test PKIs without key identifiers, such
        /// as the one behind Apple's own library test vectors.
        public var strictChecks: Bool
        /// How many validated chains to remember (least recently used first out). A JWS whose header
        /// was seen before then costs one signature check; a new leaf under an intermediate seen
        /// before (up to 16 of them) costs one certificate signature check more. 0 disables both caches.
        public var chainCacheCapacity: Int
        /// The longest JWS accepted, in bytes; longer input throws `inputTooLarge` before any parsing.
        public var maximumInputLength: Int
        /// The "StoreKit Testing in Xcode" certificate to trust for payloads whose environment is
        /// `Xcode` (export it from your project's StoreKit configuration file in Xcode). Without it,
        /// Xcode and LocalTesting data is never verified.
        public var xcodeCertificate: TrustedRoot?
        /// The roots app receipt (PKCS#7) chains must lead to. Default: Apple Root CA (RSA), embedded
        /// in the package; receipts chain to it, not to Apple Root CA - G3.
        public var trustedReceiptRoots: [TrustedRoot]
        /// The self-signed "StoreKit" certificate that signs Xcode's app receipts (RSA), to trust for
        /// receipts whose environment is `Xcode`. Without it, Xcode receipts are never verified.
        public var xcodeReceiptCertificate: TrustedRoot?
        /// The time verification reads: JWT registered claims (`exp`, `nbf`, `iat`), the effective
        /// date when it is now, and online, whether OCSP responses and cached answers are current.
        /// Default ``AppStoreClock/system``; tests pass a clock they move by hand.
        public var clock: AppStoreClock

        /// A configuration trusting Apple Root CA - G3.
        ///
        /// - Parameters:
        ///   - trustedRoots: the roots chains must lead to.
        ///   - bundleId: your app's bundle ID, or `nil` to skip the check.
        ///   - appAppleId: your app's Apple ID; required for Production.
        ///   - environment: the environment payloads must come from, or `nil` to skip the check.
        ///   - effectiveDate: when certificates must be valid.
        ///   - strictChecks: whether OpenSSL's strict X.509 checks apply.
        ///   - chainCacheCapacity: how many validated chains to remember.
        ///   - maximumInputLength: the longest JWS accepted, in bytes.
        ///   - xcodeCertificate: the StoreKit Testing certificate to trust for Xcode data.
        ///   - trustedReceiptRoots: the roots app receipt chains must lead to.
        ///   - xcodeReceiptCertificate: the StoreKit certificate to trust for Xcode app receipts.
        ///   - clock: the time verification reads.
        public init(
            trustedRoots: [TrustedRoot] = [.appleRootCAG3],
            bundleId: String? = nil,
            appAppleId: Int64? = nil,
            environment: AppStoreEnvironment? = nil,
            effectiveDate: EffectiveDatePolicy = .signedDate,
            strictChecks: Bool = true,
            chainCacheCapacity: Int = 64,
            maximumInputLength: Int = 1 << 20,
            xcodeCertificate: TrustedRoot? = nil,
            trustedReceiptRoots: [TrustedRoot] = [.appleRootCA],
            xcodeReceiptCertificate: TrustedRoot? = nil,
            clock: AppStoreClock = .system
        ) {
            self.trustedRoots = trustedRoots
            self.bundleId = bundleId
            self.appAppleId = appAppleId
            self.environment = environment
            self.effectiveDate = effectiveDate
            self.strictChecks = strictChecks
            self.chainCacheCapacity = chainCacheCapacity
            self.maximumInputLength = maximumInputLength
            self.xcodeCertificate = xcodeCertificate
            self.trustedReceiptRoots = trustedReceiptRoots
            self.xcodeReceiptCertificate = xcodeReceiptCertificate
            self.clock = clock
        }
    }
}
