import AppStoreServerAPI
import AppStoreVerification
import Foundation

/// How the reconcile route reaches the App Store Server API: your In-App Purchase key, its IDs and
/// the environment (or, in tests, a base URL on loopback).
public struct ReconcileConfiguration: Sendable {
    /// Your In-App Purchase key (the `.p8` file from App Store Connect).
    public var signingKey: SigningKey
    /// The key's ID.
    public var keyId: String
    /// Your issuer ID.
    public var issuerId: String
    /// Apple's production or sandbox API.
    public var environment: AppStoreServerEnvironment
    /// An explicit base URL instead of the environment's: `https://`, or `http://` to loopback
    /// only (a fake App Store Server API in tests).
    public var baseURL: String?
    /// Timeouts and retries of the API client.
    public var options: AppStoreServerAPIClient.Options

    /// Creates the configuration.
    ///
    /// - Parameters:
    ///   - signingKey: your In-App Purchase key.
    ///   - keyId: the key's ID.
    ///   - issuerId: your issuer ID.
    ///   - environment: production or sandbox.
    ///   - baseURL: a base URL overriding the environment's (tests).
    ///   - options: the API client's timeouts and retries.
    public init(signingKey: SigningKey, keyId: String, issuerId: String, environment: AppStoreServerEnvironment,
                baseURL: String? = nil, options: AppStoreServerAPIClient.Options = .init()) {
        self.signingKey = signingKey
        self.keyId = keyId
        self.issuerId = issuerId
        self.environment = environment
        self.baseURL = baseURL
        self.options = options
    }
}
