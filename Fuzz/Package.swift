// swift-tools-version: 6.1
//
// libFuzzer targets over the whole verification path (and the OCSP HTTP parser), kept in their own package so that a normal
// `swift build` of the library never needs the fuzzer runtime. Run it with `Fuzz/run.sh SECONDS`.
import PackageDescription

let package = Package(
    name: "swift-app-store-verification-fuzz",
    platforms: [.macOS(.v13)],
    dependencies: [
        .package(name: "swift-app-store-verification", path: ".."),
        // verify-jws's renderers, for FuzzSignedPayload.
        .package(name: "verify-jws", path: "../Tools"),
    ],
    targets: [
        // libFuzzer's driver and the test vectors' location, shared by the fuzz targets.
        .target(
            name: "FuzzSupport",
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        .executableTarget(
            name: "FuzzVerify",
            dependencies: [
                "FuzzSupport",
                .product(name: "AppStoreVerification", package: "swift-app-store-verification"),
            ],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        // SocketOCSPTransport's HTTP response parser (a pure function over bytes, reached with
        // @testable: the fuzz build is a debug build, compiled for testing); run it with
        // `Fuzz/run.sh SECONDS ocsp-http`.
        .executableTarget(
            name: "FuzzOCSPHTTP",
            dependencies: [
                "FuzzSupport",
                .product(name: "AppStoreVerification", package: "swift-app-store-verification"),
            ],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        // Past the signature: each input is a payload the Testing product's PKI signs before
        // verification, so claims, model decoding, nested data, the entitlement engine and
        // verify-jws's renderers (its VerifyJWSCommand library, reached with @testable) see signed
        // data; `Fuzz/run.sh SECONDS signed`.
        .executableTarget(
            name: "FuzzSignedPayload",
            dependencies: [
                "FuzzSupport",
                .product(name: "AppStoreVerification", package: "swift-app-store-verification"),
                .product(name: "AppStoreVerificationTesting", package: "swift-app-store-verification"),
                .product(name: "VerifyJWSCommand", package: "verify-jws"),
            ],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        // App receipts (PKCS#7 and the DER payload); run it with `Fuzz/run.sh SECONDS receipts`.
        .executableTarget(
            name: "FuzzReceipt",
            dependencies: [
                "FuzzSupport",
                .product(name: "AppStoreVerification", package: "swift-app-store-verification"),
            ],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
    ]
)
