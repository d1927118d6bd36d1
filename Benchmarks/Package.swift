// swift-tools-version: 6.1
//
// Benchmarks for swift-app-store-verification, kept in their own package so the library itself
// depends on nothing. Run from the repository root:
//
//     swift package --package-path Benchmarks benchmark
//     swift run --package-path Benchmarks -c release MemoryCheck
//
// See README.md.
import PackageDescription

let package = Package(
    name: "swift-app-store-verification-benchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "swift-app-store-verification", path: ".."),
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
        // The peer measured in the same run (X5CVerifier, swift-certificates + swift-crypto).
        .package(url: "https://github.com/vapor/jwt-kit", from: "5.7.1"),
    ],
    targets: [
        // The floors: the bare OpenSSL operations measured beside the verifier and the signers,
        // called directly (system OpenSSL 3 through pkg-config), not through the library.
        .systemLibrary(
            name: "CBenchmarkOpenSSL",
            pkgConfig: "openssl",
            providers: [.apt(["libssl-dev"]), .yum(["openssl-devel"]), .brew(["openssl@3"])]
        ),
        .target(name: "CBenchmarkFloors", dependencies: ["CBenchmarkOpenSSL"]),
        .target(name: "BenchmarkFloors", dependencies: ["CBenchmarkFloors"], swiftSettings: [.swiftLanguageMode(.v6)]),
        // Finds and loads Benchmarks/Corpus/ (written by Scripts/make-corpus.py) at run time.
        .target(
            name: "BenchmarkCorpus",
            dependencies: [
                .product(name: "AppStoreVerification", package: "swift-app-store-verification"),
            ],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        // `swift package benchmark` runs every target under Benchmarks/ that uses BenchmarkPlugin.
        .executableTarget(
            name: "AppStoreVerificationBenchmarks",
            dependencies: [
                "BenchmarkCorpus",
                .product(name: "AppStoreVerification", package: "swift-app-store-verification"),
                "BenchmarkFloors",
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "JWTKit", package: "jwt-kit"),
            ],
            path: "Benchmarks/AppStoreVerificationBenchmarks",
            swiftSettings: [.swiftLanguageMode(.v6)],
            plugins: [
                .plugin(name: "BenchmarkPlugin", package: "benchmark"),
            ]
        ),
        // RSS over 1,000,000 warm verifications; exits non-zero if it grows by more than 16 MiB.
        // One scenario in a loop, for profilers.
        .executableTarget(
            name: "ProfileLoop",
            dependencies: [
                "BenchmarkCorpus",
                .product(name: "AppStoreVerification", package: "swift-app-store-verification"),
                "BenchmarkFloors",
                .product(name: "AppStoreVerificationTesting", package: "swift-app-store-verification"),
            ],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        .executableTarget(
            name: "MemoryCheck",
            dependencies: [
                "BenchmarkCorpus",
                .product(name: "AppStoreVerification", package: "swift-app-store-verification"),
            ],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
    ]
)
