import AppStoreServerAPI
import AppStoreVerification
import Foundation

/// What every `verify-jws api` subcommand does around its requests: makes the client, writes the
/// items as they come, and exits with the worst verdict (0 all verified, 1 some unverified) or
/// with the failure's status (see ``APIFailure``).
enum APIRunner {
    static func run(_ command: String, id: String?, options: APIOptions,
                    _ body: (AppStoreServerAPIClient, APIItemWriter) async throws(AppStoreServerAPIError) -> Void) async -> Never {
        let client: AppStoreServerAPIClient
        do {
            client = try options.makeClient()
        } catch {
            APIFailure.exit(String(describing: error), command: command, status: 2)
        }
        let writer = APIItemWriter(format: options.format, source: ["api", command, id].compactMap { $0 }.joined(separator: " "))
        do {
            try await body(client, writer)
        } catch {
            writer.flush()
            APIFailure.exit(APIFailure.message(for: error), command: command, status: APIFailure.exitStatus(for: error))
        }
        writer.flush()
        switch writer.worst {
        case .verified: Foundation.exit(0)
        case .unverified, .malformed: Foundation.exit(1)
        case .unavailable: Foundation.exit(3)
        }
    }
}
