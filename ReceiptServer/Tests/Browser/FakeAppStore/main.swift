// The browser test's fake App Store Server API (Tests/Browser/run.sh): the library's
// FakeAppStoreServerAPI (AppStoreServerAPITesting) on 127.0.0.1, serving one customer's
// transaction history (every transaction ID of it answers the whole history, two transactions a
// page) and an empty notification history, behind Apple's bearer token check for the key whose
// private half the server is given.
//
//     BrowserFakeAppStore HISTORY_JSON API_KEY_P8 KEY_ID ISSUER_ID [BUNDLE_ID]
//
// It prints `fake App Store listening on http://127.0.0.1:PORT` once it listens, and serves until
// SIGTERM or SIGINT.
import AppStoreServerAPITesting
import AppStoreVerification
import Dispatch
import Foundation

let arguments = CommandLine.arguments.dropFirst().map { $0 }
guard arguments.count == 4 || arguments.count == 5 else {
    FileHandle.standardError.write(Data("usage: BrowserFakeAppStore HISTORY_JSON API_KEY_P8 KEY_ID ISSUER_ID [BUNDLE_ID]\n".utf8))
    exit(2)
}
do {
    let document = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: arguments[0]))) as? [String: Any]
    let history = document?["signedTransactions"] as? [String] ?? []
    let key = try SigningKey(contentsOf: URL(fileURLWithPath: arguments[1]))
    let fake = try await FakeAppStoreServerAPI.start(keyId: arguments[2], issuerId: arguments[3],
                                                     bundleId: arguments.count == 5 ? arguments[4] : "com.example.app",
                                                     publicKey: key.publicKeyDER)
    fake.pageSize = 2
    fake.setNotificationHistory([])
    for jws in history {
        let parts = jws.split(separator: ".", omittingEmptySubsequences: false)
        var payload = parts.count == 3 ? String(parts[1]) : ""
        payload = payload.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while payload.count % 4 != 0 { payload += "=" }
        let claims = Data(base64Encoded: payload).flatMap { try? JSONSerialization.jsonObject(with: $0) as? [String: Any] } ?? [:]
        for name in ["transactionId", "originalTransactionId"] {
            if let id = claims[name] as? String { fake.setTransactionHistory(history, for: id) }
        }
    }
    let stopped = AsyncStream<Void>.makeStream()
    let stop = stopped.continuation
    var sources: [any DispatchSourceSignal] = []
    for signal in [SIGTERM, SIGINT] {
        Foundation.signal(signal, SIG_IGN)
        let source = DispatchSource.makeSignalSource(signal: signal)
        // Not isolated to the main actor: it runs on a Dispatch queue.
        source.setEventHandler { @Sendable in stop.finish() }
        source.resume()
        sources.append(source)
    }
    FileHandle.standardOutput.write(Data("fake App Store listening on \(fake.baseURL)\n".utf8))
    for await _ in stopped.stream {}
    await fake.stop()
    sources.forEach { $0.cancel() }
} catch {
    FileHandle.standardError.write(Data("BrowserFakeAppStore: \(error)\n".utf8))
    exit(1)
}
