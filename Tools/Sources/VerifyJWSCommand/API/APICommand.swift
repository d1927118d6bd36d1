import ArgumentParser
import Foundation

/// `verify-jws api`: asks the App Store Server API and verifies what it answers.
struct APICommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "api",
        // Parsed on its own (see VerifyJWS.main()): the usage lines still read `verify-jws api ...`.
        _superCommandName: "verify-jws",
        abstract: "Ask the App Store Server API; every signed item of every page of its answer is verified and written as it comes.",
        discussion: """
            Credentials come from the flags or, when a flag is missing, the environment: \
            APP_STORE_API_KEY_FILE, APP_STORE_API_KEY_ID, APP_STORE_API_ISSUER_ID, APP_STORE_BUNDLE_ID, \
            APP_STORE_ENVIRONMENT (Production or Sandbox; it also chooses Apple's production or sandbox \
            API), APP_STORE_APP_APPLE_ID and APP_STORE_API_BASE_URL. The key is read, never printed.

            Output: one line per signed item (a transaction, renewal info, app transaction or \
            notification), as verify-jws writes it ('json', the default, or 'text'), or with \
            --format jws the signed item itself, so that
              verify-jws api history ID --format jws | verify-jws entitlements -
            answers what a customer owns from Apple's own record.

            Exit status: 0 when every item verified; 1 when any did not (or Apple's answer held signed \
            data that could not be read); 2 for wrong arguments or credentials, an authentication \
            failure (HTTP 401, its likely cause named) or an ID Apple does not know; 3 when Apple was \
            unreachable, timed out, or still rate limited or failing after the retries (retry later).
            """,
        subcommands: [
            APIHistoryCommand.self,
            APIStatusesCommand.self,
            APITransactionCommand.self,
            APINotificationsCommand.self,
            APIOrderCommand.self,
            APIRefundsCommand.self,
        ]
    )

    /// Parses `arguments` (those after `api`), runs the subcommand they name, and returns the exit
    /// status (argument errors: 2).
    static func status(running arguments: [String]) async -> Int32 {
        do {
            let command = try parseAsRoot(arguments)
            if var asyncCommand = command as? any AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                var command = command
                try command.run()
            }
            return 0
        } catch {
            return status(reporting: error)
        }
    }
}
