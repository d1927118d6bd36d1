import Foundation
import ReceiptServerCore
import Testing

/// With an access token, the routes that reveal a customer's data need `Authorization: Bearer`;
/// the app's and Apple's routes, `/health` and `/metrics` stay open.
@Suite("Access: bearer token on customer data", .timeLimit(.minutes(2)))
struct AccessTests {
    static let token = "test-access-token-0123456789abcdef"
    static let customer = "7e3fb20b-4cdb-47cc-936d-99d65f608138"
    static let now = TestData.vectorsSignedDate.addingTimeInterval(86_400)

    @Test("Entitlements need the bearer token: none, another scheme or a wrong token get 401 JSON; the right one 200")
    func entitlementsNeedToken() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let server = try await TestServer.start(databasePath: directory.databasePath, now: Self.now, access: AccessControl(bearerToken: Self.token), testing: .router)
        try await server.stopping {
            let path = "/customers/\(Self.customer)/entitlements"
            let refused: [[(String, String)]] = [
                [],
                [("Authorization", "Basic dXNlcjpwYXNz")],
                [("Authorization", "Bearer wrong-token-0123456789abcdef00")],
                [("Authorization", "Bearer \(Self.token.dropLast())")],
                [("Authorization", "Bearer \(Self.token)x")],
                [("Authorization", "Bearer ")],
            ]
            for headers in refused {
                let answer = try await server.request(.GET, path, headers: headers)
                #expect(answer.status == 401, "\(headers): \(answer.text)")
                #expect(answer.errorCode == "unauthorized")
                #expect(answer.header("WWW-Authenticate") == "Bearer")
                #expect(!answer.text.contains(Self.token), "the answer must not echo the token")
            }
            let granted = try await server.request(.GET, path, headers: [("Authorization", "Bearer \(Self.token)")])
            #expect(granted.status == 200, "\(granted.text)")
            #expect(granted.json["appAccountToken"] as? String == Self.customer)
            let lowercaseScheme = try await server.request(.GET, path, headers: [("Authorization", "bearer \(Self.token)")])
            #expect(lowercaseScheme.status == 200)
        }
    }

    @Test("The reconcile route needs the token too")
    func reconcileNeedsToken() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let server = try await TestServer.start(databasePath: directory.databasePath, now: Self.now, access: AccessControl(bearerToken: Self.token), testing: .router)
        try await server.stopping {
            let refused = try await server.request(.POST, "/transactions/2000000123456789/reconcile", headers: [])
            #expect(refused.status == 401)
            #expect(refused.errorCode == "unauthorized")
            // With the token it gets past access: this server has no API credentials (501).
            let granted = try await server.request(.POST, "/transactions/2000000123456789/reconcile", headers: [("Authorization", "Bearer \(Self.token)")])
            #expect(granted.status == 501, "\(granted.text)")
            #expect(granted.errorCode == "reconcileNotConfigured")
        }
    }

    @Test("Transactions, notifications and health stay open to callers without a token, metrics needs one; a wrong token is refused")
    func openRoutes() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let server = try await TestServer.start(databasePath: directory.databasePath, now: Self.now, access: AccessControl(bearerToken: Self.token), testing: .router)
        try await server.stopping {
            let purchase = try await server.postTransaction(try TestData.jws("jws/transaction-valid.jws"), appAccountToken: Self.customer, as: .anonymous)
            #expect(purchase.status == 200, "\(purchase.text)")
            let notification = try await server.postNotification(try TestData.jws("jws/notification-valid.jws"), as: .anonymous)
            #expect(notification.status == 200, "\(notification.text)")
            #expect(try await server.request(.GET, "/health", as: .anonymous).status == 200)
            // Metrics count the console's activity: behind a token by default (WhatStrangersSeeTests).
            #expect(try await server.request(.GET, "/metrics", as: .anonymous).status == 401)
            #expect(try await server.request(.GET, "/metrics").status == 200)
            // A wrong token is refused on every route, so a misconfigured backend finds out at once.
            let wrong = try await server.request(.POST, "/notifications", headers: [("Authorization", "Bearer wrong-token-0123456789abcdef00")],
                                                 body: try JSONSerialization.data(withJSONObject: ["signedPayload": try TestData.jws("jws/notification-valid.jws")]))
            #expect(wrong.status == 401, "\(wrong.text)")
        }
    }
}
