import Hummingbird
import ServiceLifecycle

extension ApplicationProtocol {
    /// Runs the application as Hummingbird's `runService()` does, in a `ServiceGroup` that shuts it
    /// down gracefully on SIGTERM and SIGINT, with the shutdown bounded: requests still running
    /// `maximumGracefulShutdownDuration` after the signal are cancelled, and the group gives up on
    /// them `maximumCancellationDuration` later.
    func runService(maximumGracefulShutdownDuration: Duration, maximumCancellationDuration: Duration) async throws {
        var configuration = ServiceGroupConfiguration(services: [self], gracefulShutdownSignals: [.sigterm, .sigint], logger: logger)
        configuration.maximumGracefulShutdownDuration = maximumGracefulShutdownDuration
        configuration.maximumCancellationDuration = maximumCancellationDuration
        try await ServiceGroup(configuration: configuration).run()
    }
}
