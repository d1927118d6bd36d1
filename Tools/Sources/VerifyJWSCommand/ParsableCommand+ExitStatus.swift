import ArgumentParser
import Foundation

extension ParsableCommand {
    /// Exits after `error`, thrown while parsing the arguments or running: an `ExitCode`, `--help`
    /// or `--version` as ArgumentParser does; anything else (a wrong argument, a certificate that
    /// cannot be read) with its message on standard error and status 2.
    static func exitReporting(_ error: any Error) -> Never {
        if exitCode(for: error) == .success || error is ExitCode {
            exit(withError: error)
        }
        let message = fullMessage(for: error)
        if !message.isEmpty {
            FileHandle.standardError.write(Data((message + "\n").utf8))
        }
        Foundation.exit(2)
    }
}
