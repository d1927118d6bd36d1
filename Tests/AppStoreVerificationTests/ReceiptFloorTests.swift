@testable import AppStoreVerification
import AppStoreVerificationBenchmarkSupport
import Foundation
import Testing

@Suite("Receipt benchmark floor")
struct ReceiptFloorTests {
    @Test("the floor's operations verify a valid receipt and refuse a tampered one")
    func floor() throws {
        let valid = try Data(contentsOf: TestPaths.testVector("receipts/valid-sha256.der"))
        let floor = try RawReceiptVerificationFloor(receipt: valid)
        #expect(floor.verifyReceiptSignature())
        #expect(floor.verifyLeafCertificateSignature())
        let tampered = try RawReceiptVerificationFloor(receipt: Data(contentsOf: TestPaths.testVector("receipts/tampered-content.der")))
        #expect(!tampered.verifyReceiptSignature())
        let impostor = try RawReceiptVerificationFloor(receipt: Data(contentsOf: TestPaths.testVector("receipts/impostor-intermediate.der")))
        #expect(impostor.verifyLeafCertificateSignature())
        let wrongIssuer = try RawReceiptVerificationFloor(receipt: Data(contentsOf: TestPaths.testVector("receipts/leaf-signed-by-root.der")))
        #expect(!wrongIssuer.verifyLeafCertificateSignature())
    }
}
