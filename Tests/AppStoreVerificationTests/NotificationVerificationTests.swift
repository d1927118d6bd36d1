import AppStoreVerificationTestSupport
import Foundation
import Testing
@testable import AppStoreVerification

@Suite("Notifications and nested signed data")
struct NotificationVerificationTests {
    static func vector(_ name: String) throws -> String {
        try TestPaths.text(TestPaths.testVector("jws/\(name).jws"))
    }

    @Test("a verified notification exposes its transaction and renewal info already verified")
    func nestedVerified() throws {
        let result = try SignedDataVerifier.forTestVectors().verifyNotification(try Self.vector("notification-valid"))
        let notification = try result.payloadValue
        #expect(notification.notificationType == .subscribed)
        #expect(notification.subtype == .initialBuy)
        let transaction = try #require(try notification.transactionInfo?.get())
        #expect(transaction.isVerified)
        #expect(transaction.unsafePayloadValue.transactionId == "2000000123456789")
        let renewal = try #require(try notification.renewalInfo?.get())
        #expect(renewal.isVerified)
        #expect(notification.appTransactionInfo == nil)
    }

    @Test("a tampered inner JWS is visible although the outer notification is genuine")
    func tamperedInner() throws {
        let result = try SignedDataVerifier.forTestVectors().verifyNotification(try Self.vector("notification-tampered-inner"))
        #expect(result.isVerified)
        let transaction = try #require(try result.unsafePayloadValue.transactionInfo?.get())
        #expect(transaction.verificationError?.code == .invalidSignature)
        #expect(try result.unsafePayloadValue.renewalInfo?.get().isVerified == true)
    }

    @Test("the notification body as Apple POSTs it verifies the same way")
    func postBody() throws {
        let jws = try Self.vector("notification-valid")
        let body = try JSONSerialization.data(withJSONObject: ["signedPayload": jws])
        #expect(try SignedDataVerifier.forTestVectors().verifyNotification(body).isVerified)
        #expect(throws: SignedDataDecodingError.self) { try SignedDataVerifier.forTestVectors().verifyNotification(Data("{\"x\":1}".utf8)) }
        #expect(throws: SignedDataDecodingError.self) { try SignedDataVerifier.forTestVectors().verifyNotification(Data("[]".utf8)) }
    }

    @Test("summary, external purchase token and future notification types decode and verify")
    func otherShapes() throws {
        let verifier = try SignedDataVerifier.forTestVectors()
        let summary = try verifier.verifyNotification(try Self.vector("notification-summary")).payloadValue
        #expect(summary.subtype == .summary)
        #expect(summary.summary?.succeededCount == 1500)
        let token = try verifier.verifyNotification(try Self.vector("notification-external-purchase-token")).payloadValue
        #expect(token.externalPurchaseToken?.externalPurchaseId?.hasPrefix("SANDBOX") == true)
        let future = try verifier.verifyNotification(try Self.vector("notification-future-type")).payloadValue
        #expect(future.notificationType?.rawValue == "SOMETHING_APPLE_ADDS_IN_2027")
        #expect(future.notificationType?.isDocumented == false)
    }

    @Test("a payload handed to the wrong entry point says which entry point to use")
    func wrongDecoder() throws {
        let verifier = try SignedDataVerifier.forTestVectors()
        let notification = try Self.vector("notification-test")
        let transaction = try Self.vector("transaction-valid")
        do {
            _ = try verifier.verifyTransaction(notification)
            Issue.record("a notification must not decode as a transaction")
        } catch {
            #expect(error.code == .wrongPayloadType)
            #expect(error.message.contains("verifyNotification"))
        }
        do {
            _ = try verifier.verifyNotification(transaction)
            Issue.record("a transaction must not decode as a notification")
        } catch {
            #expect(error.code == .wrongPayloadType)
            #expect(error.message.contains("verifyTransaction"))
        }
    }

    @Test("the payload kind is told from the payload", arguments: [
        ("transaction-valid", SignedPayloadKind.transaction), ("renewal-valid", .renewalInfo),
        ("app-transaction-valid", .appTransaction), ("notification-valid", .notification),
        ("realtime-request-valid", .realtimeRequest),
    ])
    func detection(_ name: String, _ kind: SignedPayloadKind) throws {
        #expect(SignedPayloadKind(detectingPayloadOf: try Self.vector(name)) == kind)
    }
}
