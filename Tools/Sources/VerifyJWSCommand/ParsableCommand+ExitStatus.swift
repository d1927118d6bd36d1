import ArgumentParser
import Foundation

extension ParsableCommand {
    /// Parses `arguments` as this command (and its subcommands) and runs it: the exit status, 0
    /// when it returned, else what ``status(reporting:)`` makes of the error.
    static func status(running arguments: [String]) -> Int32 {
        do {
            var command = try parseAsRoot(arguments)
            try command.run()
            return 0
        } catch {
            return status(reporting: error)
        }
    }

    /// The exit status after `error`, thrown while parsing the arguments or running, with its
    /// message written: an `ExitCode`, `--help` or `--version` as ArgumentParser reports them (help
    /// and version on standard output); anything else (a wrong argument, a certificate that cannot
    /// be read) with its message on standard error and status 2.
    static func status(reporting error: any Error) -> Int32 {
        let message = fullMessage(for: error)
        let code = exitCode(for: error)
        if code == .success || error is ExitCode {
            if !message.isEmpty {
                if code == .success { CommandContext.writeOutput(message + "\n") } else { CommandContext.writeError(message + "\n") }
            }
            return code.rawValue
        }
        if !message.isEmpty { CommandContext.writeError(message + "\n") }
        return 2
    }
}
