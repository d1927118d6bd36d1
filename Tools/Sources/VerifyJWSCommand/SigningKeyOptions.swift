import AppStoreVerification
import ArgumentParser
import Foundation

/// The key options every `verify-jws sign` subcommand takes.
struct SigningKeyOptions: ParsableArguments {
    @Option(name: .customLong("key"), help: ArgumentHelp("The P-256 private key: a PEM file (the .p8 file from App Store Connect, or an 'EC PRIVATE KEY'); never printed.", valueName: "FILE"))
    var keyFile: String

    @Option(name: .customLong("key-id"), help: ArgumentHelp("The key's identifier in App Store Connect.", valueName: "ID"))
    var keyId: String

    /// Loads the key; on failure writes one line naming what is wrong and throws exit status 2.
    func loadKey(command: String) throws -> SigningKey {
        do {
            return try SigningKey(contentsOf: URL(fileURLWithPath: keyFile))
        } catch {
            throw SignFailure.report(error.message, command: command)
        }
    }
}

/// How `verify-jws sign` reports a failure after parsing: one line, nothing on standard output.
enum SignFailure {
    /// Writes the line: the exit (status 2) to throw.
    static func report(_ message: String, command: String) -> ExitCode {
        CommandContext.writeError("verify-jws sign \(command): \(message)\n")
        return ExitCode(2)
    }
}
