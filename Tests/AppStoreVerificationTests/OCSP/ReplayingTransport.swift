import Foundation
@testable import AppStoreVerification

/// A man in the middle that replays: the first request to each responder URL goes to the real
/// responder and its response is recorded; every later request to that URL, whatever it asks, is
/// answered with the recorded response.
final class ReplayingTransport: OCSPTransport, @unchecked Sendable {
    private let lock = NSLock()
    private var recorded: [String: OCSPHTTPResponse] = [:]
    private var replayed = 0
    private let inner = OCSPOptions.defaultTransport

    func post(_ body: Data, to url: URL, timeout: Duration, maximumResponseLength: Int) async throws -> OCSPHTTPResponse {
        let key = url.absoluteString
        if let answer = lock.withLock({ recorded[key] }) {
            lock.withLock { replayed += 1 }
            return answer
        }
        let answer = try await inner.post(body, to: url, timeout: timeout, maximumResponseLength: maximumResponseLength)
        lock.withLock { recorded[key] = answer }
        return answer
    }

    /// How many requests were answered with a recorded response.
    var replays: Int { lock.withLock { replayed } }
}
