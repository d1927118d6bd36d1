import AppStoreVerification
import Foundation
import FuzzSupport

/// One verifier for the whole run, trusting the shipped test PKI and checking at a fixed instant
/// inside its validity, so that seeds from TestVectors/ reach every stage of verification.
private let verifier: SignedDataVerifier? = {
    let root = testVector("pki/root.der")
    guard let der = try? Data(contentsOf: root), let trusted = try? TrustedRoot(derEncoded: der) else { return nil }
    return try? SignedDataVerifier(configuration: .init(
        trustedRoots: [trusted], bundleId: "com.example.app", environment: .sandbox,
        effectiveDate: .signedDate, chainCacheCapacity: 8))
}()

@main
enum FuzzVerify {
    static func main() {
        runLibFuzzer { data, count in fuzz(data, count) }
    }
}

/// The entry point libFuzzer's runtime refers to; the driver above calls the same function.
@_cdecl("LLVMFuzzerTestOneInput")
public func LLVMFuzzerTestOneInput(_ data: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    fuzz(data, count)
}

/// One fuzzing input: the bytes go through every public entry point.
private func fuzz(_ data: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    guard let start = data else { return 0 }
    guard let verifier else {
        failSetUp("FuzzVerify: cannot load TestVectors/pki/root.der")
    }
    let bytes = Data(bytes: start, count: count)
    let text = String(decoding: bytes, as: UTF8.self)
    _ = try? verifier.verifyTransaction(text)
    _ = try? verifier.verifyRenewalInfo(text)
    _ = try? verifier.verifyAppTransaction(text)
    _ = try? verifier.verifyRealtimeRequest(text)
    if let result = try? verifier.verifyNotification(text) {
        // Touch every accessor of the result and its nested results.
        _ = (result.isVerified, result.signedDate, result.headerData.count, result.signedData.count)
        _ = result.unsafePayloadValue.transactionInfo.map { try? $0.get().isVerified }
    }
    _ = try? verifier.verifyNotification(bytes)
    _ = SignedPayloadKind(detectingPayloadOf: text)
    _ = try? TrustedRoot(derEncoded: bytes)
    _ = try? TrustedRoot.roots(pemEncoded: text)
    return 0
}
