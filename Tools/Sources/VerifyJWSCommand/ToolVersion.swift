import AppStoreVerification

/// What `verify-jws --version` prints: the package version and the OpenSSL it runs on.
enum ToolVersion {
    static var text: String {
        "verify-jws \(LibraryVersion.package) (swift-app-store-verification), \(LibraryVersion.openSSL)"
    }
}
