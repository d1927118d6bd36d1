import AsyncHTTPClient
import Foundation
import ReceiptServerCore
import Testing

/// Input that must be refused with a clear JSON error, storing nothing.
@Suite("Bad input is refused and nothing is stored", .timeLimit(.minutes(2)))
struct BadInputTests {
    static let customer = "0b7c5f3e-1d2a-4e6f-8a9b-0c1d2e3f4a5b"

    /// Starts a server on a new database of `store`, runs `body`, checks the database is still empty, stops the server.
    func withEmptyServer(_ store: StoreKind, _ body: (TestServer) async throws -> Void) async throws {
        let directory = try await TestDatabase.make(store)
        defer { directory.remove() }
        let server = try await TestServer.start(databasePath: directory.databasePath, now: TestData.vectorsSignedDate, testing: .router)
        do {
            try await body(server)
            #expect(try await server.store.count() == 0)
        } catch {
            try await server.stop()
            throw error
        }
        try await server.stop()
    }

    @Test("Garbage bodies: not JSON, no signedTransaction, not a JWS, empty", arguments: StoreKind.allCases)
    func garbage(store: StoreKind) async throws {
        try await withEmptyServer(store) { server in
            let notJSON = try await server.request(.POST, "/transactions", body: Data("hello".utf8))
            #expect(notJSON.status == 400)
            #expect(notJSON.errorCode == "invalidBody")
            #expect(notJSON.header("Content-Type")?.hasPrefix("application/json") == true)

            let noField = try await server.request(.POST, "/transactions", body: Data(#"{"jws":"x"}"#.utf8))
            #expect(noField.status == 400)
            #expect(noField.errorMessage?.contains("signedTransaction") == true)

            let notJWS = try await server.postTransaction("not.a.jws!", appAccountToken: Self.customer)
            #expect(notJWS.status == 400)
            #expect(notJWS.errorCode == "malformedJWS")

            let empty = try await server.request(.POST, "/notifications", body: Data())
            #expect(empty.status == 400)

            let notificationGarbage = try await server.request(.POST, "/notifications", body: Data(#"{"signedPayload": 42}"#.utf8))
            #expect(notificationGarbage.status == 400)
            #expect(notificationGarbage.errorMessage?.contains("signedPayload") == true)

            let badToken = try await server.postTransaction(try TestData.jws("jws/transaction-valid.jws"), appAccountToken: "customer-1")
            #expect(badToken.status == 400)
            #expect(badToken.errorMessage?.contains("UUID") == true)
        }
    }

    @Test("A member given twice (two appAccountTokens, two signedPayloads) is 400: parsers disagree on which one wins", arguments: StoreKind.allCases)
    func duplicateMembers(store: StoreKind) async throws {
        try await withEmptyServer(store) { server in
            let jws = try TestData.jws("jws/transaction-valid.jws")
            let twoCustomers = #"{"signedTransaction": "\#(jws)", "appAccountToken": "\#(Self.customer)", "appAccountToken": "7e3fb20b-4cdb-47cc-936d-99d65f608138"}"#
            for caller in [Caller.anonymous, .backend] {
                let answer = try await server.request(.POST, "/transactions", body: Data(twoCustomers.utf8), as: caller)
                #expect(answer.status == 400, "\(answer.text)")
                #expect(answer.errorCode == "invalidBody")
                #expect(answer.errorMessage?.contains("appAccountToken") == true, "\(answer.text)")
            }
            let notification = try TestData.jws("jws/notification-valid.jws")
            let twoPayloads = #"{"signedPayload": "\#(notification)", "signedPayload": "x"}"#
            let answer = try await server.postNotificationBody(twoPayloads, as: .anonymous)
            #expect(answer.status == 400, "\(answer.text)")
            #expect(answer.errorCode == "invalidBody")
            // Members of the wrong type say which member and what to send.
            let wrongType = try await server.request(.POST, "/transactions", body: Data(#"{"signedTransaction": 42}"#.utf8))
            #expect(wrongType.status == 400)
            #expect(wrongType.errorMessage?.contains("\"signedTransaction\" must be a string") == true, "\(wrongType.text)")
            let array = try await server.request(.POST, "/transactions", body: Data("[1]".utf8))
            #expect(array.status == 400)
            #expect(array.errorMessage?.contains("not a JSON object") == true, "\(array.text)")
        }
    }

    @Test("A body over the limit is answered 413", arguments: StoreKind.allCases)
    func oversizedBody(store: StoreKind) async throws {
        try await withEmptyServer(store) { server in
            let padding = String(repeating: "A", count: 80 * 1024)
            let answer = try await server.request(.POST, "/notifications", body: Data(#"{"signedPayload":"\#(padding)"}"#.utf8))
            #expect(answer.status == 413)
            #expect(answer.errorCode == "bodyTooLarge")
            #expect(answer.errorMessage?.contains("65536") == true)
        }
    }

    @Test("Tampered, untrusted or wrong-app signed data is answered 422 with the verifier's reason", arguments: StoreKind.allCases)
    func tampered(store: StoreKind) async throws {
        try await withEmptyServer(store) { server in
            let tampered = try await server.postTransaction(try TestData.jws("jws/tampered-payload.jws"), appAccountToken: Self.customer)
            #expect(tampered.status == 422)
            #expect(tampered.errorCode == "unverified")
            #expect(tampered.errorMessage?.contains("invalidSignature") == true, "\(tampered.text)")

            let untrusted = try await server.postTransaction(try TestData.jws("jws/rechained-untrusted.jws"), appAccountToken: Self.customer)
            #expect(untrusted.status == 422)
            #expect(untrusted.errorMessage?.contains("invalidCertificateChain") == true, "\(untrusted.text)")

            let otherApp = try await server.postTransaction(try TestData.jws("jws/wrong-bundle-id.jws"), appAccountToken: Self.customer)
            #expect(otherApp.status == 422)
            #expect(otherApp.errorMessage?.contains("invalidAppIdentifier") == true, "\(otherApp.text)")
            // One period between the verifier's reason and the server's sentence, never two.
            for answer in [tampered, untrusted, otherApp] {
                #expect(answer.errorMessage?.hasSuffix("Nothing was stored.") == true, "\(answer.text)")
                #expect(answer.errorMessage?.contains("..") == false, "\(answer.text)")
            }

            let tamperedInner = try await server.postNotification(try TestData.jws("jws/notification-tampered-inner.jws"))
            #expect(tamperedInner.status == 422)
            #expect(tamperedInner.errorMessage?.contains("signedTransactionInfo") == true, "\(tamperedInner.text)")

            // A notification sent where a transaction belongs.
            let wrongKind = try await server.postTransaction(try TestData.jws("jws/notification-valid.jws"), appAccountToken: Self.customer)
            #expect(wrongKind.status == 400)
            #expect(wrongKind.errorCode == "wrongPayloadType")
        }
    }

    @Test("Unknown routes and malformed customer keys get JSON errors", arguments: StoreKind.allCases)
    func routes(store: StoreKind) async throws {
        try await withEmptyServer(store) { server in
            let unknown = try await server.request(.GET, "/receipts")
            #expect(unknown.status == 404)
            #expect(unknown.errorCode == "notFound")

            let badKey = try await server.request(.GET, "/customers/not-a-uuid/entitlements")
            #expect(badKey.status == 400)
            #expect(badKey.errorCode == "invalidAppAccountToken")

            let badAt = try await server.request(.GET, "/customers/\(Self.customer)/entitlements?at=yesterday")
            #expect(badAt.status == 400)
            #expect(badAt.errorCode == "invalidAt")

            let unknownCustomer = try await server.entitlements(of: Self.customer)
            #expect(unknownCustomer.status == 200)
            #expect(unknownCustomer.entitlements.isEmpty)
        }
    }
}
