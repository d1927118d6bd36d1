import AppStoreVerification
@testable import AppStoreVerificationTesting
import Foundation
import Testing

/// A notification that starts as one minted before is encoded and hashed from where that start
/// ends (`NestedPayloadPrefix`): what comes out must be exactly what minting from scratch makes.
@Suite struct NestedPayloadPrefixTests {
    /// A verifier for any bundle ID (the tests mint for several apps).
    static func verifier() throws -> SignedDataVerifier {
        try SignedDataVerifier(configuration: Shared.pki.get().verifierConfiguration(bundleId: nil))
    }

    /// `jws`'s payload, decoded; `jws` verified as a notification whose nested items verify too.
    static func verifiedPayload(_ jws: String, verifier: SignedDataVerifier) throws -> [UInt8] {
        let result = try verifier.verifyNotification(jws)
        #expect(result.verificationError == nil)
        #expect(try result.unsafePayloadValue.transactionInfo?.get().verificationError == nil)
        let segments = jws.split(separator: ".", omittingEmptySubsequences: false)
        try #require(segments.count == 3)
        return Array(try Base64.decodeURL(Array(segments[1].utf8)))
    }

    @Test func notificationsThatStartAlikeAreTheJSONTheyCarryAndVerify() throws {
        let verifier = try Self.verifier()
        // Bundle IDs of three lengths: the nested header starts at each offset modulo 3, where the
        // remembered base64url ends mid-group.
        for bundleId in ["com.example.a", "com.example.ab", "com.example.abc"] {
            let minter = try Shared.minter()
            for (index, type) in [NotificationTypeV2.refund, .didRenew, .consumptionRequest].enumerated() {
                let transaction = Transaction(transactionId: "\(index)", productId: "com.example.pro", bundleId: bundleId)
                let payload = ResponseBodyV2DecodedPayload(notificationType: type, data: NotificationData(bundleId: bundleId))
                let jws = try minter.notification(payload, transaction: transaction)
                let json = try Self.verifiedPayload(jws, verifier: verifier)
                // The payload is the JSON of the notification as filled in, byte for byte.
                let decoded = try AppStoreJSON.decode(ResponseBodyV2DecodedPayload.self, from: Data(json))
                #expect(json == (try AppStoreJSON.encodedBytes(decoded)))
                #expect(decoded.notificationType == type && decoded.data?.bundleId == bundleId)
                // After each notification, its start is remembered (from the second on, it was used).
                let hit = json.withUnsafeBytes { minter.nestedPrefix.entry(for: $0) } != nil
                #expect(hit, "\(bundleId) #\(index): the notification's start was not remembered")
            }
        }
    }

    @Test func aRememberedStartIsUsedOnlyWhenThePayloadBeginsWithIt() throws {
        let minter = try Shared.minter()
        let verifier = try Self.verifier()
        _ = try minter.notification(ResponseBodyV2DecodedPayload(notificationType: .refund), transaction: Transaction(transactionId: "1", productId: "p"))
        // Other members before the nested JWS (an app Apple ID, a renewal info first), other apps
        // in turns, a notification without nested data: each verifies and carries its own JSON.
        let cases: [(ResponseBodyV2DecodedPayload, Transaction?, RenewalInfo?)] = [
            (ResponseBodyV2DecodedPayload(notificationType: .refund, data: NotificationData(appAppleId: 42)), Transaction(transactionId: "2", productId: "p"), nil),
            (ResponseBodyV2DecodedPayload(notificationType: .didRenew), Transaction(transactionId: "3", productId: "p"), RenewalInfo(originalTransactionId: "3", productId: "p")),
            (ResponseBodyV2DecodedPayload(notificationType: .refund, data: NotificationData(bundleId: "com.other")), Transaction(transactionId: "4", productId: "p", bundleId: "com.other"), nil),
            (ResponseBodyV2DecodedPayload(notificationType: .refund), Transaction(transactionId: "5", productId: "p"), nil),
            (ResponseBodyV2DecodedPayload(notificationType: .didRenew), Transaction(transactionId: "6", productId: "p"), RenewalInfo(originalTransactionId: "6", productId: "p")),
        ]
        for (payload, transaction, renewal) in cases {
            let jws = try minter.notification(payload, transaction: transaction, renewalInfo: renewal)
            let result = try verifier.verifyNotification(jws)
            #expect(result.verificationError == nil)
            let decoded = result.unsafePayloadValue
            #expect(try decoded.transactionInfo?.get().unsafePayloadValue.transactionId == transaction?.transactionId)
            #expect(decoded.data?.appAppleId == payload.data?.appAppleId)
            #expect((try decoded.renewalInfo?.get().isVerified) == (renewal == nil ? nil : true))
        }
        let summary = try minter.notification(ResponseBodyV2DecodedPayload(notificationType: .renewalExtension, subtype: .summary, summary: NotificationSummary(succeededCount: 1)))
        #expect(try verifier.verifyNotification(summary).isVerified)
        // Notifications given as JSON text (`verify-jws mint notification`) take the same path.
        let text = Data(#"{"notificationType":"REFUND","data":{"bundleId":"com.example.app","environment":"Sandbox","signedTransactionInfo":{"transactionId":"9","productId":"p","bundleId":"com.example.app","environment":"Sandbox"}}}"#.utf8)
        for _ in 0..<2 {
            let jws = try minter.notification(payloadJSON: text)
            let result = try verifier.verifyNotification(jws)
            #expect(result.verificationError == nil)
            #expect(try result.unsafePayloadValue.transactionInfo?.get().unsafePayloadValue.transactionId == "9")
        }
    }

    @Test func minterSharedByManyTasksMintsVerifiableNotifications() async throws {
        let minter = try Shared.minter()
        let verifier = try Self.verifier()
        let failures = try await withThrowingTaskGroup(of: Int.self) { group in
            for task in 0..<8 {
                group.addTask {
                    var failures = 0
                    for index in 0..<25 {
                        let bundleId = "com.example.app\(task % 3)"
                        let jws = try minter.notification(ResponseBodyV2DecodedPayload(notificationType: .refund, data: NotificationData(bundleId: bundleId)),
                                                          transaction: Transaction(transactionId: "\(task)-\(index)", productId: "p", bundleId: bundleId))
                        let result = try verifier.verifyNotification(jws)
                        if !result.isVerified || (try? result.unsafePayloadValue.transactionInfo?.get().unsafePayloadValue.transactionId) != "\(task)-\(index)" {
                            failures += 1
                        }
                    }
                    return failures
                }
            }
            return try await group.reduce(0, +)
        }
        #expect(failures == 0)
    }
}
