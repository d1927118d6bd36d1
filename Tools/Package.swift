// swift-tools-version: 6.1
//
// verify-jws, the command-line tool, as a package of its own: its command-line parser
// (swift-argument-parser) is a dependency of this package only, so a package depending on the
// library resolves nothing but the library. From the repository's root:
//
//     swift run --package-path Tools verify-jws FILE...
//     swift run --package-path Tools verify-jws api ...   (--traits ServerAPIClient: over AsyncHTTPClient)
import PackageDescription

let package = Package(
    name: "verify-jws",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "verify-jws", targets: ["verify-jws"]),
        // The tool's code as a library, for the fuzz package (Fuzz/) and the tool's tests.
        .library(name: "VerifyJWSCommand", targets: ["VerifyJWSCommand"]),
    ],
    traits: [
        .trait(
            name: "ServerAPIClient",
            description: "`verify-jws api` sends through AsyncHTTPClient (SwiftNIO) instead of Foundation's URLSession."
        ),
    ],
    dependencies: [
        .package(
            name: "swift-app-store-verification",
            path: "..",
            traits: [.trait(name: "ServerAPIClient", condition: .when(traits: ["ServerAPIClient"]))]
        ),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
    ],
    targets: [
        // The tool's parsing, verification and output: everything but `main`.
        .target(
            name: "VerifyJWSCommand",
            dependencies: [
                .product(name: "AppStoreVerification", package: "swift-app-store-verification"),
                .product(name: "AppStoreVerificationTesting", package: "swift-app-store-verification"),
                .product(name: "AppStoreServerAPI", package: "swift-app-store-verification"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        .executableTarget(
            name: "verify-jws",
            dependencies: ["VerifyJWSCommand"],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        // The command run in process (VerifyJWSTool.run with files for its standard streams), and
        // the executable as a process where the process boundary is under test (exit statuses,
        // pipes, SIGPIPE); `verify-jws api` against AppStoreServerAPITesting's fake App Store.
        .testTarget(
            name: "VerifyJWSCommandTests",
            dependencies: [
                "VerifyJWSCommand",
                "verify-jws",
                .product(name: "AppStoreVerification", package: "swift-app-store-verification"),
                .product(name: "AppStoreVerificationTesting", package: "swift-app-store-verification"),
                .product(name: "AppStoreServerAPITesting", package: "swift-app-store-verification"),
                .product(name: "AppStoreVerificationTestSupport", package: "swift-app-store-verification"),
            ],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
    ]
)
