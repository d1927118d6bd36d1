import AppStoreVerificationTestSupport
import Foundation
import Testing
@testable import AppStoreVerification
import AppStoreVerificationTesting

/// Real Apple-signed app receipts from `../shared/vectors/receipts/appreceiptvalidator/` (from
/// IdeasOnCanvas/AppReceiptValidator's tests, Apache-2.0), checked against the values its test
/// files (`expectations/*.txt`) list, and Xcode's app receipts.
@Suite("Real app receipts", .enabled(if: TestPaths.sharedIsPresent, sharedAbsentComment))
struct RealAppReceiptTests {
    /// What a receipt must decode to, from the expectations files.
    struct Expected: Sendable, CustomTestStringConvertible {
        struct Purchase: Sendable {
            var productId: String
            var transactionId: String
            var originalTransactionId: String
            var purchaseDate: String
            var originalPurchaseDate: String
            var expiresDate: String?
            var webOrderLineItemId: Int64?
        }

        var file: String
        var bundleId: String
        var bundleIdData: String
        var applicationVersion: String
        var opaqueValue: String
        var sha1Hash: String
        var originalApplicationVersion: String
        var receiptCreationDate: String
        var receiptType: String?
        var purchases: [Purchase] = []
        /// A device identifier (base64) whose hash the receipt carries, when the expectations give one.
        var device: String?

        var testDescription: String { file }
    }

    static let directory = "vectors/receipts/appreceiptvalidator/"

    static let receipts: [Expected] = [
        Expected(
            file: "grandUnifiedExpiredAppleCert_receipt.b64", bundleId: "com.mbaasy.ios.demo",
            bundleIdData: "DBNjb20ubWJhYXN5Lmlvcy5kZW1v", applicationVersion: "1", opaqueValue: "xN1AVLC2Gge+tYX2qELgSA==",
            sha1Hash: "LgoRW+rBxXAjpb03NJlVqa2Z200=", originalApplicationVersion: "1.0", receiptCreationDate: "2015-08-13T07:50:46Z",
            purchases: [
                .init(productId: "consumable", transactionId: "1000000166865231", originalTransactionId: "1000000166865231", purchaseDate: "2015-08-07T20:37:55Z", originalPurchaseDate: "2015-08-07T20:37:55Z"),
                .init(productId: "monthly", transactionId: "1000000166965150", originalTransactionId: "1000000166965150", purchaseDate: "2015-08-10T06:49:32Z", originalPurchaseDate: "2015-08-10T06:49:33Z", expiresDate: "2015-08-10T06:54:32Z", webOrderLineItemId: 1000000030274153),
                .init(productId: "monthly", transactionId: "1000000166965327", originalTransactionId: "1000000166965150", purchaseDate: "2015-08-10T06:54:32Z", originalPurchaseDate: "2015-08-10T06:53:18Z", expiresDate: "2015-08-10T06:59:32Z", webOrderLineItemId: 1000000030274154),
                .init(productId: "monthly", transactionId: "1000000166965895", originalTransactionId: "1000000166965150", purchaseDate: "2015-08-10T06:59:32Z", originalPurchaseDate: "2015-08-10T06:57:34Z", expiresDate: "2015-08-10T07:04:32Z", webOrderLineItemId: 1000000030274165),
                .init(productId: "monthly", transactionId: "1000000166967152", originalTransactionId: "1000000166965150", purchaseDate: "2015-08-10T07:04:32Z", originalPurchaseDate: "2015-08-10T07:02:33Z", expiresDate: "2015-08-10T07:09:32Z", webOrderLineItemId: 1000000030274192),
                .init(productId: "monthly", transactionId: "1000000166967484", originalTransactionId: "1000000166965150", purchaseDate: "2015-08-10T07:09:32Z", originalPurchaseDate: "2015-08-10T07:08:30Z", expiresDate: "2015-08-10T07:14:32Z", webOrderLineItemId: 1000000030274219),
                .init(productId: "monthly", transactionId: "1000000166967782", originalTransactionId: "1000000166965150", purchaseDate: "2015-08-10T07:14:32Z", originalPurchaseDate: "2015-08-10T07:12:34Z", expiresDate: "2015-08-10T07:19:32Z", webOrderLineItemId: 1000000030274249),
            ]),
        Expected(
            file: "hannes_mac_mindnode_2_receipt", bundleId: "com.ideasoncanvas.MindNodeMac",
            bundleIdData: "DB1jb20uaWRlYXNvbmNhbnZhcy5NaW5kTm9kZU1hYw==", applicationVersion: "2.5.8", opaqueValue: "ZRyo4rFO+zpyYoGJoDUYIQ==",
            sha1Hash: "EtemZhuYKqGofTIwv+x0nNqS5BU=", originalApplicationVersion: "2.5.5", receiptCreationDate: "2023-02-22T12:56:25Z"),
        Expected(
            file: "mac_mindnode_rebought_receipt", bundleId: "com.ideasoncanvas.MindNodeMac",
            bundleIdData: "DB1jb20uaWRlYXNvbmNhbnZhcy5NaW5kTm9kZU1hYw==", applicationVersion: "2.5.5", opaqueValue: "VzgcF3QeYC6RGBfGC5rP+A==",
            sha1Hash: "fqauHWwZo7XrxhQJcksK447Fzvg=", originalApplicationVersion: "2.5.5", receiptCreationDate: "2017-09-04T14:45:30Z"),
        Expected(
            file: "hannes_mac_mindnode_receipt", bundleId: "com.ideasoncanvas.MindNodeMac",
            bundleIdData: "DB1jb20uaWRlYXNvbmNhbnZhcy5NaW5kTm9kZU1hYw==", applicationVersion: "2.5.5", opaqueValue: "mjF2f4xnFu/L4J3msJ1fxQ==",
            sha1Hash: "gfM0Izu/eKMBRLbJqlTXtNvvmss=", originalApplicationVersion: "2.5.5", receiptCreationDate: "2017-09-04T09:01:20Z",
            receiptType: "Production", device: "bEAItZRe"),
        Expected(
            file: "mindnode_ios_michaelsandbox_receipt1.b64", bundleId: "com.mindnode.mindnodetouch",
            bundleIdData: "DBpjb20ubWluZG5vZGUubWluZG5vZGV0b3VjaA==", applicationVersion: "3394", opaqueValue: "YslufpOntElA2SgjZc/BZw==",
            sha1Hash: "d3UPNvYmUF8EOyfB9Ap8VBETHbE=", originalApplicationVersion: "1.0", receiptCreationDate: "2017-09-11T09:38:34Z",
            receiptType: "ProductionSandbox",
            // DISABLED_testiOSParsingPerformance validates this receipt with the default parameters
            // (which include the device hash check) and this identifierForVendor.
            device: uuidBase64("3B76A7BD-8F5B-46A4-BCB1-CCE8DBD1B3CD")),
        Expected(
            file: "purchasing_experiments_sandbox_receipt.b64", bundleId: "com.hannesoid.PurchasingExperiments",
            bundleIdData: "DCNjb20uaGFubmVzb2lkLlB1cmNoYXNpbmdFeHBlcmltZW50cw==", applicationVersion: "1", opaqueValue: "CPYuy3sssm2OQks5Dfav1Q==",
            sha1Hash: "gfxUPQjdI7OUJFRcSX7Hl/98JpI=", originalApplicationVersion: "1.0", receiptCreationDate: "2023-02-22T14:30:15Z",
            purchases: [
                .init(productId: "com.hannesoid.PurchasingExperiments.oneTime", transactionId: "2000000284164152", originalTransactionId: "2000000284164152", purchaseDate: "2023-02-22T14:29:20Z", originalPurchaseDate: "2023-02-22T14:29:20Z"),
                .init(productId: "com.hannesoid.PurchasingExperiments.subscription1", transactionId: "2000000284164527", originalTransactionId: "2000000284164527", purchaseDate: "2023-02-22T14:29:39Z", originalPurchaseDate: "2023-02-22T14:29:44Z", expiresDate: "2023-02-22T14:34:39Z", webOrderLineItemId: 2000000021470597),
            ],
            device: "5hgQmGLdQz+7lGddOBXSYw=="),
        Expected(
            file: "mindnode_mac_sha256_receipt", bundleId: "com.ideasoncanvas.mindnode.macos",
            bundleIdData: "DCBjb20uaWRlYXNvbmNhbnZhcy5taW5kbm9kZS5tYWNvcw==", applicationVersion: "2023.2.2", opaqueValue: "VmWS/KFzfC1svdKl/fE28w==",
            sha1Hash: "qDMXlx3d0G20ClaveV6dpPPHDRg=", originalApplicationVersion: "5.0", receiptCreationDate: "2023-08-28T10:24:05Z",
            purchases: [
                .init(productId: "com.ideasoncanvas.mindnode.macos.iap.trial", transactionId: "710000250371060", originalTransactionId: "710000250371060", purchaseDate: "2017-11-28T11:13:57Z", originalPurchaseDate: "2017-11-28T11:13:57Z"),
                .init(productId: "com.ideasoncanvas.mindnode.macos.iap.fullversionfree", transactionId: "710000253893482", originalTransactionId: "710000253893482", purchaseDate: "2017-12-13T14:04:33Z", originalPurchaseDate: "2017-12-13T14:04:33Z"),
                .init(productId: "com.ideasoncanvas.mindnode.macos.subscription.yearly", transactionId: "710000831465389", originalTransactionId: "710000831465389", purchaseDate: "2021-09-10T12:37:29Z", originalPurchaseDate: "2021-09-10T12:37:34Z", expiresDate: "2022-09-24T12:37:29Z", webOrderLineItemId: 710000353660114),
            ],
            device: Data([0xF8, 0xFF, 0xC2, 0x1E, 0x91, 0x82]).base64EncodedString()),
    ]

    /// Every real PKCS#7 receipt in the directory: the seven above and the second sandbox one, whose
    /// expectations list only its provisioning type.
    static let allReceiptFiles = receipts.map(\.file) + ["mindnode_ios_michaelsandbox_receipt2.b64"]

    static func bytes(_ file: String) throws -> Data {
        try Data(contentsOf: TestPaths.sharedFile(directory + file))
    }

    /// The receipt's DER bytes (`.b64` files hold base64 text, the others DER).
    static func der(_ file: String) throws -> Data {
        let bytes = try bytes(file)
        guard file.hasSuffix(".b64") else { return bytes }
        return try #require(Data(base64Encoded: String(decoding: bytes, as: UTF8.self).filter { !$0.isWhitespace }), "\(file) is not base64")
    }

    /// The receipt as one line of base64 text, as the CLI reads it.
    static func base64Line(_ file: String) throws -> String {
        try der(file).base64EncodedString()
    }

    /// When the receipt's signing certificate (the first embedded one, which the verifier requires
    /// to be the signer's) stops being valid.
    static func leafNotAfter(_ file: String) throws -> Date {
        let signedData = try ReceiptSignedData(encoded: der(file))
        let leaf = try X509Certificate(derEncoded: try #require(signedData.certificates.first, "\(file) embeds no certificate"))
        return try leaf.validity().upperBound
    }

    /// The real receipts whose leaf has expired by now: every one here (2015–2024 leaves, valid
    /// about two years), read from the certificates rather than assumed.
    static func filesWithExpiredLeaf() throws -> [String] {
        try allReceiptFiles.filter { try leafNotAfter($0) < Date() }
    }

    /// A UUID's 16 bytes in base64, as the expectations' device identifiers.
    static func uuidBase64(_ text: String) -> String? {
        guard let uuid = UUID(uuidString: text) else { return nil }
        return withUnsafeBytes(of: uuid.uuid) { Data($0) }.base64EncodedString()
    }

    static func date(_ text: String) throws -> Date {
        try #require(ISO8601DateFormatter().date(from: text), "bad date \(text)")
    }

    static func verify(_ file: String, _ configuration: SignedDataVerifier.Configuration = .init()) throws -> VerificationResult<AppReceipt> {
        try SignedDataVerifier(configuration: configuration).verifyAppReceipt(bytes(file))
    }

    @Test("every real receipt verifies at its creation date against the embedded Apple Root CA, with the listed fields", arguments: receipts)
    func verifiesWithExpectedFields(_ expected: Expected) throws {
        let result = try Self.verify(expected.file, .init(bundleId: expected.bundleId))
        #expect(result.isVerified, "\(String(describing: result.verificationError))")
        let receipt = result.unsafePayloadValue
        #expect(receipt.bundleId == expected.bundleId)
        #expect(receipt.bundleIdEncoding == Data(base64Encoded: expected.bundleIdData))
        #expect(receipt.applicationVersion == expected.applicationVersion)
        #expect(receipt.originalApplicationVersion == expected.originalApplicationVersion)
        #expect(receipt.opaqueValue == Data(base64Encoded: expected.opaqueValue))
        #expect(receipt.sha1Hash == Data(base64Encoded: expected.sha1Hash))
        #expect(receipt.receiptCreationDate == (try Self.date(expected.receiptCreationDate)))
        #expect(receipt.expirationDate == nil)
        if let receiptType = expected.receiptType {
            #expect(receipt.receiptType == receiptType)
        }
        #expect(receipt.inApp.count == expected.purchases.count)
        for (purchase, want) in zip(receipt.inApp, expected.purchases) {
            #expect(purchase.quantity == 1)
            #expect(purchase.productId == want.productId)
            #expect(purchase.transactionId == want.transactionId)
            #expect(purchase.originalTransactionId == want.originalTransactionId)
            #expect(purchase.purchaseDate == (try Self.date(want.purchaseDate)))
            #expect(purchase.originalPurchaseDate == (try Self.date(want.originalPurchaseDate)))
            #expect(purchase.expiresDate == (try want.expiresDate.map(Self.date)))
            #expect(purchase.cancellationDate == nil)
            // Receipts write 0 for purchases that are not subscriptions; AppReceiptValidator's
            // expectations show that as nil, this library keeps the 0 the receipt carries.
            #expect(purchase.webOrderLineItemId == (want.webOrderLineItemId ?? 0))
        }
        // Every attribute is kept, typed or not, in-app purchases included.
        #expect(receipt.fields.filter { $0.type == 17 }.count == expected.purchases.count)
        #expect(receipt.fields.contains { !AppReceipt.typedFieldTypes.contains($0.type) && $0.type != 17 })
        // Apple's ReceiptUtility returns the first in-app transaction ID; so do we, once verified.
        #expect(try result.transactionId == expected.purchases.first?.transactionId)
    }

    @Test("every real receipt whose leaf has expired by 2030 fails as expired with effective date now (2030)", arguments: allReceiptFiles)
    func expiredNow(_ file: String) throws {
        let notAfter = try Self.leafNotAfter(file)
        let now = Date(timeIntervalSince1970: 1_893_456_000)  // 2030-01-01, before Apple Root CA expires (2035)
        let result = try Self.verify(file, .init(effectiveDate: .now, clock: .manual(ManualClock(date: now))))
        guard notAfter < now else {
            // Not the case for any receipt here; kept so a future receipt with a live leaf is checked too.
            #expect(result.isVerified, "\(file): leaf valid until \(notAfter): \(String(describing: result.verificationError))")
            return
        }
        guard case .unverified(_, .invalidCertificateChain(let reason)) = result else {
            Issue.record("\(file): leaf expired \(notAfter); expected an expired chain, got \(result)")
            return
        }
        #expect(reason.contains("expired"), "\(reason)")
        #expect(reason.contains("(now)"), "\(reason)")
    }

    @Test("every real receipt here has an expired leaf, so the test above covers all eight")
    func allLeavesExpired() throws {
        #expect(try Self.filesWithExpiredLeaf() == Self.allReceiptFiles)
        #expect(Self.allReceiptFiles.count == 8)
    }

    @Test("the device check passes with the listed device identifier and fails with another", arguments: receipts.filter { $0.device != nil })
    func deviceCheck(_ expected: Expected) throws {
        let device = try #require(expected.device.flatMap { Data(base64Encoded: $0) })
        let result = try Self.verify(expected.file)
        #expect(result.isVerified)
        let matched = result.verifyingDevice(device)
        #expect(matched.isVerified, "\(String(describing: matched.verificationError))")
        if device.count == 16 {
            let uuid = UUID(uuid: device.withUnsafeBytes { $0.loadUnaligned(as: uuid_t.self) })
            #expect(result.verifyingDevice(uuid).isVerified)
        }
        var other = device
        other[0] ^= 0x01
        let mismatched = result.verifyingDevice(other)
        guard case .unverified(_, .invalidDeviceVerification) = mismatched else {
            Issue.record("expected invalidDeviceVerification, got \(mismatched)")
            return
        }
        #expect(result.verifyingDevice(UUID()).verificationError?.code == .invalidDeviceVerification)
    }

    @Test("the second sandbox receipt verifies and says ProductionSandbox; Mac receipts say Production")
    func receiptTypes() throws {
        let sandbox = try Self.verify("mindnode_ios_michaelsandbox_receipt2.b64", .init(bundleId: "com.mindnode.mindnodetouch", environment: .sandbox))
        #expect(sandbox.isVerified, "\(String(describing: sandbox.verificationError))")
        #expect(sandbox.unsafePayloadValue.receiptType == "ProductionSandbox")
        #expect(sandbox.unsafePayloadValue.environment == .sandbox)
        let mac = try Self.verify("hannes_mac_mindnode_receipt")
        #expect(mac.unsafePayloadValue.environment == .production)
    }

    @Test("bundle ID and environment are checked against the configuration")
    func claims() throws {
        let otherApp = try Self.verify("hannes_mac_mindnode_receipt", .init(bundleId: "com.example.other"))
        #expect(otherApp.verificationError?.code == .invalidAppIdentifier)
        let sandboxOnly = try Self.verify("hannes_mac_mindnode_receipt", .init(environment: .sandbox))
        #expect(sandboxOnly.verificationError?.code == .invalidEnvironment)
        let productionOnly = try Self.verify("mindnode_ios_michaelsandbox_receipt1.b64", .init(appAppleId: 1, environment: .production))
        #expect(productionOnly.verificationError?.code == .invalidEnvironment)
    }

    @Test("a Production receipt's app item ID is checked against the configured app Apple ID; sandbox receipts carry none")
    func appAppleId() throws {
        let unconfigured = try Self.verify("hannes_mac_mindnode_receipt")
        let appItemId = try #require(unconfigured.unsafePayloadValue.appItemId)
        #expect(appItemId > 0)
        #expect(try Self.verify("hannes_mac_mindnode_receipt", .init(appAppleId: appItemId)).isVerified)
        let other = try Self.verify("hannes_mac_mindnode_receipt", .init(appAppleId: appItemId + 1))
        #expect(other.verificationError?.code == .invalidAppIdentifier)
        #expect(other.verificationError?.message.contains("\(appItemId)") == true)
        // A sandbox receipt has app item ID 0: not refused for it (apps in review have no Apple ID yet).
        let sandbox = try Self.verify("mindnode_ios_michaelsandbox_receipt2.b64", .init(appAppleId: 1, environment: .sandbox))
        #expect(sandbox.isVerified, "\(String(describing: sandbox.verificationError))")
    }

    @Test("an unrelated root (frank4dd), or the JWS root G3, does not anchor a real receipt")
    func wrongRoot() throws {
        let frank = try TrustedRoot(derEncoded: Self.bytes("frank4dd-cacert.der"))
        let result = try Self.verify("hannes_mac_mindnode_2_receipt", .init(trustedReceiptRoots: [frank]))
        #expect(result.verificationError?.code == .invalidCertificateChain)
        let g3 = try Self.verify("hannes_mac_mindnode_2_receipt", .init(trustedReceiptRoots: [.appleRootCAG3]))
        #expect(g3.verificationError?.code == .invalidCertificateChain)
    }

    @Test("a receipt given as base64 text, with line breaks, verifies like its bytes")
    func base64Text() throws {
        let der = try Self.bytes("hannes_mac_mindnode_2_receipt")
        let text = der.base64EncodedString(options: [.lineLength64Characters, .endLineWithLineFeed])
        let verifier = try SignedDataVerifier()
        #expect(try verifier.verifyAppReceipt(text).isVerified)
        #expect(try verifier.verifyAppReceipt(Data(text.utf8)).isVerified)
        #expect(try verifier.verifyAppReceipt(text) == (try verifier.verifyAppReceipt(der)))
    }

    @Test("not_a_receipt and the plist-format transaction receipt throw clear decoding errors")
    func notReceipts() throws {
        let verifier = try SignedDataVerifier()
        let notAReceipt = try Self.bytes("not_a_receipt")
        #expect {
            try verifier.verifyAppReceipt(notAReceipt)
        } throws: { error in
            guard let error = error as? SignedDataDecodingError else { return false }
            return error.code == .malformedReceipt && error.message.contains("base64")
        }
        let plist = try TestPaths.text(TestPaths.sharedFile(Self.directory + "deprecatedSinglesTypeExpiredAppleCert_receipt.b64"))
        #expect {
            try verifier.verifyAppReceipt(plist)
        } throws: { error in
            guard let error = error as? SignedDataDecodingError else { return false }
            return error.code == .malformedReceipt && error.message.contains("old-style transaction receipt")
        }
        // DER that is not PKCS#7 at all (a certificate).
        #expect {
            try verifier.verifyAppReceipt(Self.bytes("frank4dd-cacert.der"))
        } throws: { error in
            (error as? SignedDataDecodingError)?.code == .malformedReceipt
        }
    }

    // MARK: - Xcode

    static let xcodeReceipts = ["xcode-app-receipt-empty", "xcode-app-receipt-with-transaction"]

    static func storeKitCertificate() throws -> TrustedRoot {
        try TrustedRoot(derEncoded: Data(contentsOf: TestPaths.sharedFile("apple/StoreKitTestCertificate.cer")))
    }

    @Test("Xcode receipts never verify without the StoreKit certificate", arguments: xcodeReceipts)
    func xcodeWithoutCertificate(_ file: String) throws {
        let text = try TestPaths.text(TestPaths.sharedFile("vectors/apple/xcode/" + file))
        let result = try SignedDataVerifier().verifyAppReceipt(text)
        guard case .unverified(let receipt, .invalidCertificateChain(let reason)) = result else {
            Issue.record("expected an unverified Xcode receipt, got \(result)")
            return
        }
        #expect(receipt.receiptType == "Xcode")
        #expect(reason.contains("xcodeReceiptCertificate"))
        // Trusting the StoreKit certificate as a receipt ROOT does not help: Xcode receipts go
        // through the Xcode rule alone.
        let asRoot = try SignedDataVerifier(configuration: .init(trustedReceiptRoots: [Self.storeKitCertificate()])).verifyAppReceipt(text)
        #expect(!asRoot.isVerified)
    }

    @Test("Xcode receipts verify with the StoreKit certificate configured", arguments: xcodeReceipts)
    func xcodeWithCertificate(_ file: String) throws {
        let text = try TestPaths.text(TestPaths.sharedFile("vectors/apple/xcode/" + file))
        let verifier = try SignedDataVerifier(configuration: .init(environment: .xcode, xcodeReceiptCertificate: Self.storeKitCertificate()))
        let result = try verifier.verifyAppReceipt(text)
        #expect(result.isVerified, "\(String(describing: result.verificationError))")
        let receipt = result.unsafePayloadValue
        #expect(receipt.environment == .xcode)
        #expect(receipt.receiptCreationDate != nil)
        if file.hasSuffix("with-transaction") {
            #expect(receipt.inApp.count >= 1)
            #expect(try result.transactionId != nil)
        } else {
            #expect(receipt.inApp.isEmpty)
            #expect(try result.transactionId == nil)
        }
    }

    @Test("the JWS Xcode certificate option refuses the RSA StoreKit certificate, and the receipt option a non-RSA one")
    func xcodeCertificateKinds() throws {
        #expect(throws: VerifierConfigurationError.self) {
            try SignedDataVerifier(configuration: .init(xcodeCertificate: Self.storeKitCertificate()))
        }
        #expect(throws: VerifierConfigurationError.self) {
            try SignedDataVerifier(configuration: .init(xcodeReceiptCertificate: .appleRootCAG3))
        }
    }
}
