// swift-tools-version: 6.1
//
// The DocC article "Server frameworks"' routes in real applications, tested with real HTTP requests
// on 127.0.0.1 (a full-size notification among them): a Vapor 4 example and a Hummingbird 2 example.
// A package of its own, so users of the library never resolve Vapor or Hummingbird; one package for
// both, so that CI compiles their shared graph once (Hummingbird's dependencies are all in Vapor's:
// SwiftNIO, swift-nio-ssl, swift-crypto, AsyncHTTPClient, swift-log, ...). Each example's targets
// depend only on its own framework: copy `Sources/VaporExample` or `Sources/HummingbirdExample`.
// From the repository root:
//
//     swift build --package-path Examples --build-tests
//     swift test --package-path Examples
//
// The library is a path dependency with no trait: the routes need only AppStoreVerification.
import PackageDescription

let package = Package(
    name: "framework-examples",
    platforms: [.macOS(.v14)],
    dependencies: [
        .package(name: "swift-app-store-verification", path: ".."),
        .package(url: "https://github.com/vapor/vapor", from: "4.115.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
    ],
    targets: [
        // Vapor 4: the routes (offline transactions and notifications, online notifications) and a
        // server on them trusting Apple's roots: `swift run --package-path Examples
        // VaporExampleServer serve` (environment: BUNDLE_ID, APP_APPLE_ID).
        .target(
            name: "VaporExample",
            dependencies: [
                .product(name: "AppStoreVerification", package: "swift-app-store-verification"),
                .product(name: "Vapor", package: "vapor"),
            ],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        .executableTarget(
            name: "VaporExampleServer",
            dependencies: [
                "VaporExample",
                .product(name: "AppStoreVerification", package: "swift-app-store-verification"),
                .product(name: "Vapor", package: "vapor"),
            ],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        .testTarget(
            name: "VaporExampleTests",
            dependencies: [
                "VaporExample",
                "ExampleFixtures",
                .product(name: "AppStoreVerification", package: "swift-app-store-verification"),
                .product(name: "AppStoreVerificationTesting", package: "swift-app-store-verification"),
                .product(name: "VaporTesting", package: "vapor"),
            ],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),

        // Hummingbird 2: the same routes, and a server: `swift run --package-path Examples
        // HummingbirdExampleServer` (environment: BUNDLE_ID, APP_APPLE_ID, PORT).
        .target(
            name: "HummingbirdExample",
            dependencies: [
                .product(name: "AppStoreVerification", package: "swift-app-store-verification"),
                .product(name: "Hummingbird", package: "hummingbird"),
            ],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        .executableTarget(
            name: "HummingbirdExampleServer",
            dependencies: [
                "HummingbirdExample",
                .product(name: "AppStoreVerification", package: "swift-app-store-verification"),
                .product(name: "Hummingbird", package: "hummingbird"),
            ],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        .testTarget(
            name: "HummingbirdExampleTests",
            dependencies: [
                "HummingbirdExample",
                "ExampleFixtures",
                .product(name: "AppStoreVerification", package: "swift-app-store-verification"),
                .product(name: "AppStoreVerificationTesting", package: "swift-app-store-verification"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
            ],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),

        // What both examples' tests send: the repository's test vectors and minted notifications.
        .target(
            name: "ExampleFixtures",
            dependencies: [
                .product(name: "AppStoreVerification", package: "swift-app-store-verification"),
                .product(name: "AppStoreVerificationTesting", package: "swift-app-store-verification"),
            ],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
    ]
)
