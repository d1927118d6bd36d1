import Foundation
import Testing
@testable import AppStoreVerification

/// URLSessionOCSPTransport on its own, against a loopback server (127.0.0.1). Its answers, refused
/// redirects and size limit are tested through the verifier (OCSPTestPKI's `.urlSession` transport).
@Suite("URLSessionOCSPTransport")
struct URLSessionOCSPTransportTests {
    @Test("a server that never answers: URLError(.timedOut) at the request's own timeout, not URLSession's 60 s")
    func ownTimeout() async throws {
        let server = try OCSPTestServer(behaviour: .silent)
        let url = try #require(URL(string: "http://127.0.0.1:\(server.port)/"))
        // Whichever ends first: the request (timeout 0.3 s), or 20 s, far beyond that timeout and
        // far below URLSession's own 60 s, which FoundationNetworking applied instead.
        let outcome = await withTaskGroup(of: String?.self) { group in
            group.addTask {
                do {
                    let response = try await URLSessionOCSPTransport().post(Data("an OCSP request".utf8), to: url, timeout: .milliseconds(300), maximumResponseLength: 100)
                    return "a response: \(response)"
                } catch let error as URLError where error.code == .timedOut {
                    return "timedOut"
                } catch {
                    return "another error: \(error)"
                }
            }
            group.addTask {
                try? await Task.sleep(for: .seconds(20))
                return nil
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first
        }
        #expect(outcome == "timedOut", "the request gave \(outcome ?? "nothing within 20 s")")
    }
}
