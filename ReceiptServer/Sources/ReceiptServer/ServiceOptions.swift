import AppStoreServerAPI
import AppStoreVerification
import ArgumentParser
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import ReceiptServerCore

/// The command line options for connections (timeouts, limits, shutdown), access (the bearer
/// token) and reconciliation (App Store Server API credentials). Each can come from the
/// environment instead; an option on the command line wins.
struct ServiceOptions: ParsableArguments {
    @Option(help: "Seconds a new connection has to send its first request's complete headers. [env: RECEIPT_SERVER_HEADER_TIMEOUT; default: 10]")
    var headerTimeout: Double?

    @Option(help: "Seconds a request's whole body has to arrive once its headers are in. [env: RECEIPT_SERVER_BODY_TIMEOUT; default: 30]")
    var bodyTimeout: Double?

    @Option(help: "Seconds a kept-alive connection has to send the next request's complete headers. [env: RECEIPT_SERVER_IDLE_TIMEOUT; default: 60]")
    var idleTimeout: Double?

    @Option(help: "Connections open at once; at the limit new ones wait in the listen backlog. [env: RECEIPT_SERVER_MAX_CONNECTIONS; default: 1000, or 64 under the open-file limit (ulimit -n) when that is lower]")
    var maxConnections: Int?

    @Option(help: "Connections open at once from one client address (an IPv6 client: its /64); one more is closed at once. Trusted proxies are not counted. [env: RECEIPT_SERVER_MAX_CONNECTIONS_PER_ADDRESS; default: 64]")
    var maxConnectionsPerAddress: Int?

    @Option(help: "A proxy's IP address whose X-Forwarded-For header names the client (repeatable); its connections are not capped per address. [env: RECEIPT_SERVER_TRUSTED_PROXIES, separated by commas; default: none]")
    var trustedProxy: [String] = []

    @Option(help: "A bearer token of its own for GET /metrics, for Prometheus (same rule as the access token). [env: RECEIPT_SERVER_METRICS_TOKEN; default: none: /metrics needs the access token]")
    var metricsToken: String?

    @Option(help: "Serve /metrics on this port alone (open there unless --metrics-token is set); the server's port then answers /metrics 404. [env: RECEIPT_SERVER_METRICS_PORT; default: none]")
    var metricsPort: Int?

    @Option(help: "The address of the --metrics-port listener. [env: RECEIPT_SERVER_METRICS_HOST; default: 127.0.0.1]")
    var metricsHost: String?

    @Option(help: "On SIGTERM, seconds a body still arriving has before its connection closes. [env: RECEIPT_SERVER_SHUTDOWN_GRACE_PERIOD; default: 10]")
    var shutdownGracePeriod: Double?

    @Option(help: "On SIGTERM, seconds until requests still running are cancelled; the process exits at most 5 s later. [env: RECEIPT_SERVER_SHUTDOWN_TIMEOUT; default: 20]")
    var shutdownTimeout: Double?

    @Option(help: "The bearer token your backend presents: GET /customers/.../entitlements and POST /transactions/.../reconcile need it, and only a caller with it is told a customer's data (prefer the environment variable: a command line is visible to other users). Required unless --allow-unauthenticated. [env: RECEIPT_SERVER_ACCESS_TOKEN]")
    var accessToken: String?

    @Flag(help: "Start without an access token: anyone who can reach the port and knows a customer's appAccountToken may read their entitlements, and reconcile is refused to everyone. Logged as a warning at start. [env: RECEIPT_SERVER_ALLOW_UNAUTHENTICATED=1]")
    var allowUnauthenticated = false

    @Option(help: "Your In-App Purchase key (.p8 file) for the App Store Server API, used by the reconcile route. [env: RECEIPT_SERVER_API_KEY_FILE]")
    var apiKeyFile: String?

    @Option(help: "The In-App Purchase key's ID. [env: RECEIPT_SERVER_API_KEY_ID]")
    var apiKeyId: String?

    @Option(help: "Your App Store Connect issuer ID. [env: RECEIPT_SERVER_API_ISSUER_ID]")
    var apiIssuerId: String?

    @Option(help: "With API credentials: minutes between two notification backfills from Get Notification History (the first runs at start); 0 turns the backfill off. [env: RECEIPT_SERVER_BACKFILL_INTERVAL_MINUTES; default: 60]")
    var backfillInterval: Double?

    @Option(help: "Minutes before the latest stored notification's signedDate a backfill starts. [env: RECEIPT_SERVER_BACKFILL_MARGIN_MINUTES; default: 60]")
    var backfillMargin: Double?

    @Option(help: "Days back a backfill starts when no notification is stored yet (at most 180). [env: RECEIPT_SERVER_BACKFILL_WINDOW_DAYS; default: 30]")
    var backfillWindow: Double?

    @Option(help: "The App Store Server API to ask, Sandbox or Production. [env: RECEIPT_SERVER_API_ENVIRONMENT; default: the --environment of the signed data]")
    var apiEnvironment: String?

    @Option(help: "An explicit App Store Server API base URL: https, or http to loopback only (a fake API in tests). [env: RECEIPT_SERVER_API_BASE_URL]")
    var apiBaseUrl: String?

    /// The timeouts and connection limit.
    func connectionLimits(environment: [String: String]) throws -> ConnectionLimits {
        var limits = ConnectionLimits()
        if let value = try seconds(headerTimeout, "RECEIPT_SERVER_HEADER_TIMEOUT", "header-timeout", environment) { limits.headerTimeout = value }
        if let value = try seconds(bodyTimeout, "RECEIPT_SERVER_BODY_TIMEOUT", "body-timeout", environment) { limits.bodyTimeout = value }
        if let value = try seconds(idleTimeout, "RECEIPT_SERVER_IDLE_TIMEOUT", "idle-timeout", environment) { limits.idleTimeout = value }
        if let value = try seconds(shutdownGracePeriod, "RECEIPT_SERVER_SHUTDOWN_GRACE_PERIOD", "shutdown-grace-period", environment) {
            limits.shutdownGracePeriod = value
        }
        if let value = try whole(maxConnectionsPerAddress, "RECEIPT_SERVER_MAX_CONNECTIONS_PER_ADDRESS", "max-connections-per-address", environment) {
            guard value > 0 else { throw ValidationError("The per-address connection limit is \(value); give a positive number (--max-connections-per-address).") }
            limits.maximumConnectionsPerAddress = value
        }
        if let value = try whole(maxConnections, "RECEIPT_SERVER_MAX_CONNECTIONS", "max-connections", environment) {
            guard value > 0 else { throw ValidationError("The connection limit is \(value); give a positive number (--max-connections).") }
            limits.maximumConnections = value
        } else if let files = Self.openFileLimit() {
            // Leave room for the database, the listening socket and outgoing API connections, so
            // that the limit, not the file table, is what new connections meet.
            limits.maximumConnections = max(16, min(limits.maximumConnections, files - 64))
        }
        return limits
    }

    /// The process's soft limit on open files, or `nil` when unlimited (or beyond any connection count) or unknown.
    static func openFileLimit() -> Int? {
        var limit = rlimit()
        #if canImport(Glibc)
        let resource = Int32(RLIMIT_NOFILE.rawValue)
        #else
        let resource = RLIMIT_NOFILE
        #endif
        guard getrlimit(resource, &limit) == 0, limit.rlim_cur < rlim_t(Int32.max) else { return nil }
        return Int(clamping: limit.rlim_cur)
    }

    /// How long a graceful shutdown may take before running requests are cancelled.
    func shutdownTimeout(environment: [String: String]) throws -> Duration {
        try seconds(shutdownTimeout, "RECEIPT_SERVER_SHUTDOWN_TIMEOUT", "shutdown-timeout", environment) ?? .seconds(20)
    }

    /// The access rule: the token, or, only when asked for explicitly, none.
    func accessControl(environment: [String: String]) throws -> AccessControl {
        let allowUnauthenticated = try allowUnauthenticated || flag("RECEIPT_SERVER_ALLOW_UNAUTHENTICATED", "allow-unauthenticated", environment)
        guard let token = text(accessToken, "RECEIPT_SERVER_ACCESS_TOKEN", environment) else {
            guard allowUnauthenticated else {
                throw ValidationError("""
                    No access token: set RECEIPT_SERVER_ACCESS_TOKEN (or --access-token) to a random secret of 32 or more characters, \
                    made with `openssl rand -hex 32`, and give it to your backend. Without one, anyone who can reach the port could read \
                    customers' entitlements. To run without one anyway (a private port, or apps that keep their appAccountToken secret; \
                    reconcile is then refused to everyone), pass --allow-unauthenticated or set RECEIPT_SERVER_ALLOW_UNAUTHENTICATED=1.
                    """)
            }
            return .allowUnauthenticated
        }
        if let weakness = AccessTokenRule.weakness(of: token) {
            throw ValidationError(WeakAccessTokenError(setting: "RECEIPT_SERVER_ACCESS_TOKEN (--access-token)", weakness: weakness).description)
        }
        // A token set makes --allow-unauthenticated moot: everything stays behind the token.
        return AccessControl(bearerToken: token)
    }

    /// The proxies whose `X-Forwarded-For` is believed.
    func trustedProxies(environment: [String: String]) throws -> TrustedProxies {
        var addresses = trustedProxy
        if addresses.isEmpty, let list = text(nil, "RECEIPT_SERVER_TRUSTED_PROXIES", environment) {
            addresses = list.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        }
        do {
            return try TrustedProxies(addresses)
        } catch {
            throw ValidationError(error.description)
        }
    }

    /// Who may read `/metrics`, and where.
    func metricsExposure(environment: [String: String]) throws -> MetricsExposure {
        var exposure = MetricsExposure()
        if let token = text(metricsToken, "RECEIPT_SERVER_METRICS_TOKEN", environment) {
            if let weakness = AccessTokenRule.weakness(of: token) {
                throw ValidationError(WeakAccessTokenError(setting: "RECEIPT_SERVER_METRICS_TOKEN (--metrics-token)", weakness: weakness).description)
            }
            exposure.token = token
        }
        if let port = try whole(metricsPort, "RECEIPT_SERVER_METRICS_PORT", "metrics-port", environment) {
            guard (0...65535).contains(port) else { throw ValidationError("The metrics port is \(port); use 0...65535 (--metrics-port).") }
            exposure.listener = .init(host: text(metricsHost, "RECEIPT_SERVER_METRICS_HOST", environment) ?? "127.0.0.1", port: port)
        }
        return exposure
    }

    /// The notification backfill's schedule, or `nil` when it is turned off (`--backfill-interval 0`).
    func backfillConfiguration(environment: [String: String]) throws -> BackfillConfiguration? {
        func number(_ value: Double?, _ name: String, _ option: String, unit: Double, maximum: Double) throws -> Duration? {
            var parsed = value
            if parsed == nil, let text = text(nil, name, environment) {
                guard let number = Double(text) else { throw ValidationError("\(name)=\(text) is not a number (the --\(option) option).") }
                parsed = number
            }
            guard let parsed else { return nil }
            guard parsed.isFinite, parsed >= 0, parsed <= maximum else {
                throw ValidationError("--\(option) is \(parsed); give a number from 0 to \(Int(maximum)) (\(name)).")
            }
            return .milliseconds(Int64((parsed * unit * 1000).rounded()))
        }
        var configuration = BackfillConfiguration()
        if let interval = try number(backfillInterval, "RECEIPT_SERVER_BACKFILL_INTERVAL_MINUTES", "backfill-interval", unit: 60, maximum: 7 * 24 * 60) {
            guard interval > .zero else { return nil }
            configuration.interval = interval
        }
        if let margin = try number(backfillMargin, "RECEIPT_SERVER_BACKFILL_MARGIN_MINUTES", "backfill-margin", unit: 60, maximum: 30 * 24 * 60) {
            configuration.margin = margin
        }
        if let window = try number(backfillWindow, "RECEIPT_SERVER_BACKFILL_WINDOW_DAYS", "backfill-window", unit: 86_400, maximum: 180) {
            configuration.initialWindow = window
        }
        return configuration
    }

    /// The reconcile route's API credentials, or `nil` when none are given.
    func reconcileConfiguration(environment: [String: String], verifierEnvironment: AppStoreEnvironment?) throws -> ReconcileConfiguration? {
        let keyFile = text(apiKeyFile, "RECEIPT_SERVER_API_KEY_FILE", environment)
        let keyId = text(apiKeyId, "RECEIPT_SERVER_API_KEY_ID", environment)
        let issuerId = text(apiIssuerId, "RECEIPT_SERVER_API_ISSUER_ID", environment)
        if keyFile == nil, keyId == nil, issuerId == nil { return nil }
        guard let keyFile, let keyId, let issuerId else {
            throw ValidationError("Reconciliation needs all three of --api-key-file, --api-key-id and --api-issuer-id (or RECEIPT_SERVER_API_KEY_FILE, RECEIPT_SERVER_API_KEY_ID, RECEIPT_SERVER_API_ISSUER_ID); some are missing.")
        }
        let key: SigningKey
        do {
            key = try SigningKey(contentsOf: URL(fileURLWithPath: keyFile))
        } catch {
            throw ValidationError("The App Store Server API key \(keyFile) cannot be used: \(error). Give the .p8 file App Store Connect gave you.")
        }
        let apiEnvironment: AppStoreServerEnvironment
        switch text(self.apiEnvironment, "RECEIPT_SERVER_API_ENVIRONMENT", environment)?.lowercased() {
        case "production": apiEnvironment = .production
        case "sandbox": apiEnvironment = .sandbox
        case nil: apiEnvironment = verifierEnvironment == .production ? .production : .sandbox
        case let other?:
            throw ValidationError("The API environment is \"\(other)\"; use Sandbox or Production (--api-environment, RECEIPT_SERVER_API_ENVIRONMENT).")
        }
        return ReconcileConfiguration(signingKey: key, keyId: keyId, issuerId: issuerId, environment: apiEnvironment,
                                      baseURL: text(apiBaseUrl, "RECEIPT_SERVER_API_BASE_URL", environment))
    }

    private func text(_ value: String?, _ name: String, _ environment: [String: String]) -> String? {
        value ?? environment[name].flatMap { $0.isEmpty ? nil : $0 }
    }

    /// A yes/no environment variable: 1, true, yes (on) or 0, false, no, empty (off).
    private func flag(_ name: String, _ option: String, _ environment: [String: String]) throws -> Bool {
        guard let value = environment[name] else { return false }
        switch value.lowercased() {
        case "1", "true", "yes": return true
        case "", "0", "false", "no": return false
        default: throw ValidationError("\(name)=\(value) is neither 1 nor 0 (the --\(option) flag).")
        }
    }

    private func whole(_ value: Int?, _ name: String, _ option: String, _ environment: [String: String]) throws -> Int? {
        if let value { return value }
        guard let text = text(nil, name, environment) else { return nil }
        guard let parsed = Int(text) else { throw ValidationError("\(name)=\(text) is not a whole number (the --\(option) option).") }
        return parsed
    }

    private func seconds(_ value: Double?, _ name: String, _ option: String, _ environment: [String: String]) throws -> Duration? {
        let parsed: Double
        if let value {
            parsed = value
        } else if let text = text(nil, name, environment) {
            guard let number = Double(text) else { throw ValidationError("\(name)=\(text) is not a number of seconds (the --\(option) option).") }
            parsed = number
        } else {
            return nil
        }
        guard parsed.isFinite, parsed > 0, parsed <= 86_400 else {
            throw ValidationError("--\(option) is \(parsed) s; give a number of seconds above 0 and at most 86400 (\(name)).")
        }
        return .milliseconds(Int64((parsed * 1000).rounded()))
    }
}
