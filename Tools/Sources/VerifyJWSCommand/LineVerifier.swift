import AppStoreVerification
import Foundation

/// Verifies one input line with the shared verifier.
struct LineVerifier: Sendable {
    let verifier: SignedDataVerifier
    let type: PayloadTypeOption
    /// With `--online`: the verifier that also checks revocation (through its async entry points).
    var onlineVerifier: OnlineSignedDataVerifier? = nil

    /// Whether lines are verified online.
    var online: Bool { onlineVerifier != nil }

    /// The outcome for one input item: a problem the reader found, or the verdict on its text.
    func outcome(for line: InputLine) -> Outcome {
        guard let problem = line.problem else { return outcome(for: line.text) }
        let kind: SignedPayloadKind? = if case .multiLineJSON = problem { type.kind ?? .notification } else { type.kind }
        return Outcome(Self.error(for: problem, at: line), kind: kind)
    }

    /// The error a line the reader could not hand over as it stands is reported with.
    static func error(for problem: InputProblem, at line: InputLine) -> SignedDataDecodingError {
        switch problem {
        case .tooLong(let bytes, let limit):
            SignedDataDecodingError(.inputTooLarge, "The line is \(bytes) bytes; --max-input-bytes is \(limit) (App Store JWS are a few kilobytes). The line was skipped unread; raise --max-input-bytes if it is expected.")
        case .multiLineJSON(let lastLine):
            SignedDataDecodingError(.multiLineJSON, "Lines \(line.lineNumber)-\(lastLine) are one JSON object spread over several lines (a pretty-printed notification body?); verify-jws reads one JSON object per line: compact it first, for example with `jq -c .`.")
        }
    }

    /// The verdict on one line's text: a compact JWS, or a notification body.
    func outcome(for text: String) -> Outcome {
        if type == .appReceipt || (type == .auto && Self.looksLikeAppReceipt(text)) {
            return appReceiptOutcome(for: text)
        }
        var jws = text
        var kind = type.kind
        if text.hasPrefix("{") {
            // A notification body as Apple POSTs it: {"signedPayload":"..."}.
            // The library's strict reader, the same as verifyNotification reads a body with.
            do {
                jws = try ResponseBodyV2(json: text).signedPayload
            } catch {
                return Outcome(error, kind: kind ?? .notification)
            }
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
        if let onlineVerifier {
            return onlineOutcome(for: jws, as: kind, with: onlineVerifier)
        }
        do {
            switch kind {
            case .transaction: return Outcome(try verifier.verifyTransaction(jws))
            case .renewalInfo: return Outcome(try verifier.verifyRenewalInfo(jws))
            case .appTransaction: return Outcome(try verifier.verifyAppTransaction(jws))
            case .notification: return Self.notificationOutcome(try verifier.verifyNotification(jws))
            case .realtimeRequest: return Outcome(try verifier.verifyRealtimeRequest(jws))
            case .appReceipt: return appReceiptOutcome(for: jws)
            }
        } catch {
            return Outcome(error, kind: kind)
        }
    }

    static func notificationOutcome(_ result: VerificationResult<ResponseBodyV2DecodedPayload>) -> Outcome {
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

    private static func outcome<Payload: SignedPayload>(_ nested: Result<VerificationResult<Payload>, SignedDataDecodingError>, kind: SignedPayloadKind) -> Outcome {
        switch nested {
        case .success(let result): Outcome(result)
        case .failure(let error): Outcome(error, kind: kind)
        }
    }
}

extension SignedDataDecodingError.Code {
    /// verify-jws only: a JSON object spread over several input lines.
    static let multiLineJSON = Self(rawValue: "multiLineJSON")
}
