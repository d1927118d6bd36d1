internal import CAppStoreOpenSSL
internal import CAppStoreOpenSSLTesting
import Foundation

/// Takes a buffer an `asv_mint_*` function allocated: copies it into `Data` and frees it (wiped).
enum OpenSSLBuffer {
    /// Runs `produce`, which fills an OpenSSL buffer, and returns its bytes; `what` names the
    /// output in the error.
    static func take(_ what: String, _ produce: (UnsafeMutablePointer<UnsafeMutablePointer<UInt8>?>, UnsafeMutablePointer<Int>, UnsafeMutablePointer<asv_error>) -> Int32) throws(AppStoreTestingError) -> Data {
        var buffer: UnsafeMutablePointer<UInt8>?
        var length = 0
        var error = asv_error()
        let result = produce(&buffer, &length, &error)
        defer { asv_mint_buffer_free(buffer, length) }
        guard result == 1, let buffer else {
            throw AppStoreTestingError(.openSSLFailure, "\(what) failed: \(OpenSSLMessage.text(error))")
        }
        return Data(bytes: buffer, count: length)
    }
}

/// The message an `asv_error` carries.
enum OpenSSLMessage {
    static func text(_ error: asv_error) -> String {
        var copy = error
        return withUnsafeBytes(of: &copy.message) { raw in
            let bytes = raw.bindMemory(to: UInt8.self)
            let end = bytes.firstIndex(of: 0) ?? bytes.endIndex
            return String(decoding: bytes[..<end], as: UTF8.self)
        }
    }
}
