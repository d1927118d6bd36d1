extension SignedDataVerifier {
    /// The synchronous entry points' refusal to wait on the network: with online revocation checks
    /// on, throws `onlineVerificationRequiresAsync`. Every synchronous entry point calls it first,
    /// before it looks at its input (size, encoding, body), so that a configuration error is never
    /// reported as a problem with the data.
    ///
    /// - Parameters:
    ///   - entryPoint: the online entry point to call with `try await verifier.online.` instead, for the message;
    ///   - arguments: how its arguments are written there.
    func refuseSynchronousUseOnline(_ entryPoint: String, arguments: String = "...") throws(SignedDataDecodingError) {
        if revocationChecker != nil {
            throw SignedDataDecodingError(.onlineVerificationRequiresAsync, "Online revocation checks are on (Configuration.revocation), and they wait on the network: call the online entry point instead (try await verifier.online.\(entryPoint)(\(arguments)), which takes the same input types), or build a second verifier with revocation off for synchronous offline verification.")
        }
    }
}
