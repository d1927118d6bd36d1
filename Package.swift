// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "swift-app-store-verification",
    products: [
        .library(name: "AppStoreVerification", targets: ["AppStoreVerification"]),
        // Test PKIs shaped like Apple's and signed data minted with them, for your server's tests.
        .library(name: "AppStoreVerificationTesting", targets: ["AppStoreVerificationTesting"]),
        .executable(name: "verify-jws", targets: ["verify-jws"]),
        // The bare OpenSSL operations the benchmarks measure beside the verifier (Benchmarks/). Not
        // for applications: a dependent of AppStoreVerification never builds it.
        .library(name: "AppStoreVerificationBenchmarkSupport", targets: ["AppStoreVerificationBenchmarkSupport"]),
        // A client of the App Store Server API (transaction history, subscription statuses, ...) on
        // AsyncHTTPClient, every signed item verified. Its dependency resolves only with the
        // `ServerAPIClient` trait.
        .library(name: "AppStoreServerAPI", targets: ["AppStoreServerAPI"]),
    ],
    // swift-argument-parser is for the verify-jws tool only, async-http-client (and swift-nio) for
    // the AppStoreServerAPI client only. A package depending on this one with `traits: []` never
    // resolves or fetches either (see the README, "What a dependent resolves").
    traits: [
        .trait(name: "CommandLineTool", description: "The verify-jws tool's dependency, swift-argument-parser."),
        .trait(
            name: "ServerAPIClient",
            description: "The AppStoreServerAPI client's dependency, async-http-client (and swift-nio)."
        ),
        .default(enabledTraits: ["CommandLineTool", "ServerAPIClient"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
    ],
    targets: [
        // System OpenSSL 3 (libcrypto), found through pkg-config.
        .systemLibrary(
            name: "COpenSSL",
            pkgConfig: "openssl",
            providers: [.apt(["libssl-dev"]), .brew(["openssl@3"])]
        ),
        // A few coarse C functions over OpenSSL: certificates, path validation, ES256.
        .target(
            name: "CAppStoreOpenSSL",
            dependencies: ["COpenSSL"]
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
            dependencies: ["AppStoreVerification", "CAppStoreOpenSSL"],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        .target(
            name: "AppStoreVerificationBenchmarkSupport",
            dependencies: ["AppStoreVerification"],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        // The App Store Server API client. Without the `ServerAPIClient` trait its sources compile
        // to nothing and it links no HTTP client.
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
        .executableTarget(
            name: "verify-jws",
            dependencies: [
                "AppStoreVerification",
                "AppStoreVerificationTesting",
                .product(name: "ArgumentParser", package: "swift-argument-parser", condition: .when(traits: ["CommandLineTool"])),
                .target(name: "AppStoreServerAPI", condition: .when(traits: ["ServerAPIClient"])),
            ],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        .testTarget(
            name: "AppStoreVerificationTests",
            // verify-jws is a dependency so that `swift test` builds the tool the CLI tests run.
            dependencies: ["AppStoreVerification", "AppStoreVerificationBenchmarkSupport", "AppStoreVerificationTesting", "CAppStoreOpenSSL", "verify-jws"],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        .testTarget(
            name: "AppStoreVerificationTestingTests",
            dependencies: ["AppStoreVerification", "AppStoreVerificationTesting", "verify-jws"],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        // The App Store Server API client against a fake Apple server on 127.0.0.1 (NIO), with
        // signed data minted by AppStoreVerificationTesting. Empty without the trait.
        .testTarget(
            name: "AppStoreServerAPITests",
            dependencies: [
                "AppStoreVerification",
                "AppStoreVerificationTesting",
                // Built so that the `verify-jws api` tests can run it.
                "verify-jws",
                .target(name: "AppStoreServerAPI", condition: .when(traits: ["ServerAPIClient"])),
                .product(name: "AsyncHTTPClient", package: "async-http-client", condition: .when(traits: ["ServerAPIClient"])),
                .product(name: "NIOCore", package: "swift-nio", condition: .when(traits: ["ServerAPIClient"])),
                .product(name: "NIOPosix", package: "swift-nio", condition: .when(traits: ["ServerAPIClient"])),
                .product(name: "NIOHTTP1", package: "swift-nio", condition: .when(traits: ["ServerAPIClient"])),
            ],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        // The README's Swift snippets, compiled as written against the public API only.
        .testTarget(
            name: "ReadmeSnippetTests",
            dependencies: [
                "AppStoreVerification", "AppStoreVerificationTesting",
                .target(name: "AppStoreServerAPI", condition: .when(traits: ["ServerAPIClient"])),
            ],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
    ]
)
