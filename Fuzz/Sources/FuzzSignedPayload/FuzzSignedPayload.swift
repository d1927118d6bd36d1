@testable import AppStoreVerification
import Foundation
import FuzzSupport

/// Fuzzing past the signature: every input is a payload that the test PKI signs before it is
/// verified, so the claims checks, the model decoders, the nested notification data, the
/// entitlement engine and the printing of results see data whose signature holds.
///
/// The first byte chooses the kind (transaction, renewal info, app transaction, notification,
/// realtime request); the rest is the payload, signed exactly as given. A notification's
/// `data.signedTransactionInfo` / `signedRenewalInfo` and `appData.signedAppTransactionInfo` are
/// signed data of their own: the second byte, when odd, has the target sign the notification's
/// payload once more as the nested transaction, so nested verification runs on fuzzed data too.
///
/// The PKI (P-256, Apple's marker extensions) is minted by `Fuzz/run.sh` with
/// Scripts/make-ocsp-test-pki.sh into the directory named by FUZZ_SIGNING_PKI.
struct SigningPKI {
    let key: SigningKey
    let header: String
    let verifier: SignedDataVerifier

    init?(directory: URL) {
        func der(_ name: String) -> Data? { try? Data(contentsOf: directory.appendingPathComponent("\(name).der")) }
        guard let key = try? SigningKey(contentsOf: directory.appendingPathComponent("fuzz.key")),
              let leaf = der("fuzz"), let intermediate = der("intermediate"), let root = der("root"),
              let trusted = try? TrustedRoot(derEncoded: root),
              // Now, not signedDate: fuzzed dates must not stop the data at the chain check.
              let verifier = try? SignedDataVerifier(configuration: .init(
                  trustedRoots: [trusted], bundleId: "com.example.app", environment: .sandbox,
                  effectiveDate: .now, chainCacheCapacity: 8))
        else { return nil }
        self.key = key
        let x5c = [leaf, intermediate, root].map { "\"\($0.base64EncodedString())\"" }.joined(separator: ",")
        self.header = Base64.encodeURL(Array("{\"alg\":\"ES256\",\"x5c\":[\(x5c)]}".utf8))
        self.verifier = verifier
    }

    func sign(_ payload: [UInt8]) -> String? {
        let input = header + "." + Base64.encodeURL(payload)
        guard let signature = try? key.sign(Array(input.utf8), encoding: .raw) else { return nil }
        return input + "." + Base64.encodeURL(signature)
    }
}

private let pki: SigningPKI? = ProcessInfo.processInfo.environment["FUZZ_SIGNING_PKI"].flatMap { SigningPKI(directory: URL(fileURLWithPath: $0)) }

@main
enum FuzzSignedPayload {
    static func main() {
        runLibFuzzer { data, count in fuzz(data, count) }
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func LLVMFuzzerTestOneInput(_ data: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    fuzz(data, count)
}

private func fuzz(_ data: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    guard let start = data, count >= 2 else { return 0 }
    guard let pki else { failSetUp("FuzzSignedPayload: set FUZZ_SIGNING_PKI to a PKI made by Scripts/make-ocsp-test-pki.sh DIR 1 2 fuzz:3:V") }
    let bytes = UnsafeBufferPointer(start: start, count: count)
    let kind = bytes[0] % 5
    var payload = Array(bytes.dropFirst(2))
    if kind == 3, bytes[1] & 1 == 1, let nested = pki.sign(payload) {
        // The notification carries its own payload, signed, as its nested transaction.
        payload = Array("{\"notificationType\":\"REFUND\",\"data\":{\"signedTransactionInfo\":\"\(nested)\",\"signedRenewalInfo\":\"\(nested)\"},\"appData\":{\"signedAppTransactionInfo\":\"\(nested)\"},\"notificationUUID\":\"u\",\"signedDate\":1}".utf8)
    }
    guard let jws = pki.sign(payload) else { failInvariant("FuzzSignedPayload: signing failed") }
    let verifier = pki.verifier
    var engine = EntitlementEngine()
    switch kind {
    case 0:
        if let result = try? verifier.verifyTransaction(jws) {
            check(result, signed: true)
            _ = engine.ingest(result)
        }
    case 1:
        if let result = try? verifier.verifyRenewalInfo(jws) {
            check(result, signed: true)
            _ = engine.ingest(result)
        }
    case 2:
        if let result = try? verifier.verifyAppTransaction(jws) { check(result, signed: true) }
    case 3:
        if let result = try? verifier.verifyNotification(jws) {
            check(result, signed: true)
            let notification = result.unsafePayloadValue
            if case .success(let inner)? = notification.transactionInfo { check(inner, signed: true) }
            if case .success(let inner)? = notification.renewalInfo { check(inner, signed: true) }
            if case .success(let inner)? = notification.appTransactionInfo { check(inner, signed: true) }
            _ = engine.ingest(result)
        }
    default:
        if let result = try? verifier.verifyRealtimeRequest(jws) { check(result, signed: true) }
    }
    for instant in [Date(timeIntervalSince1970: 0), Date(), Date(timeIntervalSince1970: 1e12), Date(timeIntervalSince1970: -1e12)] {
        for entitlement in engine.currentEntitlements(at: instant) + engine.statuses(at: instant) {
            _ = String(describing: entitlement)
        }
    }
    return 0
}

/// What a caller does with a result: read its verdict and error, encode the payload as Apple's JSON
/// (what `verify-jws --format json` prints) and describe it (what text output and logs show), and
/// every error text must be free of control characters.
private func check<Payload: SignedPayload>(_ result: VerificationResult<Payload>, signed: Bool) {
    if let error = result.verificationError {
        let text = error.description
        if text.unicodeScalars.contains(where: { LogSafeText.needsEscaping($0) }) {
            failInvariant("an error message carries a raw control character: \(text.debugDescription)")
        }
    }
    let payload = result.unsafePayloadValue
    if let encodable = payload as? any Encodable {
        _ = try? AppStoreJSON.makeEncoder().encode(encodable)
    }
    _ = String(describing: payload)
    _ = (result.isVerified, result.signedDate, result.signedData.count)
}
