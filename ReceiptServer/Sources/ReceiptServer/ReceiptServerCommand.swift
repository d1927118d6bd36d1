import AppStoreVerification
import ArgumentParser
import Foundation
import Hummingbird
import Logging
import ReceiptServerCore
import ServiceLifecycle

/// `ReceiptServer`: serves `POST /transactions`, `POST /notifications` and
/// `GET /customers/{appAccountToken}/entitlements` over a SQLite database.
///
/// Every option can also come from the environment (`RECEIPT_SERVER_PORT`, ...); an option on the
/// command line wins.
@main
struct ReceiptServerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ReceiptServer",
        abstract: "An App Store receipt server: verifies StoreKit 2 transactions and App Store Server Notifications V2, stores them in SQLite, answers entitlements.",
        discussion: """
            Every option may instead be set in the environment: RECEIPT_SERVER_HOST, RECEIPT_SERVER_PORT, \
            RECEIPT_SERVER_DATABASE, RECEIPT_SERVER_BUNDLE_ID, RECEIPT_SERVER_APP_APPLE_ID, \
            RECEIPT_SERVER_ENVIRONMENT, RECEIPT_SERVER_ROOT (one path, or several separated by ':'), \
            RECEIPT_SERVER_MAX_BODY_BYTES, RECEIPT_SERVER_BUSY_TIMEOUT_MS, RECEIPT_SERVER_READER_CONNECTIONS, \
            RECEIPT_SERVER_POSTGRES_CONNECTIONS, RECEIPT_SERVER_CACHED_CUSTOMERS, PGPASSWORD, LOG_LEVEL (trace, debug, info, notice, warning, error); \
            and those of the options below, named on each. \
            Stop with SIGTERM or SIGINT: requests in flight finish (uploads still arriving get the \
            shutdown grace period), then the database closes; the process exits within the shutdown timeout.
            """)

    @Option(help: "The address to listen on. [env: RECEIPT_SERVER_HOST; default: 127.0.0.1]")
    var host: String?

    @Option(help: "The port to listen on; 0 picks a free one. [env: RECEIPT_SERVER_PORT; default: 8080]")
    var port: Int?

    @Option(help: "The database: a SQLite file path or sqlite:PATH (created on first start), or postgres://user[:password]@host[:port]/database[?sslmode=disable]. [env: RECEIPT_SERVER_DATABASE; default: ~/.local/share/receipt-server/receipts.sqlite, or under $XDG_DATA_HOME]")
    var database: String?

    @Option(help: "Your app's bundle ID; signed data of other apps is refused. [env: RECEIPT_SERVER_BUNDLE_ID; required]")
    var bundleId: String?

    @Option(help: "Your app's Apple ID (App Store Connect); required for Production. [env: RECEIPT_SERVER_APP_APPLE_ID]")
    var appAppleId: Int64?

    @Option(help: "Sandbox or Production: signed data of the other environment is refused. [env: RECEIPT_SERVER_ENVIRONMENT; default: Sandbox]")
    var environment: String?

    @Option(name: .customLong("root"), help: "A trusted root certificate file (DER or PEM); repeat for several. Default: Apple Root CA - G3, built in. [env: RECEIPT_SERVER_ROOT]")
    var roots: [String] = []

    @Option(help: "The largest request body accepted, in bytes. [env: RECEIPT_SERVER_MAX_BODY_BYTES; default: 65536]")
    var maxBodyBytes: Int?

    @Option(name: .customLong("non-renewing-duration"), help: "PRODUCT_ID=SECONDS: how long a non-renewing subscription lasts from its purchase (the App Store sets no expiry); repeat per product. Without one it lasts until revoked.")
    var nonRenewingDurations: [String] = []

    // MARK: Connections, access, reconcile (see ServiceOptions.swift)

    @OptionGroup(title: "Connections, access and reconciliation")
    var service: ServiceOptions

    // MARK: Store (database) options

    @Option(help: "How long a write waits for the database (another process's lock, earlier writes, a PostgreSQL connection) before the request is answered 503 with Retry-After, in milliseconds. [env: RECEIPT_SERVER_BUSY_TIMEOUT_MS; default: 5000]")
    var busyTimeout: Int?

    @Option(help: "SQLite: read-only connections beside the writer, so reads never wait behind writes. [env: RECEIPT_SERVER_READER_CONNECTIONS; default: 2]")
    var readerConnections: Int?

    @Option(help: "PostgreSQL: the most connections the pool opens. [env: RECEIPT_SERVER_POSTGRES_CONNECTIONS; default: 8]")
    var postgresConnections: Int?

    @Option(help: "How many customers' entitlement engines to keep in memory; 0 restores each answer from the database. [env: RECEIPT_SERVER_CACHED_CUSTOMERS; default: 10000]")
    var cachedCustomers: Int?

    @Flag(help: "Verify every stored JWS again with the current --root, --bundle-id, --app-apple-id and --environment (after the trusted roots changed), store what each counts for now, print a report and exit. Safe beside running servers.")
    var reverify = false

    /// Applies the store options to `configuration`.
    func applyStoreOptions(to configuration: inout ServerConfiguration, environment: [String: String]) throws {
        func number(_ value: Int?, _ name: String, _ option: String, minimum: Int) throws -> Int? {
            var result = value
            if result == nil, let text = environment[name], !text.isEmpty {
                guard let parsed = Int(text) else { throw ValidationError("\(name)=\(text) is not a whole number (the --\(option) option).") }
                result = parsed
            }
            guard let result else { return nil }
            guard result >= minimum else { throw ValidationError("--\(option) is \(result); give at least \(minimum).") }
            return result
        }
        if let busy = try number(busyTimeout, "RECEIPT_SERVER_BUSY_TIMEOUT_MS", "busy-timeout", minimum: 1) {
            configuration.busyTimeoutMilliseconds = busy
        }
        if let readers = try number(readerConnections, "RECEIPT_SERVER_READER_CONNECTIONS", "reader-connections", minimum: 1) {
            configuration.store.readerConnections = readers
        }
        if let connections = try number(postgresConnections, "RECEIPT_SERVER_POSTGRES_CONNECTIONS", "postgres-connections", minimum: 1) {
            configuration.store.postgresMaximumConnections = connections
        }
        if let cached = try number(cachedCustomers, "RECEIPT_SERVER_CACHED_CUSTOMERS", "cached-customers", minimum: 0) {
            configuration.store.cachedCustomers = cached
        }
        do {
            _ = try StoreLocation(configuration.databasePath)
        } catch {
            throw ValidationError("--database: \(error)")
        }
    }

    /// `--reverify`: verifies every stored JWS again and prints what changed.
    func runReverification(_ configuration: ServerConfiguration, logger: Logger) async throws {
        let verifier = try SignedDataVerifier(configuration: configuration.verifier)
        let report = try await ReceiptStore.withOpened(
            configuration.databasePath, configuration: configuration.store, busyTimeoutMilliseconds: configuration.busyTimeoutMilliseconds,
            verifier: verifier, engineConfiguration: .init(nonRenewingDurations: configuration.nonRenewingDurations), logger: logger
        ) { store in
            try await store.reverify(with: verifier, now: Int64((Date().timeIntervalSince1970 * 1000).rounded(.down)))
        }
        print("reverify: \(report.checked) stored JWS verified again; \(report.changed) changed, \(report.rejected) now rejected; \(report.customers) customers' answers updated")
    }
    // MARK: End of store options

    func run() async throws {
        let environmentVariables = ProcessInfo.processInfo.environment
        MemoryTuning.apply(environment: environmentVariables)
        func setting(_ value: String?, _ name: String) -> String? {
            value ?? environmentVariables[name].flatMap { $0.isEmpty ? nil : $0 }
        }
        func number<T: FixedWidthInteger>(_ value: T?, _ name: String, _ option: String) throws -> T? {
            if let value { return value }
            guard let text = setting(nil, name) else { return nil }
            guard let parsed = T(text) else {
                throw ValidationError("\(name)=\(text) is not a whole number (the --\(option) option).")
            }
            return parsed
        }

        guard let bundleId = setting(bundleId, "RECEIPT_SERVER_BUNDLE_ID") else {
            throw ValidationError("Give your app's bundle ID with --bundle-id or RECEIPT_SERVER_BUNDLE_ID: the server refuses signed data of other apps.")
        }
        var verifier = SignedDataVerifier.Configuration(bundleId: bundleId)
        switch (setting(environment, "RECEIPT_SERVER_ENVIRONMENT") ?? "Sandbox").lowercased() {
        case "sandbox": verifier.environment = .sandbox
        case "production": verifier.environment = .production
        case let other:
            throw ValidationError("The environment is \"\(other)\"; use Sandbox or Production (--environment, RECEIPT_SERVER_ENVIRONMENT).")
        }
        verifier.appAppleId = try number(appAppleId, "RECEIPT_SERVER_APP_APPLE_ID", "app-apple-id")
        let rootPaths = roots.isEmpty
            ? (setting(nil, "RECEIPT_SERVER_ROOT")?.split(separator: ":").map(String.init) ?? [])
            : roots
        if !rootPaths.isEmpty {
            verifier.trustedRoots = try rootPaths.flatMap { path in
                try TrustedRoot.roots(contentsOf: URL(fileURLWithPath: path))
            }
        }
        let port = try number(port, "RECEIPT_SERVER_PORT", "port") ?? 8080
        guard (0...65535).contains(port) else {
            throw ValidationError("The port is \(port); use 0...65535.")
        }
        let maxBodyBytes = try number(maxBodyBytes, "RECEIPT_SERVER_MAX_BODY_BYTES", "max-body-bytes") ?? 64 * 1024
        guard maxBodyBytes > 0 else {
            throw ValidationError("The body limit is \(maxBodyBytes) bytes; give a positive number.")
        }
        var durations: [String: TimeInterval] = [:]
        for entry in nonRenewingDurations {
            let parts = entry.split(separator: "=", maxSplits: 1).map(String.init)
            guard parts.count == 2, !parts[0].isEmpty, let seconds = TimeInterval(parts[1]), seconds > 0, seconds.isFinite else {
                throw ValidationError("--non-renewing-duration \(entry): write PRODUCT_ID=SECONDS, e.g. com.example.app.season.pass=7776000 (90 days).")
            }
            durations[parts[0]] = seconds
        }
        var configuration = ServerConfiguration(
            host: setting(host, "RECEIPT_SERVER_HOST") ?? "127.0.0.1",
            port: port,
            databasePath: try setting(database, "RECEIPT_SERVER_DATABASE") ?? Self.defaultDatabasePath(),
            verifier: verifier,
            maximumBodyBytes: maxBodyBytes,
            nonRenewingDurations: durations)

        var logger = Logger(label: "ReceiptServer")
        logger.logLevel = environmentVariables["LOG_LEVEL"].flatMap(Logger.Level.init(rawValue:)) ?? .info
        try applyStoreOptions(to: &configuration, environment: environmentVariables)
        if reverify {
            try await runReverification(configuration, logger: logger)
            return
        }
        // Read before the database opens, so that a bad value exits before anything needs closing.
        let shutdownTimeout = try service.shutdownTimeout(environment: environmentVariables)
        let app = try await buildApplication(ReceiptServerConfiguration(
            server: configuration, connectionLimits: try service.connectionLimits(environment: environmentVariables),
            access: try service.accessControl(environment: environmentVariables),
            trustedProxies: try service.trustedProxies(environment: environmentVariables),
            metricsExposure: try service.metricsExposure(environment: environmentVariables),
            reconcile: try service.reconcileConfiguration(environment: environmentVariables, verifierEnvironment: verifier.environment),
            backfill: try service.backfillConfiguration(environment: environmentVariables),
            webhooks: try WebhookConfiguration.fromEnvironment(environmentVariables),
            refundAnswers: try RefundAnswerOptions.configuration(environment: environmentVariables),
            logger: logger))
        // Whatever clients do, the process exits: requests still running after the shutdown
        // timeout are cancelled, and the group gives up on them 5 s later.
        try await app.runService(maximumGracefulShutdownDuration: shutdownTimeout, maximumCancellationDuration: .seconds(5))
        // Logged under the service module's source, as it was when the service logged it.
        logger.info("ReceiptServer stopped; database closed", source: "ReceiptServerCore")
    }

    /// The default database path (outside any checkout), its directory created.
    private static func defaultDatabasePath() throws -> String {
        let path = DefaultDatabaseLocation.path()
        do {
            try DefaultDatabaseLocation.prepare(path)
        } catch {
            throw ValidationError("Cannot create the directory of the default database \(path): \(error.localizedDescription). Give a database file with --database or RECEIPT_SERVER_DATABASE.")
        }
        return path
    }
}
