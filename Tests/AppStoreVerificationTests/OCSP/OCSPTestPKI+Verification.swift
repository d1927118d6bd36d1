import Foundation
@testable import AppStoreVerification

/// What the OCSP tests share to verify online against the test PKI.
extension OCSPTestPKI {
    /// Generous time limits except where a test is about timing out: `swift test` runs suites in
    /// parallel on Swift's cooperative pool (two threads on a two-core machine), and CPU-bound suites
    /// can hold both threads for tens of seconds, so a 5 s deadline would measure the other suites,
    /// not the responder.
    static let patientTimeout = Duration.seconds(120)

    /// Online options with `transport`, a per-request `timeout` and twice that overall.
    static func options(_ transport: any OCSPTransport, timeout: Duration = patientTimeout) -> OCSPOptions {
        OCSPOptions(requestTimeout: timeout, overallDeadline: timeout * 2, transport: transport)
    }

    /// The verdict of an online verification of `leaf`'s transaction, or the unavailability thrown.
    func verify(_ leaf: Leaf, _ verifier: OnlineSignedDataVerifier) async throws -> Result<VerificationResult<Transaction>, RevocationCheckUnavailable> {
        do {
            return .success(try await verifier.verifyTransaction(try transaction(leaf)))
        } catch let error as OnlineVerificationError {
            switch error {
            case .revocationCheckUnavailable(let unavailable): return .failure(unavailable)
            case .decoding(let decoding): throw decoding
            }
        }
    }
}
