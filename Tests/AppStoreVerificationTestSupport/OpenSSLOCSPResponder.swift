import Foundation

/// A real `openssl ocsp` responder on a loopback port, for the OCSP tests of the library and of
/// the tool: a ``BackgroundProcess`` that is ready once it printed `ACCEPT` (OpenSSL prints it
/// after it listens).
public enum OpenSSLOCSPResponder {
    /// Starts `openssl ocsp -port port -ignore_err arguments...` in `directory` (where its index,
    /// CA and signer files are) and returns once it listens. With `logsRequests`, it prints every
    /// request and answer (`-text`), line by line (`stdbuf -oL`), to its ``BackgroundProcess/output``.
    public static func start(in directory: URL, port: UInt16, _ arguments: [String], logsRequests: Bool = false) throws -> BackgroundProcess {
        let program = logsRequests ? ["stdbuf", "-oL", "openssl", "ocsp", "-text"] : ["openssl", "ocsp"]
        let responder = try BackgroundProcess(program + ["-port", "\(port)", "-ignore_err"] + arguments, in: directory)
        try responder.waitForLine(containing: "ACCEPT")
        return responder
    }
}
