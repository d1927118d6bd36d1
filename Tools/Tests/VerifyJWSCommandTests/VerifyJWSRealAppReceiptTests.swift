import AppStoreVerificationTestSupport
import AppStoreVerification
import Foundation
import Testing

/// The real Apple-signed receipts of `../shared` piped through `verify-jws --type app-receipt`, one
/// process for all of them per effective date: the tool prints, for every receipt, the library's
/// verdict and the library's reading of it (which the root package's RealAppReceiptTests check
/// against the receipts' published expectations).
@Suite("verify-jws on real app receipts", .enabled(if: TestPaths.sharedIsPresent, sharedAbsentComment))
struct VerifyJWSRealAppReceiptTests {
    /// The real PKCS#7 receipts (`.b64` files hold base64 text, the others DER).
    static let files = [
        "grandUnifiedExpiredAppleCert_receipt.b64", "hannes_mac_mindnode_2_receipt", "mac_mindnode_rebought_receipt",
        "hannes_mac_mindnode_receipt", "mindnode_ios_michaelsandbox_receipt1.b64", "purchasing_experiments_sandbox_receipt.b64",
        "mindnode_mac_sha256_receipt", "mindnode_ios_michaelsandbox_receipt2.b64",
    ]

    static func der(_ file: String) throws -> Data {
        let bytes = try Data(contentsOf: TestPaths.sharedFile("vectors/receipts/appreceiptvalidator/" + file))
        guard file.hasSuffix(".b64") else { return bytes }
        return try #require(Data(base64Encoded: String(decoding: bytes, as: UTF8.self).filter { !$0.isWhitespace }), "\(file) is not base64")
    }

    static func input() throws -> Data {
        Data((try files.map { try der($0).base64EncodedString() }.joined(separator: "\n") + "\n").utf8)
    }

    /// The library's verdict on `file`: status, error, and the receipt's JSON.
    static func expected(_ file: String, _ configuration: SignedDataVerifier.Configuration) throws -> (status: String, error: VerificationError?, payload: NSDictionary) {
        let result = try SignedDataVerifier(configuration: configuration).verifyAppReceipt(der(file))
        let payload = try #require(JSONSerialization.jsonObject(with: result.unsafePayloadValue.jsonRepresentation) as? NSDictionary)
        return (result.isVerified ? "verified" : "unverified", result.verificationError, payload)
    }

    @Test("every real receipt verifies at its creation date (the default) against the embedded Apple Root CA, its JSON payload the library's")
    func verifiedAtCreationDate() throws {
        let output = try Tool.run(["--type", "app-receipt", "--format", "json"], stdin: Self.input())
        let lines = output.jsonLines
        try #require(lines.count == Self.files.count, "\(output.stdout) \(output.stderr)")
        #expect(output.status == 0, "\(output.stderr)")
        for (file, line) in zip(Self.files, lines) {
            let expected = try Self.expected(file, .init())
            #expect(expected.status == "verified", "\(file): \(String(describing: expected.error))")
            #expect(line["status"] as? String == "verified", "\(file): \(String(describing: line["error"]))")
            #expect(line["type"] as? String == "app-receipt", "\(file)")
            let payload = try #require(line["payload"] as? NSDictionary, "\(file)")
            #expect(payload == expected.payload, "\(file)")
            #expect(payload["bundleId"] is String && payload["receiptCreationDate"] is NSNumber, "\(file)")
        }
    }

    @Test("with --effective-date now every real receipt whose leaf has expired is unverified: invalidCertificateChain")
    func unverifiedNow() throws {
        let output = try Tool.run(["--type", "app-receipt", "--format", "json", "--effective-date", "now"], stdin: Self.input())
        let lines = output.jsonLines
        try #require(lines.count == Self.files.count, "\(output.stdout) \(output.stderr)")
        var expired = 0
        for (file, line) in zip(Self.files, lines) {
            let expected = try Self.expected(file, .init(effectiveDate: .now))
            #expect(line["status"] as? String == expected.status, "\(file)")
            guard let reason = expected.error?.message, reason.contains("expired") else { continue }
            expired += 1
            let error = line["error"] as? [String: Any]
            #expect(error?["code"] as? String == "invalidCertificateChain", "\(file)")
            #expect((error?["message"] as? String)?.contains("expired") == true, "\(file): \(String(describing: error))")
            // The receipt is still decoded and shown.
            #expect(line["payload"] as? NSDictionary == expected.payload, "\(file)")
        }
        // Every leaf here expired long ago (2015–2024).
        #expect(expired > 0)
        #expect(output.status == (expired == 0 ? 0 : 1))
    }
}
