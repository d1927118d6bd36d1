internal import CAppStoreOpenSSL

/// Versions of this library and of what it runs on, for `--version` output and support requests.
public enum LibraryVersion {
    /// This package's version.
    public static let package = "0.2.0"

    /// The OpenSSL the library runs against, as OpenSSL reports it ("OpenSSL 3.0.19 27 Jan 2026").
    public static var openSSL: String { String(cString: asv_openssl_version()) }
}
