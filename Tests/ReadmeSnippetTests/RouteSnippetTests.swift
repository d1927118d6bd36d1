import AppStoreVerification
import Foundation
import Testing

/// A transport that never reaches a responder, as when Apple's OCSP servers cannot be reached.
private struct UnreachableTransport: OCSPTransport {
    struct Unreachable: Error {}

    func post(_ body: Data, to url: URL, timeout: Duration, maximumResponseLength: Int) async throws -> OCSPHTTPResponse {
        throw Unreachable()
    }
}

@Suite("README and DocC route snippets")
struct RouteSnippetTests {
    static func vector(_ name: String) throws -> [UInt8] {
        let text = try String(contentsOf: ReadmeSnippetTests.packageRoot.appendingPathComponent("TestVectors/jws/\(name)"), encoding: .utf8)
        return Array(text.trimmingCharacters(in: .whitespacesAndNewlines).utf8)
    }

    static func notificationBody() throws -> [UInt8] {
        Array("{\"signedPayload\":\"".utf8) + (try vector("notification-valid.jws")) + Array("\"}".utf8)
    }

    /// A verifier trusting the test PKI, for the Sandbox test vectors.
    static func testConfiguration() throws -> SignedDataVerifier.Configuration {
        let root = try Data(contentsOf: ReadmeSnippetTests.packageRoot.appendingPathComponent("TestVectors/pki/root.der"))
        return .init(trustedRoots: [try TrustedRoot(derEncoded: root)], bundleId: "com.example.app", environment: .sandbox)
    }

    static func testVerifier() throws -> SignedDataVerifier {
        try SignedDataVerifier(configuration: testConfiguration())
    }

    /// An online verifier trusting the test PKI whose OCSP requests never get an answer.
    static func unreachableOnlineVerifier() throws -> OnlineSignedDataVerifier {
        try OnlineSignedDataVerifier(configuration: testConfiguration(), revocation: OCSPOptions(transport: UnreachableTransport()))
    }

    /// Online checks judge the test leaf at the current time; it expires on 2027-01-01.
    static var testLeafIsValidNow: Bool { Date() < Date(timeIntervalSince1970: 1_798_761_600) }

    @Test("Hummingbird, offline: 200 verified, 403 unverified, 400 not a JWS")
    func hummingbirdOffline() async throws {
        let router = HummingbirdShape.transactionsRoute(verifier: try Self.testVerifier())
        #expect(try await router.call("/transactions", body: Self.vector("transaction-valid.jws")) == .ok)
        #expect(try await router.call("/transactions", body: Array("not a JWS".utf8)) == .badRequest)
        let apple = HummingbirdShape.transactionsRoute(verifier: try SignedDataVerifier(configuration: .init(bundleId: "com.example.app")))
        #expect(try await apple.call("/transactions", body: Self.vector("transaction-valid.jws")) == .forbidden)
    }

    @Test("Vapor, online: 400 not a notification, 503 with no OCSP answer")
    func vaporOnline() async throws {
        let unreachable = VaporShape.Application()
        VaporShape.notificationsRoute(app: unreachable, onlineVerifier: try Self.unreachableOnlineVerifier())
        #expect(try await unreachable.call("notifications", body: Array("{}".utf8)) == .badRequest)
        let status = try await unreachable.call("notifications", body: Self.notificationBody())
        #expect(status == (Self.testLeafIsValidNow ? .serviceUnavailable : .forbidden))
    }

    @Test("the DocC article's other routes: Hummingbird online, Vapor offline")
    func doccRoutes() async throws {
        let router = HummingbirdShape.serverFrameworksRoutes(verifier: try Self.testVerifier(), onlineVerifier: try Self.unreachableOnlineVerifier())
        #expect(try await router.call("/transactions", body: Self.vector("transaction-valid.jws")) == .ok)
        #expect(try await router.call("/notifications", body: Self.notificationBody()) == (Self.testLeafIsValidNow ? .serviceUnavailable : .forbidden))
        #expect(try await router.call("/notifications", body: Self.vector("transaction-valid.jws")) == .badRequest)

        let app = VaporShape.Application()
        VaporShape.transactionsRoute(app: app, verifier: try Self.testVerifier())
        #expect(try await app.call("transactions", body: Self.vector("transaction-valid.jws")) == .ok)
        #expect(try await app.call("transactions", body: Array("not a JWS".utf8)) == .badRequest)
    }

    @Test("the online article's handler: 403 for data it refuses offline (no request made), 400 for no JWS")
    func onlineArticleHandler() async throws {
        // The article's verifier trusts Apple's root and checks revocation with the default
        // transport; a test-PKI transaction is refused offline first, with no request made.
        let status = try await DocCSnippets.onlineVerification(jws: String(decoding: Self.vector("transaction-valid.jws"), as: UTF8.self))
        #expect(status == 403)
        #expect(try await DocCSnippets.onlineVerification(jws: "not a JWS") == 400)
    }
}
