import Foundation

/// Where the database goes when no `--database` is given: outside any source checkout, in the
/// user's data directory, so running the server from the repository leaves no file there.
public enum DefaultDatabaseLocation: Sendable {
    /// `$XDG_DATA_HOME/receipt-server/receipts.sqlite`, or
    /// `~/.local/share/receipt-server/receipts.sqlite` without `XDG_DATA_HOME`.
    ///
    /// - Parameter environment: the process environment.
    /// - Returns: the path (its directory is not created here; see ``prepare(_:)``).
    public static func path(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        let base: URL
        if let data = environment["XDG_DATA_HOME"], !data.isEmpty {
            base = URL(fileURLWithPath: data, isDirectory: true)
        } else {
            base = FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".local/share", isDirectory: true)
        }
        return base.appendingPathComponent("receipt-server", isDirectory: true).appendingPathComponent("receipts.sqlite").path
    }

    /// Creates the directory of the default path.
    ///
    /// - Parameter path: the database path.
    /// - Throws: the file system's error, when the directory cannot be created.
    public static func prepare(_ path: String) throws {
        let directory = URL(fileURLWithPath: path).deletingLastPathComponent()
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }
}
