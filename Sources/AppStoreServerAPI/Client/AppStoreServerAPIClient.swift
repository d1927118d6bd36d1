import AppStoreVerification
import Foundation

/// A client of the App Store Server API: every signed item in a response is verified with your
/// verifier and returned as a `VerificationResult`.
///
/// ```swift
/// let client = AppStoreServerAPIClient(signingKey: try SigningKey(contentsOf: keyURL), keyId: "2X9R4HXF34",
///                                      issuerId: issuerId, bundleId: "com.example.app",
///                                      environment: .production, verifier: .offline(verifier))
/// var engine = EntitlementEngine()
/// for try await transaction in client.transactionHistory(transactionId: id) {
///     engine.ingest(transaction)
/// }
/// ```
///
/// Calls are authenticated with an ES256 bearer token signed with your In-App Purchase key, reused
/// until shortly before it expires. Requests keep under Apple's published rate limits
/// (``Options/pacing``). HTTP 429 and 5xx answers and connection failures are retried with
/// exponential backoff (honouring `Retry-After`) within ``Options/deadline``; every other failure
/// throws ``AppStoreServerAPIError`` at once. An item that fails verification comes back
/// `.unverified` beside the others.
///
/// The HTTP exchange itself goes through an ``AppStoreServerAPITransport``: AsyncHTTPClient with
/// the `ServerAPIClient` trait, Foundation's `URLSession` without it, or your own.
public final class AppStoreServerAPIClient: Sendable {
    /// The bundle ID the bearer token names (`bid`).
    public let bundleId: String
    /// Timeouts, retries, pacing and token lifetime.
    public let options: Options
    /// Where requests go.
    public let environment: AppStoreServerEnvironment
    /// The base URL requests go to, without a trailing slash.
    public var baseURL: String { environment.baseURL }

    /// The verifier every signed item of every response goes through.
    let verifier: ResponseVerifier
    let tokens: BearerTokenIssuer
    let transport: any AppStoreServerAPITransport

    /// A client of the App Store Server API.
    ///
    /// - Parameters:
    ///   - signingKey: your In-App Purchase key (the `.p8` file from App Store Connect, Users and
    ///     Access > Integrations > In-App Purchase).
    ///   - keyId: that key's ID.
    ///   - issuerId: your issuer ID (shown on the same page).
    ///   - bundleId: your app's bundle ID.
    ///   - environment: where requests go: `.production`, `.sandbox`, or `try .baseURL(...)` (a
    ///     fake App Store in tests).
    ///   - verifier: how the signed data in responses is verified: `.offline(verifier)` or
    ///     `.online(verifier)`; configure it with the same bundle ID and environment.
    ///   - options: timeouts, retries, pacing and token lifetime.
    ///   - transport: how HTTP requests are sent; by default ``AsyncHTTPClientTransport`` (one HTTP
    ///     client shared by every client of this library, without redirects) with the
    ///     `ServerAPIClient` trait, ``URLSessionAPITransport`` without it.
    ///   - clock: the time the client reads: bearer tokens' `iat` and the instant a `Retry-After`
    ///     names from its `now`; the deadline, pacing and the waits between attempts on its `clock`.
    ///     Default `AppStoreClock.system`; tests pass one they move by hand (AppStoreVerificationTesting's
    ///     `ManualClock`), so that retries and pacing wait no real time.
    public init(signingKey: SigningKey, keyId: String, issuerId: String, bundleId: String,
                environment: AppStoreServerEnvironment, verifier: ResponseVerifier,
                options: Options = Options(), transport: any AppStoreServerAPITransport = AppStoreServerAPIClient.defaultTransport,
                clock: AppStoreClock = .system) {
        self.elapsed = clock.stopwatch()
        self.bundleId = bundleId
        self.verifier = verifier
        self.options = options
        self.environment = environment
        self.transport = transport
        self.tokens = BearerTokenIssuer(signingKey: signingKey, keyId: keyId, issuerId: issuerId, bundleId: bundleId,
                                        lifetime: options.tokenLifetime, renewalMargin: options.tokenRenewalMargin, clock: clock)
        self.keyId = keyId
        self.clock = clock
        self.pacer = RequestPacer(pacing: options.pacing, sandbox: environment.isSandbox ?? verifier.expectsSandbox)
    }

    /// The key ID, named in the message of a 401 (it is not secret).
    let keyId: String

    /// The time elapsed on ``clock`` since the client was made: what the deadline and pacing measure.
    let elapsed: @Sendable () -> Duration

    /// The wall clock (bearer tokens' `iat`, the instant a `Retry-After` names) and the clock the
    /// waits between attempts are made on.
    let clock: AppStoreClock

    /// The budgets of Apple's published rate limits, shared by every task using this client.
    let pacer: RequestPacer
}

extension AppStoreServerAPIClient: CustomStringConvertible, CustomReflectable {
    /// The client's public settings; never its key or bearer token.
    public var description: String {
        "AppStoreServerAPIClient(baseURL: \(baseURL), bundleId: \(bundleId), keyId: \(keyId))"
    }

    /// The same settings as ``description``, so that `dump` and `Mirror` show no secret.
    public var customMirror: Mirror {
        Mirror(self, children: ["baseURL": baseURL, "bundleId": bundleId, "keyId": keyId, "options": options], displayStyle: .class)
    }
}
