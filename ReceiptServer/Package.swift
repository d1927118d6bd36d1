// swift-tools-version: 6.1
//
// ReceiptServer: the project's reference App Store receipt service, on Hummingbird 2 with SQLite or
// PostgreSQL, kept in its own package so users of the library never resolve its dependencies. From
// the repository root:
//
//     swift run --package-path ReceiptServer ReceiptServer --help
//     swift test --package-path ReceiptServer
//
// See README.md.
import PackageDescription

let package = Package(
    name: "receipt-server",
    platforms: [.macOS(.v15)],
    dependencies: [
        // The ServerAPIClient trait brings the AppStoreServerAPI client (the reconcile route).
        .package(name: "swift-app-store-verification", path: "..", traits: ["ServerAPIClient"]),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
        .package(url: "https://github.com/apple/swift-nio-extras", from: "1.35.2"),
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
        .package(url: "https://github.com/apple/swift-crypto", "3.9.0"..<"6.0.0"),
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.6"),
        // The support console's HTML templates (escapes every {{value}}).
        .package(url: "https://github.com/hummingbird-project/swift-mustache", from: "2.1.1"),
    ],
    targets: [
        // Routes, storage and configuration: everything but the command line, so tests run the
        // same server in-process.
        .target(
            name: "ReceiptServerCore",
            dependencies: [
                .product(name: "AppStoreVerification", package: "swift-app-store-verification"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "GRDB", package: "GRDB.swift"),
                // sqlite3_db_status, for the WAL bytes the writer appends (/metrics).
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "AppStoreServerAPI", package: "swift-app-store-verification"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "Mustache", package: "swift-mustache"),
                // Outbound events (Webhooks/).
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
            ],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        .executableTarget(
            name: "ReceiptServer",
            dependencies: [
                "ReceiptServerCore",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "AppStoreVerification", package: "swift-app-store-verification"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "AppStoreServerAPI", package: "swift-app-store-verification"),
            ],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        // Mints the browser test's customer (Tests/Browser/run.sh) with the library's test PKI.
        .executableTarget(
            name: "ConsoleBrowserSeed",
            dependencies: [
                .product(name: "AppStoreVerification", package: "swift-app-store-verification"),
                .product(name: "AppStoreVerificationTesting", package: "swift-app-store-verification"),
            ],
            path: "Tests/Browser/Seed",
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        // The browser test's fake App Store Server API (Tests/Browser/run.sh): the library's fake.
        .executableTarget(
            name: "BrowserFakeAppStore",
            dependencies: [
                .product(name: "AppStoreVerification", package: "swift-app-store-verification"),
                .product(name: "AppStoreServerAPITesting", package: "swift-app-store-verification"),
            ],
            path: "Tests/Browser/FakeAppStore",
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        .testTarget(
            name: "ReceiptServerTests",
            dependencies: [
                "ReceiptServerCore",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "AppStoreVerification", package: "swift-app-store-verification"),
                .product(name: "AppStoreVerificationTesting", package: "swift-app-store-verification"),
                // The repository's test support: ProcessRunner, BackgroundProcess, FreePorts, TestPaths.
                .product(name: "AppStoreVerificationTestSupport", package: "swift-app-store-verification"),
                // The library's fake App Store Server API (Apple's answers, 429 in Apple's form).
                .product(name: "AppStoreServerAPITesting", package: "swift-app-store-verification"),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Hummingbird", package: "hummingbird"),
                // In-process route tests (app.test(.router)).
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "AppStoreServerAPI", package: "swift-app-store-verification"),
            ],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
    ]
)
