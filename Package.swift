// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "swift-app-store-verification",
    // Swift Concurrency's clocks and `Duration` need macOS 13. On Linux: glibc (the static Linux
    // SDK, musl, is not supported: see the README's "Platforms").
    platforms: [.macOS(.v13)],
    products: [
        .library(name: "AppStoreVerification", targets: ["AppStoreVerification"]),
        // Test PKIs shaped like Apple's and signed data minted with them, for your server's tests.
        .library(name: "AppStoreVerificationTesting", targets: ["AppStoreVerificationTesting"]),
        // A client of the App Store Server API (transaction history, subscription statuses, ...),
        // every signed item verified. Its HTTP goes through a transport: Foundation's URLSession
        // by default, AsyncHTTPClient with the `ServerAPIClient` trait, or your own.
        .library(name: "AppStoreServerAPI", targets: ["AppStoreServerAPI"]),
        // A fake App Store Server API on 127.0.0.1 for your tests of code that calls Apple's API
        // (Apple's JSON, pagination, bearer token checks and error answers). Add it to test
        // targets only.
        .library(name: "AppStoreServerAPITesting", targets: ["AppStoreServerAPITesting"]),
        // This repository's own test support (running processes, free loopback ports, fixture
        // paths and loaders), shared by the library's, Tools' and ReceiptServer's tests. Not for
        // users: no API promise.
        .library(name: "AppStoreVerificationTestSupport", targets: ["AppStoreVerificationTestSupport"]),
    ],
    // No trait is on by default: a plain dependency line on this package resolves no other package.
    // The App Store Server API client works without any trait (over URLSession or your own
    // transport); `traits: ["ServerAPIClient"]` adds its AsyncHTTPClient transport. The verify-jws
    // tool is a package of its own (Tools/).
    traits: [
        .trait(
            name: "ServerAPIClient",
            description: "The AppStoreServerAPI client's AsyncHTTPClientTransport (async-http-client, swift-nio)."
        ),
        .default(enabledTraits: []),
    ],
    dependencies: [
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
    ],
    targets: [
        // System OpenSSL 3 (libcrypto), found through pkg-config. On macOS, Homebrew's openssl@3 is
        // keg-only: set PKG_CONFIG_PATH="$(brew --prefix openssl@3)/lib/pkgconfig" (README,
        // "Install OpenSSL 3").
        .systemLibrary(
            name: "COpenSSL",
            pkgConfig: "openssl",
            providers: [.apt(["libssl-dev"]), .yum(["openssl-devel"]), .brew(["openssl@3"])]
        ),
        // A few coarse C functions over OpenSSL: certificates, path validation, PKCS#7, OCSP, ES256.
        .target(
            name: "CAppStoreOpenSSL",
            dependencies: ["COpenSSL"]
        ),
        // Test-only C code (key generation, certificate issuance, PKCS#7 signing), linked only by
        // the Testing product: a server that verifies never contains it.
        .target(
            name: "CAppStoreOpenSSLTesting",
            dependencies: ["CAppStoreOpenSSL", "COpenSSL"]
        ),
        .target(
            name: "AppStoreVerification",
            dependencies: ["CAppStoreOpenSSL"],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        // Test PKIs and minted signed data (never used to verify): for tests of code that handles
        // App Store signed data. Built on the library's `package` API, never @testable.
        .target(
            name: "AppStoreVerificationTesting",
            dependencies: ["AppStoreVerification", "CAppStoreOpenSSL", "CAppStoreOpenSSLTesting"],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        // The App Store Server API client. Without the `ServerAPIClient` trait it sends through
        // URLSession (or the caller's transport) and links no AsyncHTTPClient or swift-nio.
        .target(
            name: "AppStoreServerAPI",
            dependencies: [
                "AppStoreVerification",
                .product(name: "AsyncHTTPClient", package: "async-http-client", condition: .when(traits: ["ServerAPIClient"])),
                .product(name: "NIOCore", package: "swift-nio", condition: .when(traits: ["ServerAPIClient"])),
                .product(name: "NIOHTTP1", package: "swift-nio", condition: .when(traits: ["ServerAPIClient"])),
            ],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        // The fake App Store Server API for tests, on the Testing product's loopback HTTP server
        // (POSIX sockets): it needs no trait and links no SwiftNIO.
        .target(
            name: "AppStoreServerAPITesting",
            dependencies: ["AppStoreVerification", "AppStoreVerificationTesting", "AppStoreServerAPI"],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        // The repository's test support (see the product): a plain target, so that the test
        // targets of Tools/ and ReceiptServer/ can depend on it too. No package dependency.
        .target(
            name: "AppStoreVerificationTestSupport",
            dependencies: ["AppStoreVerification", "AppStoreVerificationTesting"],
            path: "Tests/AppStoreVerificationTestSupport",
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        .testTarget(
            name: "AppStoreVerificationTests",
            dependencies: ["AppStoreVerification", "AppStoreVerificationTesting", "AppStoreVerificationTestSupport", "CAppStoreOpenSSL"],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        .testTarget(
            name: "AppStoreVerificationTestingTests",
            dependencies: ["AppStoreVerification", "AppStoreVerificationTesting"],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        // The App Store Server API client against the fake Apple server of AppStoreServerAPITesting
        // on 127.0.0.1, with signed data minted by AppStoreVerificationTesting. Empty without the
        // trait: `swift test --traits ServerAPIClient` runs it.
        .testTarget(
            name: "AppStoreServerAPITests",
            dependencies: [
                "AppStoreVerification",
                "AppStoreVerificationTesting",
                .target(name: "AppStoreServerAPI", condition: .when(traits: ["ServerAPIClient"])),
                .target(name: "AppStoreServerAPITesting", condition: .when(traits: ["ServerAPIClient"])),
                .product(name: "AsyncHTTPClient", package: "async-http-client", condition: .when(traits: ["ServerAPIClient"])),
                .product(name: "NIOCore", package: "swift-nio", condition: .when(traits: ["ServerAPIClient"])),
                .product(name: "NIOHTTP1", package: "swift-nio", condition: .when(traits: ["ServerAPIClient"])),
            ],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        // The README's and the DocC articles' Swift snippets, compiled as written against the public
        // API only.
        .testTarget(
            name: "ReadmeSnippetTests",
            dependencies: [
                "AppStoreVerification", "AppStoreVerificationTesting",
                .target(name: "AppStoreServerAPI", condition: .when(traits: ["ServerAPIClient"])),
                .target(name: "AppStoreServerAPITesting", condition: .when(traits: ["ServerAPIClient"])),
            ],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
    ]
)
