// swift-tools-version: 6.1
//
// HummingbirdExample: the DocC article "Server frameworks"' Hummingbird 2 routes in a real
// Hummingbird application, tested with real HTTP requests on 127.0.0.1 (a full-size notification
// among them). A package of its own, so users of the library never resolve Hummingbird. From the
// repository root:
//
//     swift build --package-path Examples/HummingbirdExample --build-tests
//     swift test --package-path Examples/HummingbirdExample
//
// The library is a path dependency with no trait: the routes need only AppStoreVerification.
import PackageDescription

let package = Package(
    name: "hummingbird-example",
    platforms: [.macOS(.v14)],
    dependencies: [
        .package(name: "swift-app-store-verification", path: "../.."),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
    ],
    targets: [
        // The routes: offline transactions and notifications, online notifications.
        .target(
            name: "HummingbirdExample",
            dependencies: [
                .product(name: "AppStoreVerification", package: "swift-app-store-verification"),
                .product(name: "Hummingbird", package: "hummingbird"),
            ],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        // A server on those routes, trusting Apple's roots: `swift run --package-path
        // Examples/HummingbirdExample HummingbirdExampleServer` (environment: BUNDLE_ID, APP_APPLE_ID, PORT).
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
                .product(name: "AppStoreVerification", package: "swift-app-store-verification"),
                .product(name: "AppStoreVerificationTesting", package: "swift-app-store-verification"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
            ],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
    ]
)
