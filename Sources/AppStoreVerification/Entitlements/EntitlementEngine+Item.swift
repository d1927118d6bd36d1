extension EntitlementEngine {
    /// One piece of verified (or not) signed data about the customer, as the verifier returned it.
    public enum Item: Sendable, Hashable {
        /// A signed transaction (the app's `jwsRepresentation`, or from the App Store Server API).
        case transaction(VerificationResult<Transaction>)
        /// Signed renewal info.
        case renewalInfo(VerificationResult<RenewalInfo>)
        /// A Server Notification V2; its nested transaction and renewal info are ingested, each
        /// only when its own verification succeeded.
        case notification(VerificationResult<ResponseBodyV2DecodedPayload>)
    }
}
