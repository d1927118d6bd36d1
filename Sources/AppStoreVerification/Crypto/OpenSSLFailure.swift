internal import CAppStoreOpenSSL

/// What the OpenSSL shim reported for a failed call: its message (with OpenSSL's own error strings)
/// and, for path validation, OpenSSL's `X509_V_ERR_*` code and the failing certificate's depth.
package struct OpenSSLFailure: Error, Sendable, CustomStringConvertible {
    package var message: String
    var x509Error: Int32
    var depth: Int32

    init(_ error: asv_error) {
        var copy = error
        self.message = withUnsafeBytes(of: &copy.message) { raw in
            let bytes = raw.bindMemory(to: UInt8.self)
            let end = bytes.firstIndex(of: 0) ?? bytes.endIndex
            return String(decoding: bytes[..<end], as: UTF8.self)
        }
        self.x509Error = error.x509_error
        self.depth = error.depth
    }

    package init(message: String) {
        self.message = message
        self.x509Error = 0
        self.depth = -1
    }

    package var description: String { message }
}
