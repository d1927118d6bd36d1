import AppStoreVerification

extension AppStoreServerAPIClient {
    /// How a client verifies every signed item of Apple's answers: offline (signature, chain and
    /// claims), or online (the same and revocation, over OCSP).
    public enum ResponseVerifier: Sendable {
        /// Offline verification with this verifier; configure it with your bundle ID and environment.
        case offline(SignedDataVerifier)
        /// Online verification: every item is also checked for revocation.
        case online(OnlineSignedDataVerifier)

        /// Whether the verifier expects sandbox data (what a client given another base URL paces by).
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
}
