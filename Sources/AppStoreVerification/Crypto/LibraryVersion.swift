import CAppStoreOpenSSL

/// The version of this package and of the OpenSSL library it runs on, for logs and bug reports.
public enum LibraryVersion {
    /// This package's version (semantic versioning; the release tag).
    public static let package = "0.1.0"

    /// The version text of the OpenSSL libcrypto loaded at run time, for example
    /// `OpenSSL 3.0.19 27 Jan 2026` (OpenSSL's `OpenSSL_version(OPENSSL_VERSION)`).
    public static var openSSL: String { String(cString: asv_openssl_version()) }
}
