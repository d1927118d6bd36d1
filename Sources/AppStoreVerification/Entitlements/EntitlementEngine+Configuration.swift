import Foundation

extension EntitlementEngine {
    /// What the App Store does not say and the app decides.
    public struct Configuration: Codable, Hashable, Sendable {
        /// How long each non-renewing subscription lasts from its purchase date, in seconds, by
        /// product ID (the App Store sets no expiry for them). A non-renewing product without an
        /// entry lasts until revoked.
        public var nonRenewingDurations: [String: TimeInterval]

        /// Creates a configuration.
        ///
        /// - Parameter nonRenewingDurations: seconds of access per non-renewing product ID, e.g.
        ///   `["com.example.season.pass": 90 * 86_400]`.
        public init(nonRenewingDurations: [String: TimeInterval] = [:]) {
            self.nonRenewingDurations = nonRenewingDurations
        }
    }
}
