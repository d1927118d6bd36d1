import Hummingbird

/// Counts the verification outcome of the signed data a request carried to `POST /transactions`
/// (kind `transaction`) or `POST /notifications` (kind `notification`): `verified` when the route
/// got past verification, else the reason it refused the data (`invalidSignature`,
/// `malformedJWS`, ...). Requests refused before anything was verified (a body that is not the
/// route's JSON, too large) are not counted.
///
/// It sits inside ``JSONErrorMiddleware`` so that it sees the routes' ``APIError``s.
struct VerificationMetricsMiddleware<Context: RequestContext>: RouterMiddleware {
    let metrics: ServerMetrics

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let kind: String
        switch (request.method, request.uri.path) {
        case (.post, "/transactions"): kind = "transaction"
        case (.post, "/notifications"): kind = "notification"
        default: return try await next(request, context)
        }
        do {
            let response = try await next(request, context)
            if response.status.kind == .successful {
                metrics.recordVerification(kind: kind, outcome: "verified")
            }
            return response
        } catch let error as APIError {
            if let outcome = VerificationOutcome.of(error) {
                metrics.recordVerification(kind: kind, outcome: outcome)
            }
            throw error
        }
    }
}

/// What a route's error answer says about the verification of the data it was sent.
enum VerificationOutcome {
    /// Error codes a route answers after the signed data verified.
    static let codesAfterVerification: Set<String> = [
        "customerConflict", "missingAppAccountToken", "missingOriginalTransactionId", "renewalInfoMismatch", "storageUnavailable",
    ]

    /// Error codes a route answers before verifying anything.
    static let codesBeforeVerification: Set<String> = [
        "invalidBody", "bodyTooLarge", "bodyIncomplete", "unauthorized", "internal",
    ]

    /// The verification outcome an error answer stands for, or `nil` when nothing was verified.
    static func of(_ error: APIError) -> String? {
        if codesAfterVerification.contains(error.code) { return "verified" }
        if codesBeforeVerification.contains(error.code) { return nil }
        if error.code == "unverified" { return error.verificationReason ?? "unverified" }
        // The routes answer a JWS that does not decode with the decoding error's code
        // (malformedJWS, invalidJSON, invalidPayload, wrongPayloadType, inputTooLarge).
        return error.code
    }
}
