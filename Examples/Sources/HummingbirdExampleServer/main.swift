import AppStoreVerification
import Foundation
import Hummingbird
import HummingbirdExample

// The example's routes on a Hummingbird server on 127.0.0.1:PORT (8080 by default) trusting Apple's
// roots, for the app BUNDLE_ID (com.example.app by default) in the sandbox, or in production with
// APP_APPLE_ID set; online mode (OCSP) under /online.
let environment = ProcessInfo.processInfo.environment
let bundleId = environment["BUNDLE_ID"] ?? "com.example.app"
let appAppleId = environment["APP_APPLE_ID"].flatMap { Int64($0) }
let port = environment["PORT"].flatMap { Int($0) } ?? 8080
let verifier = try SignedDataVerifier(configuration: .init(
    bundleId: bundleId, appAppleId: appAppleId, environment: appAppleId == nil ? .sandbox : .production))
let onlineVerifier = try OnlineSignedDataVerifier(configuration: verifier.configuration, revocation: OCSPOptions())

let app = Application(router: makeRouter(verifier: verifier, onlineVerifier: onlineVerifier, ledger: PurchaseLedger()),
                      configuration: .init(address: .hostname("127.0.0.1", port: port)))
try await app.runService()
