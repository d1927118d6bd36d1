import Foundation

/// Writes files that hold private keys readable by their owner only from the moment they exist:
/// created with mode 0600 (`open(O_CREAT | O_EXCL)`), never with the default mode and tightened
/// afterwards, under a temporary name, then renamed over the destination.
enum OwnerOnlyFile {
    /// Writes `data` to `url`, replacing any file there.
    ///
    /// - Throws: `CocoaError` with the POSIX error as its underlying error.
    static func write(_ data: Data, to url: URL) throws {
        let temporary = url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).\(UUID().uuidString).tmp")
        let descriptor = open(temporary.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw failure(errno, temporary) }
        var written = 0
        let status: Int32 = data.withUnsafeBytes { buffer in
            while written < buffer.count {
                guard let base = buffer.baseAddress else { return 0 }
                let result = Foundation.write(descriptor, base + written, buffer.count - written)
                if result < 0 {
                    if errno == EINTR { continue }
                    return errno
                }
                written += result
            }
            return 0
        }
        let closed = close(descriptor) == 0 ? 0 : errno
        if status != 0 || closed != 0 || rename(temporary.path, url.path) != 0 {
            let code = status != 0 ? status : (closed != 0 ? closed : errno)
            unlink(temporary.path)
            throw failure(code, url)
        }
    }

    private static func failure(_ code: Int32, _ url: URL) -> CocoaError {
        CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: url.path, NSUnderlyingErrorKey: POSIXError(POSIXErrorCode(rawValue: code) ?? .EIO)])
    }
}
