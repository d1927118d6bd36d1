import AppStoreVerification
import AppStoreVerificationTesting
import Foundation
import FuzzSupport
@testable import VerifyJWSCommand

/// Fuzzing past the signature: every input is a payload that a test PKI shaped like Apple's (the
/// Testing product's, minted in process for the run) signs before it is verified, so the claims
/// checks, the model decoders, the nested notification data, the entitlement engine and the
/// command-line tool's two output formats (its own renderers, from its `VerifyJWSCommand` library) see data
/// whose signature holds.
///
/// The first byte chooses the kind (transaction, renewal info, app transaction, notification,
/// realtime request, app receipt); the rest is the payload, signed exactly as given (a receipt's
/// payload as the PKCS#7 content). A notification's `data.signedTransactionInfo` /
/// `signedRenewalInfo` and `appData.signedAppTransactionInfo` are signed data of their own: the
/// second byte, when odd, has the target sign the payload once more as that nested data, so nested
/// verification runs on fuzzed data too.
private let fixture: (minter: SignedDataMinter, verifier: SignedDataVerifier)? = {
    guard let pki = try? TestPKI(), let minter = try? SignedDataMinter(pki: pki) else { return nil }
    var configuration = pki.verifierConfiguration()
    // Now, not signedDate: fuzzed dates must not stop the data at the chain check.
    configuration.effectiveDate = .now
    configuration.chainCacheCapacity = 8
    guard let verifier = try? SignedDataVerifier(configuration: configuration) else { return nil }
    return (minter, verifier)
}()

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
    guard let (minter, verifier) = fixture else { failSetUp("FuzzSignedPayload: the Testing product could not make its PKI") }
    let bytes = UnsafeBufferPointer(start: start, count: count)
    let kind = bytes[0] % 6
    var payload = Data(bytes.dropFirst(2))
    if kind == 5 {
        // OpenSSL signs no empty content: such an input has no receipt to verify.
        guard let receipt = try? minter.appReceipt(payload: payload) else { return 0 }
        if let result = try? verifier.verifyAppReceipt(receipt) {
            render(Outcome(verdictOf: result, kind: .appReceipt, payloadData: result.unsafePayloadValue.jsonRepresentation, payload: nil))
            _ = result.unsafePayloadValue.appIdentity
        }
        return 0
    }
    if kind == 3, bytes[1] & 1 == 1, let nested = try? minter.sign(payloadJSON: payload) {
        // The notification carries its own payload, signed, as its nested data.
        payload = Data("{\"notificationType\":\"REFUND\",\"data\":{\"signedTransactionInfo\":\"\(nested)\",\"signedRenewalInfo\":\"\(nested)\"},\"appData\":{\"signedAppTransactionInfo\":\"\(nested)\"},\"notificationUUID\":\"u\",\"signedDate\":1}".utf8)
    }
    guard let jws = try? minter.sign(payloadJSON: payload) else { failInvariant("FuzzSignedPayload: signing failed") }
    var engine = EntitlementEngine()
    switch kind {
    case 0:
        if let result = try? verifier.verifyTransaction(jws) {
            check(result)
            _ = engine.ingest(result)
        }
    case 1:
        if let result = try? verifier.verifyRenewalInfo(jws) {
            check(result)
            _ = engine.ingest(result)
        }
    case 2:
        if let result = try? verifier.verifyAppTransaction(jws) { check(result) }
    case 3:
        if let result = try? verifier.verifyNotification(jws) {
            var outcome = Outcome(result)
            let notification = result.unsafePayloadValue
            if case .success(let inner)? = notification.transactionInfo { check(inner); outcome.nested.append(("transaction", Outcome(inner))) }
            if case .success(let inner)? = notification.renewalInfo { check(inner); outcome.nested.append(("renewalInfo", Outcome(inner))) }
            if case .success(let inner)? = notification.appTransactionInfo { check(inner); outcome.nested.append(("appTransaction", Outcome(inner))) }
            render(outcome)
            _ = engine.ingest(result)
        }
    default:
        if let result = try? verifier.verifyRealtimeRequest(jws) { check(result) }
    }
    for instant in [Date(timeIntervalSince1970: 0), Date(), Date(timeIntervalSince1970: 1e12), Date(timeIntervalSince1970: -1e12)] {
        for entitlement in engine.currentEntitlements(at: instant) + engine.statuses(at: instant) {
            _ = String(describing: entitlement)
        }
    }
    return 0
}

/// What a caller does with a result: read its verdict and error, encode the payload as Apple's JSON,
/// describe it, and print it as `verify-jws` does in both formats.
private func check<Payload: SignedPayload>(_ result: VerificationResult<Payload>) {
    let payload = result.unsafePayloadValue
    if let encodable = payload as? any Encodable {
        _ = try? AppStoreJSON.makeEncoder().encode(encodable)
    }
    _ = String(describing: payload)
    _ = (result.isVerified, result.signedDate, result.signedData.count)
    render(Outcome(result))
}

/// Both output formats of `verify-jws`: no error text and no text line may carry a raw control,
/// line-separator or bidi character from the input (a forged line).
private func render(_ outcome: Outcome) {
    let line = InputLine(source: "-", lineNumber: 1, text: "")
    let json = OutputWriter.render(outcome, for: line, format: .json)
    guard json.utf8.last == 0x0A, !json.dropLast().contains("\n") else {
        failInvariant("a JSON verdict spans several lines: \(json.debugDescription)")
    }
    let text = OutputWriter.render(outcome, for: line, format: .text)
    for textLine in text.split(separator: "\n") where textLine.unicodeScalars.contains(where: { LogSafeText.needsEscaping($0) }) {
        failInvariant("a text line carries a raw control character: \(textLine.debugDescription)")
    }
    if let message = outcome.errorMessage, message.unicodeScalars.contains(where: { LogSafeText.needsEscaping($0) }) {
        failInvariant("an error message carries a raw control character: \(message.debugDescription)")
    }
}
