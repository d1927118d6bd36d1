import Foundation

/// The `verify-jws` command-line tool, as a library: the executable target is one call to
/// ``main()``, and the tests and the fuzz package link the same code.
public enum VerifyJWSTool {
    /// Parses `CommandLine.arguments`, runs the command they name and exits the process with the
    /// tool's documented exit status.
    public static func main() -> Never {
        VerifyJWS.main()
        exit(0)
    }
}
