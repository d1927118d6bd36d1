import AppStoreVerification
import AppStoreVerificationTesting
import Foundation
import Testing

/// One PKI per test run (RSA key generation costs most of a second).
enum Shared {
    static let pki = Result { () throws(AppStoreTestingError) in try TestPKI() }
    static let xcode = Result { () throws(AppStoreTestingError) in try XcodeTestPKI() }

    static func minter() throws -> SignedDataMinter { try SignedDataMinter(pki: pki.get()) }
    static func verifier() throws -> SignedDataVerifier { try SignedDataVerifier(configuration: pki.get().verifierConfiguration()) }
}

@Suite struct MintedDataVerificationTests {
    let signedDate = Date(timeIntervalSince1970: 1_772_366_400)

    @Test func transactionVerifiesAndDecodesAsBuilt() throws {
        let transaction = Transaction(transactionId: "1", productId: "com.example.pro", signedDate: signedDate)
        let result = try Shared.verifier().verifyTransaction(try Shared.minter().transaction(transaction))
        let verified = try #require(try? result.payloadValue, "\(String(describing: result.verificationError))")
        #expect(verified.transactionId == "1")
        #expect(verified.originalTransactionId == "1")
        #expect(verified.bundleId == "com.example.app")
        #expect(verified.environment == .sandbox)
        // Everything but the attached JWS: the same fields as built.
        let encoder = AppStoreJSON.makeEncoder()
        #expect(try encoder.encode(verified) == (try encoder.encode(transaction)))
    }

    @Test func renewalInfoAppTransactionAndRealtimeRequestVerify() throws {
        let minter = try Shared.minter()
        let verifier = try Shared.verifier()
        let renewal = try verifier.verifyRenewalInfo(try minter.renewalInfo(RenewalInfo(originalTransactionId: "1", productId: "com.example.pro")))
        #expect(renewal.isVerified, "\(String(describing: renewal.verificationError))")
        #expect(renewal.unsafePayloadValue.autoRenewProductId == "com.example.pro")
        let app = try verifier.verifyAppTransaction(try minter.appTransaction(AppTransaction()))
        #expect(app.isVerified, "\(String(describing: app.verificationError))")
        let request = try verifier.verifyRealtimeRequest(try minter.realtimeRequest(DecodedRealtimeRequestBody(originalTransactionId: "1", productId: "com.example.pro")))
        #expect(request.isVerified, "\(String(describing: request.verificationError))")
    }

    @Test func notificationWithNestedModelsVerifiesEachNestedItem() throws {
        let transaction = Transaction(transactionId: "7", productId: "com.example.pro", revocationReason: RevocationReason(rawValue: 1), revocationDate: signedDate)
        let body = try Shared.minter().notificationBody(ResponseBodyV2DecodedPayload(notificationType: .refund), transaction: transaction,
                                                        renewalInfo: RenewalInfo(originalTransactionId: "7", productId: "com.example.pro"),
                                                        appTransaction: AppTransaction())
        let result = try Shared.verifier().verifyNotification(body)
        #expect(result.isVerified, "\(String(describing: result.verificationError))")
        let payload = result.unsafePayloadValue
        #expect(payload.notificationType == .refund)
        let nested = try #require(try payload.transactionInfo?.get())
        #expect(nested.isVerified)
        #expect(nested.unsafePayloadValue.revocationDate == signedDate)
        #expect(try payload.renewalInfo?.get().isVerified == true)
        #expect(try payload.appTransactionInfo?.get().isVerified == true)
    }

    /// The payload signed is `AppStoreJSON.makeEncoder()`'s JSON of the model, byte for byte,
    /// for a notification (which carries nested JWS) too; many notifications minted from several
    /// tasks at once each verify.
    @Test func mintedPayloadsAreTheEncodersJSONAndVerifyFromManyTasks() async throws {
        let minter = try Shared.minter()
        let verifier = try Shared.verifier()
        let encoder = AppStoreJSON.makeEncoder()
        let transaction = Transaction(transactionId: "1", productId: "com.example.pro", signedDate: signedDate)
        let jws = try minter.transaction(transaction)
        #expect(try Self.payload(of: jws) == encoder.encode(transaction))
        let notification = try minter.notification(ResponseBodyV2DecodedPayload(notificationType: .didRenew, signedDate: signedDate), transaction: transaction)
        let decoded = try verifier.verifyNotification(notification).payloadValue
        #expect(try Self.payload(of: notification) == encoder.encode(decoded))
        #expect(try decoded.data?.signedTransactionInfo.map { try Self.payload(of: $0) } == encoder.encode(transaction))
        let verdicts = await withTaskGroup(of: Bool.self) { group in
            for task in 0..<8 {
                group.addTask {
                    (0..<4).allSatisfy { index in
                        let nested = Transaction(transactionId: "\(task)-\(index)", productId: "com.example.pro")
                        let jws = try? minter.notification(ResponseBodyV2DecodedPayload(notificationType: .refund), transaction: nested)
                        let result = jws.flatMap { try? verifier.verifyNotification($0) }
                        return result?.isVerified == true && (try? result?.unsafePayloadValue.transactionInfo?.get().unsafePayloadValue.transactionId) == nested.transactionId
                    }
                }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
        #expect(verdicts == Array(repeating: true, count: 8))
    }

    /// The decoded payload segment of `jws`.
    static func payload(of jws: String) throws -> Data {
        let segments = jws.split(separator: ".", omittingEmptySubsequences: false)
        try #require(segments.count == 3)
        var text = segments[1].replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        text += String(repeating: "=", count: (4 - text.count % 4) % 4)
        return try #require(Data(base64Encoded: text))
    }

    @Test func summaryAndExternalPurchaseTokenNotificationsVerify() throws {
        let minter = try Shared.minter()
        let verifier = try Shared.verifier()
        let summary = try verifier.verifyNotification(try minter.notification(ResponseBodyV2DecodedPayload(
            notificationType: .renewalExtension, subtype: .summary, summary: NotificationSummary(productId: "com.example.pro", succeededCount: 3, failedCount: 0))))
        #expect(summary.isVerified, "\(String(describing: summary.verificationError))")
        let token = try verifier.verifyNotification(try minter.notification(ResponseBodyV2DecodedPayload(
            notificationType: .externalPurchaseToken, subtype: .unreported, externalPurchaseToken: ExternalPurchaseToken())))
        #expect(token.isVerified, "\(String(describing: token.verificationError))")
    }

    @Test func notificationJSONWithObjectsInPlaceOfSignedStringsNestsThem() throws {
        let json = #"{"notificationType":"DID_RENEW","notificationUUID":"x","data":{"environment":"Sandbox","bundleId":"com.example.app","signedTransactionInfo":{"transactionId":"9","originalTransactionId":"9","bundleId":"com.example.app","productId":"p","purchaseDate":1772366340000,"type":"Auto-Renewable Subscription","environment":"Sandbox","signedDate":1772366400000,"extra":[1,{"a":"}"}]}},"signedDate":1772366400000,"version":"2.0"}"#
        let result = try Shared.verifier().verifyNotification(try Shared.minter().notification(payloadJSON: Data(json.utf8)))
        #expect(result.isVerified, "\(String(describing: result.verificationError))")
        let nested = try #require(try result.unsafePayloadValue.transactionInfo?.get())
        #expect(nested.isVerified)
        #expect(String(decoding: nested.payloadData, as: UTF8.self).hasSuffix(#""extra":[1,{"a":"}"}]}"#))
    }

    @Test func receiptVerifiesWithItsPurchases() throws {
        let created = Date(timeIntervalSince1970: 1_772_366_400)
        let receipt = AppReceipt(receiptCreationDate: created, inApp: [
            InAppPurchaseReceipt(productId: "com.example.pro", transactionId: "1", purchaseDate: created),
            InAppPurchaseReceipt(productId: "com.example.sub", transactionId: "2", purchaseDate: created, expiresDate: created.addingTimeInterval(86_400),
                                 webOrderLineItemId: 5, isTrialPeriod: true, fields: [ReceiptField(type: 1707, version: 1, value: Data([0x0C, 0x01, 0x41]))]),
        ])
        let der = try Shared.minter().appReceipt(receipt)
        let result = try Shared.verifier().verifyAppReceipt(der.base64EncodedString())
        let verified = try #require(try? result.payloadValue, "\(String(describing: result.verificationError))")
        #expect(verified.bundleId == "com.example.app")
        #expect(verified.environment == .sandbox)
        #expect(verified.receiptCreationDate == created)
        #expect(verified.inApp.map(\.transactionId) == ["1", "2"])
        #expect(verified.inApp[1].expiresDate == created.addingTimeInterval(86_400))
        #expect(verified.inApp[1].isTrialPeriod == true)
        #expect(verified.inApp[1].fields.contains(ReceiptField(type: 1707, version: 1, value: Data([0x0C, 0x01, 0x41]))))
    }

    @Test func receiptFromJSONVerifies() throws {
        let json = #"{"environment":"ProductionSandbox","bundleId":"com.example.app","receiptCreationDate":1772366400000,"inApp":[{"productId":"p","transactionId":"3","purchaseDate":1772366400000}]}"#
        let result = try Shared.verifier().verifyAppReceipt(try Shared.minter().appReceipt(json: Data(json.utf8)))
        #expect(result.isVerified, "\(String(describing: result.verificationError))")
        #expect(result.unsafePayloadValue.inApp.first?.transactionId == "3")
        #expect(throws: AppStoreTestingError.self) { try Shared.minter().appReceipt(json: Data(#"{"bundleID":"x"}"#.utf8)) }
    }

    @Test func xcodeSignedDataVerifiesAgainstItsCertificateOnly() throws {
        let xcode = try Shared.xcode.get()
        let minter = try SignedDataMinter(xcode: xcode)
        let verifier = try SignedDataVerifier(configuration: xcode.verifierConfiguration())
        let jws = try minter.transaction(Transaction(transactionId: "1", productId: "p", environment: .xcode))
        let result = try verifier.verifyTransaction(jws)
        #expect(result.isVerified, "\(String(describing: result.verificationError))")
        let receipt = try verifier.verifyAppReceipt(try minter.appReceipt(AppReceipt(receiptType: "Xcode")).base64EncodedString())
        #expect(receipt.isVerified, "\(String(describing: receipt.verificationError))")
        // The App Store's verifier refuses it.
        let refused = try Shared.verifier().verifyTransaction(jws)
        #expect(!refused.isVerified)
    }

    @Test(arguments: [TestPKI.Variant.expiredLeaf, .leafWithoutMarker, .wrongKey, .otherRoot])
    func variantIsRefused(_ variant: TestPKI.Variant) throws {
        let pki = try Shared.pki.get().variant(variant)
        #expect(pki.trustedRoot == (try Shared.pki.get().trustedRoot))
        let minter = try SignedDataMinter(pki: pki)
        let result = try Shared.verifier().verifyTransaction(try minter.transaction(Transaction(transactionId: "1", productId: "p")))
        let error = try #require(result.verificationError)
        switch (variant, error) {
        case (.wrongKey, .invalidSignature), (.expiredLeaf, .invalidCertificateChain), (.leafWithoutMarker, .invalidCertificateChain),
             (.otherRoot, .invalidCertificateChain):
            break
        default:
            Issue.record("\(variant): unexpected \(error)")
        }
        let receipt = try Shared.verifier().verifyAppReceipt(try minter.appReceipt(AppReceipt()))
        if variant == .wrongKey {
            #expect(receipt.isVerified)
        } else {
            guard case .invalidCertificateChain = receipt.verificationError else {
                Issue.record("\(variant): receipt \(String(describing: receipt.verificationError))")
                return
            }
        }
    }

    @Test func aPKIWrittenAndReadBackSignsTheSame() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("test-pki-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let pki = try Shared.pki.get()
        try pki.write(to: directory)
        let names = Set(try FileManager.default.contentsOfDirectory(atPath: directory.path))
        #expect(names.isSuperset(of: ["root.der", "intermediate.der", "leaf.der", "leaf.key", "receipt-root.der", "receipt-intermediate.der", "receipt-leaf.der", "receipt-leaf.key"]))
        let read = try TestPKI(contentsOf: directory)
        #expect(read.rootDER == pki.rootDER)
        let minter = try SignedDataMinter(pki: read)
        #expect(try Shared.verifier().verifyTransaction(try minter.transaction(Transaction(transactionId: "1", productId: "p"))).isVerified)
        #expect(try Shared.verifier().verifyAppReceipt(try minter.appReceipt(AppReceipt())).isVerified)
        #expect(try read.variant(.expiredLeaf).trustedRoot == pki.trustedRoot)
        #expect(throws: AppStoreTestingError.self) { try TestPKI(contentsOf: directory.appendingPathComponent("missing")) }
    }
}
