import AppStoreVerification
import Foundation

/// Verifies one input line with the shared verifier.
struct LineVerifier: Sendable {
    let verifier: SignedDataVerifier
    let type: PayloadTypeOption
    /// Whether the verifier checks revocation online (through its async entry points).
    var online = false

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
        // Without --type, try the common case first: the verifier recognises a payload of another
        // kind (wrongPayloadType), and the line is then verified as the kind its fields say.
        let guess = kind ?? .transaction
        let first = outcome(for: jws, as: guess)
        if kind == nil, first.errorCode == SignedDataDecodingError.Code.wrongPayloadType.rawValue,
           let detected = SignedPayloadKind(detectingPayloadOf: jws), detected != guess {
            return outcome(for: jws, as: detected)
        }
        return first
    }

    private func outcome(for jws: String, as kind: SignedPayloadKind) -> Outcome {
        if online {
            return onlineOutcome(for: jws, as: kind)
        }
        do {
            switch kind {
            case .transaction: return Outcome(try verifier.verifyTransaction(jws))
            case .renewalInfo: return Outcome(try verifier.verifyRenewalInfo(jws))
            case .appTransaction: return Outcome(try verifier.verifyAppTransaction(jws))
            case .notification: return notificationOutcome(try verifier.verifyNotification(jws))
            case .realtimeRequest: return Outcome(try verifier.verifyRealtimeRequest(jws))
            }
        } catch {
            return Outcome(error, kind: kind)
        }
    }

    func notificationOutcome(_ result: VerificationResult<ResponseBodyV2DecodedPayload>) -> Outcome {
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
