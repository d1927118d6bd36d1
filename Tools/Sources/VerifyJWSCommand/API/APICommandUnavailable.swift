#if !ServerAPIClient
import ArgumentParser
import Foundation

/// `verify-jws api` in a tool built without the App Store Server API client: listed in the help
/// with how to get it, and, when called, says how to build the tool with the client and exits with
/// status 2 (wrong arguments) instead of reading `api` as a file name.
struct APICommandUnavailable: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "api",
        abstract: "Ask the App Store Server API (needs the tool built with its API client: swift run --package-path Tools --traits ServerAPIClient verify-jws api ...)."
    )

    static let message = """
        verify-jws: the 'api' subcommand needs the App Store Server API client, which this build of \
        verify-jws leaves out (it brings SwiftNIO and AsyncHTTPClient). Build the tool with it: \
        swift run --package-path Tools --traits ServerAPIClient verify-jws api ...

        """

    func run() throws {
        Self.exitExplaining()
    }

    static func exitExplaining() -> Never {
        FileHandle.standardError.write(Data(message.utf8))
        Foundation.exit(2)
    }
}
#endif
