import Foundation
import AppStoreVerificationTestSupport
import Testing
@testable import AppStoreVerification

extension ReceiptVector {
    func makeVerifier() throws -> SignedDataVerifier {
        let roots = try options.receiptRoots.map(TrustedRoot.testVector)
        let effectiveDate = try EffectiveDatePolicy.manifest(options.effectiveDate)
        let xcode = try options.xcodeReceiptCertificate.map(TrustedRoot.testVector)
        return try SignedDataVerifier(configuration: .init(
            bundleId: options.bundleId, environment: options.environment.map(AppStoreEnvironment.init(rawValue:)),
            effectiveDate: effectiveDate, maximumInputLength: options.maximumInputLength ?? 1 << 20,
            trustedReceiptRoots: roots, xcodeReceiptCertificate: xcode))
    }

    /// The receipt through the entry point its file suggests: base64 text (.b64) or bytes (.der).
    func result(with verifier: SignedDataVerifier) throws -> VerificationResult<AppReceipt> {
        let url = TestPaths.testVector(file)
        if file.hasSuffix(".b64") {
            return try verifier.verifyAppReceipt(String(contentsOf: url, encoding: .utf8))
        }
        return try verifier.verifyAppReceipt(Data(contentsOf: url))
    }
}

@Suite("Minted app receipt vectors (TestVectors/receipts)")
struct ReceiptVectorTests {
    @Test("the manifest lists the receipt vectors")
    func manifestIsPresent() {
        #expect(ReceiptVector.all.count >= 60)
        #expect(Set(ReceiptVector.all.map(\.expected.status)) == ["verified", "unverified", "malformed"])
    }

    /// Cold: a fresh verifier. Warm: the verifier first verified the valid minted receipt (whose
    /// chain most vectors embed) and the vector itself, so the warm path (chain taken from the cache
    /// by the embedded certificates' bytes, no certificate parsed) must reach the same verdict.
    @Test("every minted receipt gets its expected verdict through the library, cold and with a warm chain cache",
          arguments: ReceiptVector.all, [false, true])
    func verdict(_ vector: ReceiptVector, warm: Bool) throws {
        let verifier = try vector.makeVerifier()
        if warm {
            _ = try? verifier.verifyAppReceipt(Data(contentsOf: TestPaths.testVector("receipts/valid-sha256.der")))
            _ = try? vector.result(with: verifier)
        }
        var status = ""
        var code: String?
        do {
            let result = try vector.result(with: verifier)
            switch result {
            case .verified: (status, code) = ("verified", nil)
            case .unverified(_, let error): (status, code) = ("unverified", error.code.description)
            }
            if let device = vector.device {
                let identifier = try #require(UUID(uuidString: device))
                let checked = result.verifyingDevice(identifier)
                #expect((checked.verificationError?.code.description ?? "verified") == vector.expectedDevice, "\(vector.name): \(String(describing: checked.verificationError))")
            }
        } catch let error as SignedDataDecodingError {
            (status, code) = ("malformed", error.code.description)
            #expect(!error.message.isEmpty)
        }
        #expect(status == vector.expected.status, "\(vector.name): \(vector.description) → \(status) \(code ?? "")")
        #expect(code == vector.expected.code, "\(vector.name): \(vector.description)")
    }

    @Test("the valid minted receipt decodes every typed field, keeps undocumented ones raw, and extracts the first transaction ID")
    func decodedFields() throws {
        let vector = try #require(ReceiptVector.all.first { $0.name == "valid-sha256" })
        let result = try vector.result(with: vector.makeVerifier())
        let receipt = try result.payloadValue
        #expect(receipt.bundleId == "com.example.app")
        #expect(receipt.receiptType == "ProductionSandbox")
        #expect(receipt.environment == .sandbox)
        #expect(receipt.appItemId == 0)
        #expect(receipt.applicationVersion == "1.0")
        #expect(receipt.originalApplicationVersion == "1.0")
        #expect(receipt.opaqueValue == Data(0..<16))
        #expect(receipt.sha1Hash?.count == 20)
        #expect(receipt.receiptCreationDate == Date(timeIntervalSince1970: 1_748_779_200))
        #expect(receipt.originalPurchaseDate == Date(timeIntervalSince1970: 1_704_067_200))
        #expect(receipt.expirationDate == nil)
        #expect(receipt.inApp.count == 2)
        let purchase = try #require(receipt.inApp.first)
        #expect(purchase.quantity == 1)
        #expect(purchase.productId == "com.example.subscription")
        #expect(purchase.transactionId == "2000000000000001")
        #expect(purchase.originalTransactionId == "2000000000000001")
        #expect(purchase.purchaseDate == Date(timeIntervalSince1970: 1_746_093_600))
        #expect(purchase.expiresDate == Date(timeIntervalSince1970: 1_748_772_000))
        #expect(purchase.cancellationDate == nil, "an empty date string is no date")
        #expect(purchase.webOrderLineItemId == 2_000_000_000_000_123)
        #expect(purchase.isTrialPeriod == false)
        #expect(purchase.isInIntroOfferPeriod == true)
        #expect(purchase.promotionalOfferId == "")
        #expect(purchase.fields.contains { $0.type == 1707 })
        #expect(receipt.fields.contains { $0.type == 8 } && receipt.fields.contains { $0.type == 10 })
        #expect(try result.transactionId == "2000000000000001")
        #expect(try vector.makeVerifier().extractTransactionIdFromAppReceipt(
            Data(contentsOf: TestPaths.testVector(vector.file)).base64EncodedString()) == "2000000000000001")

        let json = try #require(JSONSerialization.jsonObject(with: receipt.jsonRepresentation) as? [String: Any])
        #expect(json["bundleId"] as? String == "com.example.app")
        #expect(json["environment"] as? String == "ProductionSandbox")
        #expect((json["receiptCreationDate"] as? NSNumber)?.int64Value == 1_748_779_200_000)
        #expect(json["opaqueValue"] as? String == Data(0..<16).base64EncodedString())
        #expect(json["expirationDate"] == nil)
        let inApp = try #require(json["inApp"] as? [[String: Any]])
        #expect(inApp.count == 2)
        #expect(inApp[0]["transactionId"] as? String == "2000000000000001")
        #expect(inApp[0]["cancellationDate"] == nil)
        #expect((inApp[0]["webOrderLineItemId"] as? NSNumber)?.int64Value == 2_000_000_000_000_123)
    }

    @Test("no transaction ID comes out of a receipt that does not verify")
    func noExtractionFromUnverified() throws {
        for name in ["tampered-content", "wrong-root", "signed-by-other-key"] {
            let vector = try #require(ReceiptVector.all.first { $0.name == name })
            let result = try vector.result(with: vector.makeVerifier())
            #expect(!result.unsafePayloadValue.inApp.isEmpty)
            #expect(throws: VerificationError.self) { try result.transactionId }
        }
    }

    @Test("offset dates: +0100 and +01:00 with fractional seconds")
    func offsetDates() throws {
        let vector = try #require(ReceiptVector.all.first { $0.name == "valid-offset-dates" })
        let receipt = try vector.result(with: vector.makeVerifier()).payloadValue
        #expect(receipt.receiptCreationDate == Date(timeIntervalSince1970: 1_748_779_200))
        #expect(receipt.inApp.first?.purchaseDate == Date(timeIntervalSince1970: 1_746_090_000.25))
    }

    @Test("a warm chain cache gives the same verdicts as a cold one")
    func warmCache() throws {
        let vector = try #require(ReceiptVector.all.first { $0.name == "valid-sha256" })
        let verifier = try vector.makeVerifier()
        let bytes = try Data(contentsOf: TestPaths.testVector(vector.file))
        for _ in 0..<3 { #expect(try verifier.verifyAppReceipt(bytes).isVerified) }
        // A cached chain is used only inside its validity window: after the leaf's notAfter
        // (2027-01-01) the same verifier's cache must not vouch for it.
        let late = try SignedDataVerifier(configuration: .init(
            bundleId: "com.example.app", effectiveDate: .fixed(Date(timeIntervalSince1970: 1_811_808_000)),
            trustedReceiptRoots: verifier.configuration.trustedReceiptRoots))
        #expect(try late.verifyAppReceipt(bytes).isVerified == false)
        #expect(verifier.receiptPolicy.chainCache.count == 1)
        #expect(try verifier.verifyAppReceipt(bytes).isVerified)
    }
}
