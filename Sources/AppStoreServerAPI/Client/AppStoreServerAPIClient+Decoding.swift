import AppStoreVerification
import Foundation

extension AppStoreServerAPIClient {
    /// Decodes a 2xx body strictly (RFC 8259, no duplicate member names).
    ///
    /// - Throws: ``AppStoreServerAPIError`` (`malformedResponse`) naming the request and the problem.
    func decode<Body: Decodable>(_ type: Body.Type, from body: Data, of request: APIRequest) throws(AppStoreServerAPIError) -> Body {
        do {
            return try AppStoreJSON.decode(type, from: body)
        } catch {
            throw AppStoreServerAPIError(.malformedResponse, "\(request.summary): the response body is not the JSON Apple documents (\(LogSafeText.escaping(String(describing: error).prefix(300))))")
        }
    }

    /// Encodes a request body as Apple expects (dates as whole milliseconds since 1970).
    func encode(_ body: some Encodable, for summary: String) throws(AppStoreServerAPIError) -> Data {
        do {
            return try RequestDate.makeEncoder().encode(body)
        } catch {
            throw AppStoreServerAPIError(.invalidRequest, "\(summary): the request body cannot be encoded as JSON (\(error))")
        }
    }

    /// Verifies one signed item of a response with ``verifier``.
    ///
    /// A JWS that fails a check comes back `.unverified`; a string that is not a JWS of `Payload`
    /// at all makes the response malformed.
    ///
    /// - Parameter location: where the item is, for messages (`signedTransactions[3]`).
    func verify<Payload: SignedPayload>(_ jws: String, as type: Payload.Type, at location: String,
                                        of request: APIRequest) async throws(AppStoreServerAPIError) -> VerificationResult<Payload> {
        let verifier = self.verifier
        return try await verifying(at: location, of: request) { () async throws(OnlineVerificationError) in try await verifier.verify(jws, as: type) }
    }

    /// Verifies a notification's `signedPayload` and the signed data nested in it.
    func verifyNotification(_ jws: String, at location: String,
                            of request: APIRequest) async throws(AppStoreServerAPIError) -> VerificationResult<ResponseBodyV2DecodedPayload> {
        let verifier = self.verifier
        return try await verifying(at: location, of: request) { () async throws(OnlineVerificationError) in try await verifier.verifyNotification(jws) }
    }

    private func verifying<Payload>(at location: String, of request: APIRequest,
                                    _ body: () async throws(OnlineVerificationError) -> VerificationResult<Payload>) async throws(AppStoreServerAPIError) -> VerificationResult<Payload> {
        do {
            return try await body()
        } catch {
            switch error {
            case .decoding(let decoding):
                throw AppStoreServerAPIError(.malformedResponse, "\(request.summary): \(location) is not signed data of the kind expected (\(decoding.description))")
            case .revocationCheckUnavailable(let unavailable):
                throw AppStoreServerAPIError(.revocationCheckUnavailable, "\(request.summary): \(location) could not be checked for revocation (\(unavailable)); retry later")
            }
        }
    }

    /// Verifies every item of `items` (in order).
    func verifyAll<Payload: SignedPayload>(_ items: [String]?, as type: Payload.Type, at field: String,
                                           of request: APIRequest) async throws(AppStoreServerAPIError) -> [VerificationResult<Payload>] {
        var results: [VerificationResult<Payload>] = []
        for (index, jws) in (items ?? []).enumerated() {
            results.append(try await verify(jws, as: type, at: "\(field)[\(index)]", of: request))
        }
        return results
    }
}
