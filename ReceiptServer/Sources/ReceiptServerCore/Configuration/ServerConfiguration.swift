import AppStoreVerification
import Foundation

/// Everything the server needs to start: where to listen, where to keep its database, and what
/// signed data to accept.
public struct ServerConfiguration: Sendable {
    /// The address to listen on (`127.0.0.1` by default; `0.0.0.0` for every interface).
    public var host: String
    /// The port to listen on; 0 picks a free one (the tests do).
    public var port: Int
    /// The database: a SQLite file (a path or `sqlite:PATH`, created on first start) or
    /// `postgres://user[:password]@host[:port]/database` (see ``StoreLocation``).
    public var databasePath: String
    /// How the server verifies signed data: trusted roots, bundle ID, App Apple ID, environment.
    public var verifier: SignedDataVerifier.Configuration
    /// The largest request body accepted, in bytes; a larger one is answered 413 before it is read
    /// to the end. App Store notification bodies are a few kilobytes.
    public var maximumBodyBytes: Int
    /// How long a write waits for the database (a lock another process holds, earlier writes, a
    /// PostgreSQL connection) before the request fails with 503 and `Retry-After` (Apple then
    /// retries the notification).
    public var busyTimeoutMilliseconds: Int
    /// How long each non-renewing subscription lasts from its purchase, in seconds, by product ID
    /// (the App Store sets no expiry for them; without an entry one lasts until revoked).
    public var nonRenewingDurations: [String: TimeInterval]
    /// Database connections and the cache of customers' engines.
    public var store = StoreConfiguration()
    /// The server's time: the instant entitlements are computed at ("now"), records are stamped
    /// with, outbound events and refund answers are judged by, and the verifier's (it replaces
    /// ``verifier``'s own clock). Its timers and leases, and the App Store Server API client (whose
    /// bearer tokens Apple judges by the real time), keep the system's time. Default
    /// ``AppStoreVerification/AppStoreClock/system``; tests pass a clock they set by hand.
    public var clock: AppStoreClock

    /// Creates a configuration.
    ///
    /// - Parameters:
    ///   - host: the address to listen on.
    ///   - port: the port to listen on; 0 picks a free one.
    ///   - databasePath: the SQLite database file.
    ///   - verifier: the signed-data verifier's configuration.
    ///   - maximumBodyBytes: the largest request body accepted.
    ///   - busyTimeoutMilliseconds: how long a write waits for a lock held elsewhere.
    ///   - nonRenewingDurations: seconds of access per non-renewing product ID.
    ///   - clock: the server's time (entitlements, records, the verifier).
    public init(
        host: String = "127.0.0.1",
        port: Int = 8080,
        databasePath: String,
        verifier: SignedDataVerifier.Configuration,
        maximumBodyBytes: Int = 64 * 1024,
        busyTimeoutMilliseconds: Int = 5000,
        nonRenewingDurations: [String: TimeInterval] = [:],
        clock: AppStoreClock = .system
    ) {
        self.host = host
        self.port = port
        self.databasePath = databasePath
        self.verifier = verifier
        self.maximumBodyBytes = maximumBodyBytes
        self.busyTimeoutMilliseconds = busyTimeoutMilliseconds
        self.nonRenewingDurations = nonRenewingDurations
        self.clock = clock
    }
}
