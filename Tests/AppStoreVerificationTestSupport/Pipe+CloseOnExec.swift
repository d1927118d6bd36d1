import Foundation

extension Pipe {
    /// A pipe whose two descriptors close on `exec`, so that a process another test starts at the
    /// same moment does not inherit them. (A long-lived child holding a copy of a pipe's write end,
    /// such as an `openssl ocsp` server, would keep a reader waiting for end-of-file until the
    /// test process ended.) `Process` still gives the child its own ends: it duplicates them onto
    /// descriptors 0, 1 and 2, and a duplicate does not close on `exec`.
    static func closingOnExec() -> Pipe {
        let pipe = Pipe()
        for descriptor in [pipe.fileHandleForReading.fileDescriptor, pipe.fileHandleForWriting.fileDescriptor] {
            _ = fcntl(descriptor, F_SETFD, fcntl(descriptor, F_GETFD) | FD_CLOEXEC)
        }
        return pipe
    }
}
