import AppStoreServerAPI
import AppStoreVerification
import ArgumentParser
import Foundation

/// How `verify-jws api` ends after a failure: one line on standard error and the exit status the
/// failure's class calls for.
enum APIFailure {
    /// The exit status for `error`: 2 for what the caller must fix (arguments, credentials, a 401,
    /// an ID Apple does not know), 3 for what may pass (Apple unreachable, timed out, still rate
    /// limited or failing after the retries, or an answer that is not Apple's JSON: a proxy's page,
    /// a truncated body). 1 is left to verdicts: some item was unverified.
    static func exitStatus(for error: AppStoreServerAPIError) -> Int32 {
        switch error.code {
        case .unauthorized, .invalidRequest, .tokenCreationFailed:
            return 2
        case .apiError:
            guard let status = error.httpStatusCode else { return 2 }
            return status == 429 || status >= 500 ? 3 : 2
        case .deadlineExceeded, .timedOut, .transportFailure, .cancelled, .revocationCheckUnavailable:
            return 3
        case .malformedResponse:
            return 3
        default:
            return 2
        }
    }

    /// Writes `verify-jws api COMMAND: MESSAGE` on standard error: the exit (`status`) to throw.
    static func exit(_ message: String, command: String, status: Int32) -> ExitCode {
        CommandContext.writeError("verify-jws api \(command): \(LogSafeText.escaping(message))\n")
        return ExitCode(status)
    }
}
