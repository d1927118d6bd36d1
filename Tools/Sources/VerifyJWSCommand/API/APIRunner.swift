import AppStoreServerAPI
import AppStoreVerification
import ArgumentParser
import Foundation

/// What every `verify-jws api` subcommand does around its requests: makes the client, writes the
/// items as they come, and ends with the worst verdict (returns: all verified; `ExitCode(1)`: some
/// unverified) or with the failure's status (see ``APIFailure``).
enum APIRunner {
    static func run(_ command: String, id: String?, options: APIOptions,
                    _ body: (AppStoreServerAPIClient, APIItemWriter) async throws(AppStoreServerAPIError) -> Void) async throws(ExitCode) {
        let client: AppStoreServerAPIClient
        do {
            client = try options.makeClient(environment: CommandContext.current.environment)
        } catch {
            throw APIFailure.exit(String(describing: error), command: command, status: 2)
        }
        let writer = APIItemWriter(format: options.format, source: ["api", command, id].compactMap { $0 }.joined(separator: " "))
        do {
            try await body(client, writer)
        } catch {
            writer.flush()
            throw APIFailure.exit(APIFailure.message(for: error), command: command, status: APIFailure.exitStatus(for: error))
        }
        writer.flush()
        switch writer.worst {
        case .verified: return
        case .unverified, .malformed: throw ExitCode(1)
        case .unavailable: throw ExitCode(3)
        }
    }
}
