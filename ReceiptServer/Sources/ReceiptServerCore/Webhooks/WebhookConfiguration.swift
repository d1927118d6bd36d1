import Foundation

/// Outbound events (Docs/Webhooks.md): where they go, how they are signed, and how long a failing
/// endpoint is retried.
///
/// From the environment with ``init(environment:)``: `RECEIPT_SERVER_WEBHOOK_URL` (one or more
/// URLs separated by commas or spaces), `RECEIPT_SERVER_WEBHOOK_SECRET` (`whsec_<base64>`), and the
/// optional settings below.
public struct WebhookConfiguration: Sendable {
    /// The endpoints; each receives every event.
    public var endpoints: [URL]
    /// The signing secret.
    public var secret: WebhookSecret
    /// Whether `notification.received` carries Apple's original `signedPayload`.
    public var includeSignedPayload = false
    /// How long one delivery attempt may take (connect, send, answer).
    public var timeout: Duration = .seconds(10)
    /// The delay before the first retry; each further retry waits twice as long (with jitter).
    public var firstRetryDelay: Duration = .seconds(5)
    /// The longest delay between two attempts.
    public var maximumRetryDelay: Duration = .seconds(4 * 3600)
    /// How long an event is retried before it is dead-lettered (counted from its creation, or from
    /// a redelivery).
    public var retryPeriod: Duration = .seconds(3 * 86_400)
    /// How often the server looks for customers whose entitlements time alone changed (an expiry,
    /// the end of a grace period).
    public var expiryCheckInterval: Duration = .seconds(60)
    /// How often each delivery worker looks for due events when nothing woke it.
    public var pollInterval: Duration = .seconds(1)
    /// Deliveries in flight at once per process.
    public var concurrency = 4

    /// A configuration for `endpoints` signed with `secret`.
    ///
    /// - Throws: ``WebhookConfigurationError`` for an endpoint that is not https (or http to
    ///   loopback, or any http with `allowInsecureHTTP`), or no endpoint.
    public init(endpoints: [String], secret: WebhookSecret, allowInsecureHTTP: Bool = false) throws(WebhookConfigurationError) {
        guard !endpoints.isEmpty else { throw WebhookConfigurationError("RECEIPT_SERVER_WEBHOOK_URL names no endpoint") }
        self.endpoints = try endpoints.map { text throws(WebhookConfigurationError) in
            try Self.endpoint(text, allowInsecureHTTP: allowInsecureHTTP)
        }
        self.secret = secret
    }

    /// The configuration the environment gives, or `nil` when `RECEIPT_SERVER_WEBHOOK_URL` is unset.
    ///
    /// - `RECEIPT_SERVER_WEBHOOK_URL`: endpoints, separated by commas or whitespace.
    /// - `RECEIPT_SERVER_WEBHOOK_SECRET`: `whsec_` and the base64 of 24 to 64 random bytes.
    /// - `RECEIPT_SERVER_WEBHOOK_ALLOW_HTTP=1`: http to hosts other than loopback.
    /// - `RECEIPT_SERVER_WEBHOOK_INCLUDE_SIGNED_PAYLOAD=1`: Apple's `signedPayload` in `notification.received`.
    /// - `RECEIPT_SERVER_WEBHOOK_TIMEOUT_SECONDS` (10), `RECEIPT_SERVER_WEBHOOK_FIRST_RETRY_SECONDS` (5),
    ///   `RECEIPT_SERVER_WEBHOOK_MAX_RETRY_DELAY_SECONDS` (14400), `RECEIPT_SERVER_WEBHOOK_RETRY_PERIOD_HOURS` (72),
    ///   `RECEIPT_SERVER_WEBHOOK_EXPIRY_CHECK_SECONDS` (60).
    ///
    /// - Throws: ``WebhookConfigurationError`` saying which setting is wrong and how to fix it.
    public static func fromEnvironment(_ environment: [String: String]) throws(WebhookConfigurationError) -> WebhookConfiguration? {
        guard let urls = environment["RECEIPT_SERVER_WEBHOOK_URL"], !urls.trimmingCharacters(in: .whitespaces).isEmpty else {
            if environment["RECEIPT_SERVER_WEBHOOK_SECRET"] != nil {
                throw WebhookConfigurationError("RECEIPT_SERVER_WEBHOOK_SECRET is set but RECEIPT_SERVER_WEBHOOK_URL is not: set the endpoint URL, or unset the secret")
            }
            return nil
        }
        guard let secretText = environment["RECEIPT_SERVER_WEBHOOK_SECRET"], !secretText.isEmpty else {
            throw WebhookConfigurationError("""
                RECEIPT_SERVER_WEBHOOK_URL is set but RECEIPT_SERVER_WEBHOOK_SECRET is not: every event is signed, so the server needs a \
                secret. Make one with `echo "whsec_$(openssl rand -base64 32)"`, give it to the receiver too, and set it as \
                RECEIPT_SERVER_WEBHOOK_SECRET
                """)
        }
        let endpoints = urls.split(whereSeparator: { $0 == "," || $0.isWhitespace }).map(String.init)
        var configuration = try WebhookConfiguration(
            endpoints: endpoints, secret: try WebhookSecret(secretText), allowInsecureHTTP: environment["RECEIPT_SERVER_WEBHOOK_ALLOW_HTTP"] == "1")
        configuration.includeSignedPayload = environment["RECEIPT_SERVER_WEBHOOK_INCLUDE_SIGNED_PAYLOAD"] == "1"
        func seconds(_ name: String, scale: Double = 1) throws(WebhookConfigurationError) -> Duration? {
            guard let text = environment[name] else { return nil }
            guard let value = Double(text), value > 0, value.isFinite, value * scale < 1e9 else {
                throw WebhookConfigurationError("\(name)=\(text.prefix(40)) is not a positive number")
            }
            return .milliseconds(Int64((value * scale * 1000).rounded()))
        }
        if let value = try seconds("RECEIPT_SERVER_WEBHOOK_TIMEOUT_SECONDS") { configuration.timeout = value }
        if let value = try seconds("RECEIPT_SERVER_WEBHOOK_FIRST_RETRY_SECONDS") { configuration.firstRetryDelay = value }
        if let value = try seconds("RECEIPT_SERVER_WEBHOOK_MAX_RETRY_DELAY_SECONDS") { configuration.maximumRetryDelay = value }
        if let value = try seconds("RECEIPT_SERVER_WEBHOOK_RETRY_PERIOD_HOURS", scale: 3600) { configuration.retryPeriod = value }
        if let value = try seconds("RECEIPT_SERVER_WEBHOOK_EXPIRY_CHECK_SECONDS") { configuration.expiryCheckInterval = value }
        return configuration
    }

    /// `text` as an endpoint: https, or http to loopback (any http with `allowInsecureHTTP`).
    static func endpoint(_ text: String, allowInsecureHTTP: Bool) throws(WebhookConfigurationError) -> URL {
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), let host = url.host, !host.isEmpty else {
            throw WebhookConfigurationError("webhook endpoint \"\(text.prefix(200))\" is not an absolute URL such as https://example.com/hooks/receipts")
        }
        switch scheme {
        case "https":
            return url
        case "http":
            if allowInsecureHTTP || isLoopback(host) { return url }
            throw WebhookConfigurationError("""
                webhook endpoint \(url.absoluteString.prefix(200)) is http to a host other than loopback: events would cross the \
                network unencrypted. Use https, or set RECEIPT_SERVER_WEBHOOK_ALLOW_HTTP=1 if the network is private
                """)
        default:
            throw WebhookConfigurationError("webhook endpoint \(url.absoluteString.prefix(200)) is neither https nor http")
        }
    }

    static func isLoopback(_ host: String) -> Bool {
        let bare = host.trimmingCharacters(in: CharacterSet(charactersIn: "[]")).lowercased()
        return bare == "localhost" || bare == "::1" || bare.hasPrefix("127.")
    }

    /// How long to wait after the `attempts`-th failed attempt: `firstRetryDelay` doubled per
    /// further attempt, at most `maximumRetryDelay`, of which a random part of up to a half is
    /// left out (jitter, so that endpoints coming back are not hit by every sender at once).
    func retryDelay(afterAttempts attempts: Int, random: Double = Double.random(in: 0..<1)) -> Duration {
        let first = Double(firstRetryDelay.components.seconds) + Double(firstRetryDelay.components.attoseconds) / 1e18
        let maximum = Double(maximumRetryDelay.components.seconds) + Double(maximumRetryDelay.components.attoseconds) / 1e18
        let exponent = Double(min(max(attempts - 1, 0), 40))
        let full = min(first * pow(2, exponent), maximum)
        return .milliseconds(Int64((full * (1 - 0.5 * random) * 1000).rounded()))
    }
}

/// A Standard Webhooks signing secret: `whsec_` and the base64 of the key's bytes.
public struct WebhookSecret: Sendable {
    /// The HMAC-SHA256 key.
    let key: [UInt8]

    /// Parses `whsec_<base64>`.
    ///
    /// - Throws: ``WebhookConfigurationError`` saying how to make a good one.
    public init(_ text: String) throws(WebhookConfigurationError) {
        let howTo = "make one with `echo \"whsec_$(openssl rand -base64 32)\"`"
        guard text.hasPrefix("whsec_") else {
            throw WebhookConfigurationError("RECEIPT_SERVER_WEBHOOK_SECRET does not start with whsec_ (the Standard Webhooks form); \(howTo)")
        }
        guard let bytes = Data(base64Encoded: String(text.dropFirst(6))) else {
            throw WebhookConfigurationError("RECEIPT_SERVER_WEBHOOK_SECRET is not whsec_ followed by base64; \(howTo)")
        }
        guard bytes.count >= 24, bytes.count <= 64 else {
            throw WebhookConfigurationError("RECEIPT_SERVER_WEBHOOK_SECRET holds \(bytes.count) bytes; the specification asks for 24 to 64: \(howTo)")
        }
        key = Array(bytes)
    }
}

/// A webhook setting the server cannot start with.
public struct WebhookConfigurationError: Error, CustomStringConvertible, Sendable {
    public let description: String
    init(_ description: String) { self.description = description }
}
