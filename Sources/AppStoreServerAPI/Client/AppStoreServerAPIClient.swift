#if ServerAPIClient
import AppStoreVerification
import AsyncHTTPClient
import Foundation

/// A client of the App Store Server API on AsyncHTTPClient: every signed item in a response is
/// verified with your `SignedDataVerifier` and returned as a `VerificationResult`.
///
/// ```swift
/// let client = AppStoreServerAPIClient(signingKey: try SigningKey(contentsOf: keyURL), keyId: "2X9R4HXF34",
///                                      issuerId: issuerId, bundleId: "com.example.app",
///                                      environment: .production, verifier: verifier)
/// var engine = EntitlementEngine()
/// for try await transaction in client.transactionHistory(transactionId: id) {
///     engine.ingest(transaction)
/// }
/// ```
///
/// Calls are authenticated with an ES256 bearer token signed with your In-App Purchase key, reused
/// until shortly before it expires. HTTP 429 and 5xx answers and connection failures are retried
/// with exponential backoff (honouring `Retry-After`) within ``Options/deadline``; every other
/// failure throws ``AppStoreServerAPIError`` at once. An item that fails verification comes back
/// `.unverified` beside the others.
public final class AppStoreServerAPIClient: Sendable {
    /// The bundle ID the bearer token names (`bid`).
    public let bundleId: String
    /// Timeouts, retries and token lifetime.
    public let options: Options
    /// The base URL requests go to, without a trailing slash.
    public var baseURL: String { base.text }

    /// The verifier every signed item of every response goes through.
    let verifier: ResponseVerifier
    let base: BaseURL
    let tokens: BearerTokenIssuer
    let httpClient: HTTPClient

    /// A client of Apple's production or sandbox API.
    ///
    /// - Parameters:
    ///   - signingKey: your In-App Purchase key (the `.p8` file from App Store Connect, Users and
    ///     Access > Integrations > In-App Purchase).
    ///   - keyId: that key's ID.
    ///   - issuerId: your issuer ID (shown on the same page).
    ///   - bundleId: your app's bundle ID.
    ///   - environment: production or sandbox.
    ///   - verifier: the verifier for the signed data in responses; configure it with the same
    ///     bundle ID and environment.
    ///   - options: timeouts, retries and token lifetime.
    ///   - httpClient: the AsyncHTTPClient to send requests with; by default one shared by every
    ///     client of this library, which needs no shutdown and follows no redirect (Apple's API never
    ///     redirects). A client you give should have `redirectConfiguration = .disallow`: an answer
    ///     that came through a redirect is refused with `unexpectedRedirect` either way.
    ///     (AsyncHTTPClient retries a refused connection within each attempt's timeout unless its
    ///     configuration's `connectionPool.retryConnectionEstablishment` is off.)
    public convenience init(signingKey: SigningKey, keyId: String, issuerId: String, bundleId: String,
                            environment: AppStoreServerEnvironment, verifier: SignedDataVerifier,
                            options: Options = Options(), httpClient: HTTPClient? = nil) {
        self.init(signingKey: signingKey, keyId: keyId, issuerId: issuerId, bundleId: bundleId, base: BaseURL(environment: environment),
                  verifier: .offline(verifier), options: options, httpClient: httpClient, clock: { Date() })
    }

    /// A client of Apple's production or sandbox API whose answers are verified online: every
    /// signed item is also checked for revocation (see `OnlineSignedDataVerifier`).
    ///
    /// - Parameters: as in ``init(signingKey:keyId:issuerId:bundleId:environment:verifier:options:httpClient:)-(_,_,_,_,_,SignedDataVerifier,_,_)``,
    ///   with an online verifier.
    public convenience init(signingKey: SigningKey, keyId: String, issuerId: String, bundleId: String,
                            environment: AppStoreServerEnvironment, verifier: OnlineSignedDataVerifier,
                            options: Options = Options(), httpClient: HTTPClient? = nil) {
        self.init(signingKey: signingKey, keyId: keyId, issuerId: issuerId, bundleId: bundleId, base: BaseURL(environment: environment),
                  verifier: .online(verifier), options: options, httpClient: httpClient, clock: { Date() })
    }

    /// A client of the API at an explicit base URL: `https://` anywhere, `http://` only to
    /// 127.0.0.1, ::1 or localhost (a fake App Store in tests).
    ///
    /// - Parameters:
    ///   - baseURL: scheme, host, port (and optionally a path prefix), such as
    ///     `http://127.0.0.1:8080`.
    ///   - signingKey: your In-App Purchase key.
    ///   - keyId: that key's ID.
    ///   - issuerId: your issuer ID.
    ///   - bundleId: your app's bundle ID.
    ///   - verifier: the verifier for the signed data in responses.
    ///   - options: timeouts, retries and token lifetime.
    ///   - httpClient: the AsyncHTTPClient to send requests with (by default the shared one).
    ///
    ///   The parameters are those of ``init(signingKey:keyId:issuerId:bundleId:environment:verifier:options:httpClient:)``
    ///   with `baseURL` in place of `environment`.
    /// - Throws: ``AppStoreServerAPIError`` (`invalidRequest`) for a base URL that is not https and
    ///   not http to a loopback host.
    public convenience init(signingKey: SigningKey, keyId: String, issuerId: String, bundleId: String,
                            baseURL: String, verifier: SignedDataVerifier,
                            options: Options = Options(), httpClient: HTTPClient? = nil) throws(AppStoreServerAPIError) {
        self.init(signingKey: signingKey, keyId: keyId, issuerId: issuerId, bundleId: bundleId, base: try BaseURL(validating: baseURL),
                  verifier: .offline(verifier), options: options, httpClient: httpClient, clock: { Date() })
    }

    /// A client of the API at an explicit base URL whose answers are verified online.
    ///
    /// - Parameters: as in ``init(signingKey:keyId:issuerId:bundleId:baseURL:verifier:options:httpClient:)-(_,_,_,_,_,SignedDataVerifier,_,_)``,
    ///   with an online verifier.
    /// - Throws: ``AppStoreServerAPIError`` (`invalidRequest`) for a base URL that is not https and
    ///   not http to a loopback host.
    public convenience init(signingKey: SigningKey, keyId: String, issuerId: String, bundleId: String,
                            baseURL: String, verifier: OnlineSignedDataVerifier,
                            options: Options = Options(), httpClient: HTTPClient? = nil) throws(AppStoreServerAPIError) {
        self.init(signingKey: signingKey, keyId: keyId, issuerId: issuerId, bundleId: bundleId, base: try BaseURL(validating: baseURL),
                  verifier: .online(verifier), options: options, httpClient: httpClient, clock: { Date() })
    }

    /// A client whose bearer tokens read the time from `clock` (tests of token expiry) and whose
    /// deadline and waits between attempts use `retryClock` (tests of retries that wait no real
    /// time).
    package convenience init(signingKey: SigningKey, keyId: String, issuerId: String, bundleId: String, baseURL: String,
                             verifier: SignedDataVerifier, options: Options, httpClient: HTTPClient? = nil,
                             clock: @escaping @Sendable () -> Date, retryClock: any RetryClock) throws(AppStoreServerAPIError) {
        self.init(signingKey: signingKey, keyId: keyId, issuerId: issuerId, bundleId: bundleId, base: try BaseURL(validating: baseURL),
                  verifier: .offline(verifier), options: options, httpClient: httpClient, clock: clock, retryClock: retryClock)
    }

    private init(signingKey: SigningKey, keyId: String, issuerId: String, bundleId: String, base: BaseURL,
                 verifier: ResponseVerifier, options: Options, httpClient: HTTPClient?, clock: @escaping @Sendable () -> Date,
                 retryClock: any RetryClock = ContinuousRetryClock()) {
        self.retryClock = retryClock
        self.bundleId = bundleId
        self.verifier = verifier
        self.options = options
        self.base = base
        self.httpClient = httpClient ?? Self.defaultHTTPClient
        self.tokens = BearerTokenIssuer(signingKey: signingKey, keyId: keyId, issuerId: issuerId, bundleId: bundleId,
                                        lifetime: options.tokenLifetime, renewalMargin: options.tokenRenewalMargin, clock: clock)
        self.keyId = keyId
        self.clock = clock
        self.pacer = RequestPacer(pacing: options.pacing, sandbox: base.text == AppStoreServerEnvironment.sandbox.baseURL
                                    || (base.text != AppStoreServerEnvironment.production.baseURL && verifier.expectsSandbox))
    }

    /// The key ID, named in the message of a 401 (it is not secret).
    let keyId: String

    /// The clock of the deadline and of the waits between attempts.
    let retryClock: any RetryClock

    /// The wall clock: bearer tokens' `iat`, and the instant a `Retry-After` names.
    let clock: @Sendable () -> Date

    /// The budgets of Apple's published rate limits, shared by every task using this client.
    let pacer: RequestPacer

    /// The HTTP client of every API client given none: AsyncHTTPClient's shared configuration
    /// without redirects. Never shut down, like `HTTPClient.shared`.
    static let defaultHTTPClient: HTTPClient = {
        var configuration = HTTPClient.Configuration.singletonConfiguration
        configuration.redirectConfiguration = .disallow
        return HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
    }()
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
#endif
