// swift-tools-version: 6.1
//
// VaporExample: the DocC article "Server frameworks"' Vapor 4 routes in a real Vapor application,
// tested with real HTTP requests on 127.0.0.1 (a full-size notification among them). A package of
// its own, so users of the library never resolve Vapor. From the repository root:
//
//     swift build --package-path Examples/VaporExample --build-tests
//     swift test --package-path Examples/VaporExample
//
// The library is a path dependency with no trait: the routes need only AppStoreVerification.
import PackageDescription

let package = Package(
    name: "vapor-example",
    platforms: [.macOS(.v13)],
    dependencies: [
        .package(name: "swift-app-store-verification", path: "../.."),
        .package(url: "https://github.com/vapor/vapor", from: "4.115.0"),
    ],
    targets: [
        // The routes: offline transactions and notifications, online notifications.
        .target(
            name: "VaporExample",
            dependencies: [
                .product(name: "AppStoreVerification", package: "swift-app-store-verification"),
                .product(name: "Vapor", package: "vapor"),
            ],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        // A server on those routes, trusting Apple's roots: `swift run --package-path
        // Examples/VaporExample VaporExampleServer serve` (environment: BUNDLE_ID, APP_APPLE_ID).
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
                .product(name: "AppStoreVerification", package: "swift-app-store-verification"),
                .product(name: "AppStoreVerificationTesting", package: "swift-app-store-verification"),
                .product(name: "VaporTesting", package: "vapor"),
            ],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
    ]
)
