#if !ServerAPIClient
import Foundation

/// `verify-jws api` in a tool built without the App Store Server API client: says how to build it
/// with the client and exits with status 2 (wrong arguments), instead of reading `api` as a file.
enum APICommandUnavailable {
    static let message = """
        verify-jws: the 'api' subcommand needs the App Store Server API client, which this build of \
        verify-jws leaves out (it brings SwiftNIO and AsyncHTTPClient). Build the tool with it: \
        swift run --package-path Tools --traits ServerAPIClient verify-jws api ...

        """

    static func main() -> Never {
        FileHandle.standardError.write(Data(message.utf8))
        exit(2)
    }
}
#endif
