import AppStoreVerification
import Foundation
import FuzzSupport

/// One verifier for the whole run, trusting the shipped receipt test PKI (and its StoreKit
/// certificate for Xcode receipts), so that seeds from TestVectors/receipts reach every stage.
private let verifier: SignedDataVerifier? = {
    let vectors = testVector("receipts/pki")
    guard let root = try? Data(contentsOf: vectors.appendingPathComponent("root.der")),
          let storeKit = try? Data(contentsOf: vectors.appendingPathComponent("storekit.der")),
          let trusted = try? TrustedRoot(derEncoded: root), let xcode = try? TrustedRoot(derEncoded: storeKit)
    else { return nil }
    return try? SignedDataVerifier(configuration: .init(
        bundleId: "com.example.app", chainCacheCapacity: 8, trustedReceiptRoots: [trusted], xcodeReceiptCertificate: xcode))
}()

@main
enum FuzzReceipt {
    static func main() {
        runLibFuzzer { data, count in fuzz(data, count) }
    }
}

/// The entry point libFuzzer's runtime refers to; the driver above calls the same function.
@_cdecl("LLVMFuzzerTestOneInput")
public func LLVMFuzzerTestOneInput(_ data: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    fuzz(data, count)
}

/// One fuzzing input: the bytes as a receipt (DER/BER, and as base64 text), and as a bare payload
/// for the strict DER payload decoder, which the signature would otherwise shield.
private func fuzz(_ data: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    guard let start = data else { return 0 }
    guard let verifier else {
        failSetUp("FuzzReceipt: cannot load TestVectors/receipts/pki")
    }
    let bytes = Data(bytes: start, count: count)
    if let result = try? verifier.verifyAppReceipt(bytes) {
        _ = (result.isVerified, result.unsafePayloadValue.jsonRepresentation.count, try? result.transactionId)
        _ = result.verifyingDevice(Data(repeating: 1, count: 6)).isVerified
    }
    _ = try? verifier.verifyAppReceipt(String(decoding: bytes, as: UTF8.self))
    if let receipt = try? AppReceipt(payload: bytes) {
        _ = receipt.jsonRepresentation.count
    }
    return 0
}
