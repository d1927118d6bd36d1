import AppStoreVerification
import Foundation

extension LineVerifier {
    /// Whether an input line is a base64 app receipt rather than a JWS (see ``Base64ReceiptPrefix``):
    /// a PKCS#7 SignedData header at its start, no dot in it.
    static func looksLikeAppReceipt(_ text: String) -> Bool {
        Base64ReceiptPrefix.matches(text)
    }

    /// Verifies a line as a base64 app receipt.
    func appReceiptOutcome(for text: String) -> Outcome {
        if let onlineVerifier {
            return onlineOutcome(for: text, as: .appReceipt, with: onlineVerifier)
        }
        do {
            return Outcome(try verifier.verifyAppReceipt(text))
        } catch {
            return Outcome(error, kind: .appReceipt)
        }
    }
}

extension Outcome {
    /// The outcome of an app receipt: its payload is the receipt as JSON (``AppReceipt/jsonRepresentation``).
    init(_ result: VerificationResult<AppReceipt>) {
        // Not a JWS payload: the text format renders the receipt from its JSON.
        self.init(verdictOf: result, kind: .appReceipt, payloadData: result.unsafePayloadValue.jsonRepresentation, payload: nil)
    }
}
