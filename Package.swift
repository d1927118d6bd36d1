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
    ],
    // swift-argument-parser is for the verify-jws tool only. A package depending on this one with
    // `traits: []` never resolves or fetches it (see the README, "What a dependent resolves").
    traits: [
        .trait(name: "CommandLineTool", description: "The verify-jws tool's dependency, swift-argument-parser."),
        .default(enabledTraits: ["CommandLineTool"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
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
        .executableTarget(
            name: "verify-jws",
            dependencies: [
                "AppStoreVerification",
                "AppStoreVerificationTesting",
                .product(name: "ArgumentParser", package: "swift-argument-parser", condition: .when(traits: ["CommandLineTool"])),
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
        // The README's Swift snippets, compiled as written against the public API only.
        .testTarget(
            name: "ReadmeSnippetTests",
            dependencies: ["AppStoreVerification", "AppStoreVerificationTesting"],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
    ]
)
