import AppStoreVerification
import Dispatch
import Foundation

extension LineVerifier {
    /// Verifies one line through the verifier's async (online) entry points; the worker thread waits
    /// for the answer, bounded by the verifier's OCSP deadline.
    func onlineOutcome(for jws: String, as kind: SignedPayloadKind, with verifier: OnlineSignedDataVerifier) -> Outcome {
        let box = OutcomeBox()
        let done = DispatchSemaphore(value: 0)
        Task {
            box.outcome = await Self.verifyOnline(jws, as: kind, with: verifier)
            done.signal()
        }
        done.wait()
        return box.outcome ?? Outcome(SignedDataDecodingError(.malformedJWS, "The online verification gave no result."), kind: kind)
    }

    private static func verifyOnline(_ jws: String, as kind: SignedPayloadKind, with verifier: OnlineSignedDataVerifier) async -> Outcome {
        do {
            switch kind {
            case .transaction: return Outcome(try await verifier.verifyTransaction(jws))
            case .renewalInfo: return Outcome(try await verifier.verifyRenewalInfo(jws))
            case .appTransaction: return Outcome(try await verifier.verifyAppTransaction(jws))
            case .notification: return Self.notificationOutcome(try await verifier.verifyNotification(jws))
            case .realtimeRequest: return Outcome(try await verifier.verifyRealtimeRequest(jws))
            case .appReceipt: return Outcome(try await verifier.verifyAppReceipt(jws))
            }
        } catch {
            switch error {
            case .decoding(let decoding): return Outcome(decoding, kind: kind)
            case .revocationCheckUnavailable(let unavailable): return Outcome(unavailable, kind: kind)
            }
        }
    }

    /// The outcome handed from the verifying task to the waiting worker thread (written once, read
    /// after the semaphore).
    private final class OutcomeBox: @unchecked Sendable {
        var outcome: Outcome?
    }
}
