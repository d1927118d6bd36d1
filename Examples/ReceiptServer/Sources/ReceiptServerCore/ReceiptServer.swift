import AppStoreVerification
import Foundation
import Hummingbird
import Logging
import NIOCore
import ServiceLifecycle

/// The receipt server: Hummingbird routes over a ``ReceiptStore``, as a `Service`.
///
/// ```swift
/// let server = try await ReceiptServer(configuration: configuration, logger: logger)
/// let group = ServiceGroup(configuration: .init(services: [server], gracefulShutdownSignals: [.sigterm, .sigint], logger: logger))
/// try await group.run()
/// ```
/// On graceful shutdown (SIGTERM, SIGINT, or the group's `triggerGracefulShutdown()`) the server
/// stops accepting connections, finishes the requests in flight, then closes the database.
public final class ReceiptServer: Service, Sendable {
    /// The database.
    public let store: ReceiptStore
    let context: ReceiptServerContext
    let logger: Logger
    let onServerRunning: @Sendable (Int) async -> Void

    /// Opens the database and builds the verifier.
    ///
    /// - Parameters:
    ///   - configuration: where to listen, the database file, what to accept.
    ///   - logger: the server's logger.
    ///   - onServerRunning: called with the bound port once the server listens.
    /// - Throws: `VerifierConfigurationError` for a bad verifier configuration, ``StorageError``
    ///   when the database cannot be opened.
    public init(
        configuration: ServerConfiguration,
        logger: Logger,
        onServerRunning: @escaping @Sendable (Int) async -> Void = { _ in }
    ) async throws {
        let verifier = try SignedDataVerifier(configuration: configuration.verifier)
        let engineConfiguration = EntitlementEngine.Configuration(nonRenewingDurations: configuration.nonRenewingDurations)
        let store = try await ReceiptStore.open(
            configuration.databasePath, configuration: configuration.store, busyTimeoutMilliseconds: configuration.busyTimeoutMilliseconds,
            verifier: verifier, engineConfiguration: engineConfiguration, logger: logger)
        self.store = store
        self.context = ReceiptServerContext(
            configuration: configuration, verifier: verifier, store: store, engineConfiguration: engineConfiguration)
        self.logger = logger
        self.onServerRunning = onServerRunning
    }

    /// The routes, behind the JSON error middleware.
    func makeRouter() -> Router<BasicRequestContext> {
        let router = Router()
        router.add(middleware: JSONErrorMiddleware())
        let transactions = TransactionsRoute(server: context)
        let notifications = NotificationsRoute(server: context)
        let entitlements = EntitlementsRoute(server: context)
        router.post("transactions") { request, requestContext in
            try await transactions.handle(request, context: requestContext)
        }
        router.post("notifications") { request, requestContext in
            try await notifications.handle(request, context: requestContext)
        }
        router.get("customers/:appAccountToken/entitlements") { request, requestContext in
            try await entitlements.handle(request, context: requestContext)
        }
        return router
    }

    /// Serves until graceful shutdown, then closes the database.
    public func run() async throws {
        let onServerRunning = self.onServerRunning
        let logger = self.logger
        let app = Application(
            router: makeRouter(),
            configuration: .init(address: .hostname(context.configuration.host, port: context.configuration.port), serverName: "ReceiptServer"),
            onServerRunning: { channel in
                let port = channel.localAddress?.port ?? 0
                logger.info("ReceiptServer listening on \(channel.localAddress.map(String.init(describing:)) ?? "?")")
                await onServerRunning(port)
            },
            logger: logger)
        do {
            try await app.run()
        } catch {
            try? await store.close()
            throw error
        }
        try await store.close()
        logger.info("ReceiptServer stopped; database closed")
    }
}
