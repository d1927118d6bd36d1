#if ServerAPIClient
import AppStoreVerification

/// The verifier a client checks every signed item of a response with: offline, or online (with
/// revocation checks), as the caller built it.
enum ResponseVerifier: Sendable {
    case offline(SignedDataVerifier)
    case online(OnlineSignedDataVerifier)

    /// Whether the verifier expects sandbox data (what a client given a base URL paces by).
    var expectsSandbox: Bool {
        switch self {
        case .offline(let verifier): verifier.configuration.environment == .sandbox
        case .online(let verifier): verifier.configuration.environment == .sandbox
        }
    }

    /// `jws` verified as `Payload`; offline failures to decode are reported as online ones.
    func verify<Payload: SignedPayload>(_ jws: String, as type: Payload.Type) async throws(OnlineVerificationError) -> VerificationResult<Payload> {
        switch self {
        case .offline(let verifier):
            do { return try verifier.verify(jws, as: type) } catch { throw .decoding(error) }
        case .online(let verifier):
            return try await verifier.verify(jws, as: type)
        }
    }

    /// A notification's `signedPayload` verified with its nested signed data.
    func verifyNotification(_ jws: String) async throws(OnlineVerificationError) -> VerificationResult<ResponseBodyV2DecodedPayload> {
        switch self {
        case .offline(let verifier):
            do { return try verifier.verifyNotification(jws) } catch { throw .decoding(error) }
        case .online(let verifier):
            return try await verifier.verifyNotification(jws)
        }
    }
}
#endif
