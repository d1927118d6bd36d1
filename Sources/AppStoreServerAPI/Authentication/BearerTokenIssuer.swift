import AppStoreVerification
import Foundation

/// Signs the App Store Server API's bearer tokens (ES256 JWT) and reuses one until shortly before
/// it expires.
///
/// Header `{"alg":"ES256","kid":KEY_ID,"typ":"JWT"}`; claims `iss` (issuer ID), `iat`, `exp`
/// (`iat` + the lifetime, at most 60 minutes), `aud` `appstoreconnect-v1` and `bid` (bundle ID),
/// as Apple documents ("Generating JSON Web Tokens for API requests"). Tokens are never logged or
/// put in errors.
package actor BearerTokenIssuer {
    /// The audience Apple requires.
    package static let audience = "appstoreconnect-v1"
    /// The longest lifetime Apple accepts, in seconds.
    package static let maximumLifetime: Int64 = 60 * 60

    private let signer: JWSSigner
    private let keyId: String
    private let issuerId: String
    private let bundleId: String
    private let lifetime: Int64
    private let renewalMargin: Int64
    private let clock: AppStoreClock
    private var cached: (token: String, expiresAt: Int64)?

    /// An issuer signing with `signingKey`.
    ///
    /// - Parameters:
    ///   - lifetime: `exp` − `iat`; clamped to 1 ... 60 minutes.
    ///   - renewalMargin: a cached token with less than this left is replaced; clamped below the
    ///     lifetime.
    ///   - clock: the time tokens are issued at (tests move it).
    package init(signingKey: SigningKey, keyId: String, issuerId: String, bundleId: String,
                 lifetime: Duration, renewalMargin: Duration, clock: AppStoreClock) {
        self.signer = JWSSigner(key: signingKey)
        self.keyId = keyId
        self.issuerId = issuerId
        self.bundleId = bundleId
        let seconds = min(max(lifetime.components.seconds, 60), Self.maximumLifetime)
        self.lifetime = seconds
        self.renewalMargin = min(max(renewalMargin.components.seconds, 0), seconds - 30)
        self.clock = clock
    }

    /// The current token: the cached one while it has more than the renewal margin left, else a
    /// newly signed one.
    ///
    /// - Throws: ``AppStoreServerAPIError`` (`tokenCreationFailed`) when OpenSSL cannot sign.
    package func token() throws(AppStoreServerAPIError) -> String {
        let now = Self.seconds(clock.now)
        if let cached, cached.expiresAt - now > renewalMargin {
            return cached.token
        }
        var claims = SignedJSONObject()
        claims.set("iss", .string(issuerId))
        claims.set("iat", .integer(now))
        claims.set("exp", .integer(now + lifetime))
        claims.set("aud", .string(Self.audience))
        claims.set("bid", .string(bundleId))
        let token: String
        do {
            token = try signer.sign(header: JWSSigner.jwtHeader(keyId: keyId), claims: claims)
        } catch {
            throw AppStoreServerAPIError(.tokenCreationFailed, "the App Store Server API bearer token could not be signed with the configured key (\(error.message)); check that the key is the .p8 key App Store Connect gave you")
        }
        cached = (token, now + lifetime)
        return token
    }

    /// Forgets `token` if it is the cached one (after Apple refused it), so the next call signs anew.
    package func discard(_ token: String) {
        if cached?.token == token { cached = nil }
    }

    /// Whole seconds since 1970, rounded down.
    private static func seconds(_ date: Date) -> Int64 {
        let value = date.timeIntervalSince1970.rounded(.down)
        guard value.isFinite, value > -9e15, value < 9e15 else { return 0 }
        return Int64(value)
    }
}

extension BearerTokenIssuer: CustomStringConvertible, CustomReflectable {
    /// The key ID and issuer only: never the key or a token.
    package nonisolated var description: String { "BearerTokenIssuer(keyId: \(keyId), issuerId: \(issuerId))" }

    /// The same as ``description``, so that `dump` and `Mirror` show no token.
    package nonisolated var customMirror: Mirror {
        Mirror(self, children: ["keyId": keyId, "issuerId": issuerId], displayStyle: .class)
    }
}
