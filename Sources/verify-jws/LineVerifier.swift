import AppStoreVerification
import Foundation

/// Verifies one input line with the shared verifier.
struct LineVerifier: Sendable {
    let verifier: SignedDataVerifier
    let type: PayloadTypeOption

    func outcome(for text: String) -> Outcome {
        var jws = text
        var kind = type.kind
        if text.hasPrefix("{") {
            // A notification body as Apple POSTs it: {"signedPayload":"..."}.
            guard let body = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any],
                  let signedPayload = body["signedPayload"] as? String
            else {
                return Outcome(SignedDataDecodingError(.malformedJWS, "The line is JSON but not a notification body ({\"signedPayload\":\"...\"}); expected a compact JWS or such a body."), kind: kind)
            }
            jws = signedPayload
            kind = kind ?? .notification
        }
        let resolvedKind = kind ?? SignedPayloadKind(detectingPayloadOf: jws) ?? .transaction
        do {
            switch resolvedKind {
            case .transaction: return Outcome(try verifier.verifyTransaction(jws))
            case .renewalInfo: return Outcome(try verifier.verifyRenewalInfo(jws))
            case .appTransaction: return Outcome(try verifier.verifyAppTransaction(jws))
            case .notification: return notificationOutcome(try verifier.verifyNotification(jws))
            case .realtimeRequest: return Outcome(try verifier.verifyRealtimeRequest(jws))
            }
        } catch {
            return Outcome(error, kind: resolvedKind)
        }
    }

    private func notificationOutcome(_ result: VerificationResult<ResponseBodyV2DecodedPayload>) -> Outcome {
        var outcome = Outcome(result)
        let notification = result.unsafePayloadValue
        if let nested = notification.transactionInfo {
            outcome.nested.append(("signedTransactionInfo", Self.outcome(nested, kind: .transaction)))
        }
        if let nested = notification.renewalInfo {
            outcome.nested.append(("signedRenewalInfo", Self.outcome(nested, kind: .renewalInfo)))
        }
        if let nested = notification.appTransactionInfo {
            outcome.nested.append(("signedAppTransactionInfo", Self.outcome(nested, kind: .appTransaction)))
        }
        return outcome
    }

    private static func outcome<Payload>(_ nested: Result<VerificationResult<Payload>, SignedDataDecodingError>, kind: SignedPayloadKind) -> Outcome {
        switch nested {
        case .success(let result): Outcome(result)
        case .failure(let error): Outcome(error, kind: kind)
        }
    }
}
