import AppStoreVerification
import Foundation
import Vapor
import VaporExample

// The example's routes on a Vapor server trusting Apple's roots, for the app BUNDLE_ID
// (com.example.app by default) in the sandbox, or in production with APP_APPLE_ID set; online mode
// (OCSP) under /online. Vapor's own command line: `VaporExampleServer serve --port 8080`.
let environment = ProcessInfo.processInfo.environment
let bundleId = environment["BUNDLE_ID"] ?? "com.example.app"
let appAppleId = environment["APP_APPLE_ID"].flatMap { Int64($0) }
let verifier = try SignedDataVerifier(configuration: .init(
    bundleId: bundleId, appAppleId: appAppleId, environment: appAppleId == nil ? .sandbox : .production))
let onlineVerifier = try OnlineSignedDataVerifier(configuration: verifier.configuration, revocation: OCSPOptions())

let app = try await Application.make(.detect())
configure(app, verifier: verifier, onlineVerifier: onlineVerifier, ledger: PurchaseLedger())
do {
    try await app.execute()
} catch {
    try? await app.asyncShutdown()
    throw error
}
try await app.asyncShutdown()
