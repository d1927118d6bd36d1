internal import CAppStoreOpenSSL

/// OpenSSL's path validation (`X509_verify_cert`) of leaf → intermediate → an anchor, through the
/// shim: the adapter between the chain policy and the C request/report structures.
enum PathValidation {
    /// What a successful validation found.
    struct Report: Sendable {
        /// The length of the path OpenSSL built, anchor included.
        var chainLength: Int
        /// Bit i set: the path's i-th certificate is the i-th input (leaf, then the intermediate).
        var matchesInput: UInt32
        /// When every certificate of the path is within its validity period (seconds since 1970).
        var validity: Range<Int64>
        /// The same for the path without the leaf.
        var issuersValidity: Range<Int64>

        /// Whether the path's certificate at `position` is the input at that position.
        func matches(_ position: Int) -> Bool { matchesInput & (1 << position) != 0 }
    }

    /// Why a validation failed.
    enum Failure: Error, Sendable {
        /// OpenSSL rejected the path: `reason` groups `x509Error` (X509_V_ERR_*) of the certificate at
        /// `depth` (0 = leaf).
        case rejected(reason: asv_chain_failure, x509Error: Int32, depth: Int32, message: String)
        /// OpenSSL could not run the validation (allocation, ...).
        case internalError(String)
    }

    /// Validates `leaf` → `intermediate` → an anchor of `anchors` at `instant`.
    ///
    /// - Parameters:
    ///   - partialChain: the anchors are already-validated intermediates, not roots (OpenSSL's
    ///     X509_V_FLAG_PARTIAL_CHAIN).
    ///   - strict: OpenSSL's strict X.509 checks (X509_V_FLAG_X509_STRICT).
    static func validate(leaf: X509Certificate, intermediate: X509Certificate, anchors: TrustStore, partialChain: Bool, strict: Bool, at instant: Int64) throws(Failure) -> Report {
        var error = asv_error()
        var report = asv_chain_report()
        let untrusted: [OpaquePointer?] = [intermediate.pointer]
        let status = untrusted.withUnsafeBufferPointer { buffer in
            var request = asv_chain_request(
                store: anchors.pointer, leaf: leaf.pointer, untrusted: buffer.baseAddress, untrusted_count: buffer.count,
                at_time: instant, strict: strict ? 1 : 0, partial_chain: partialChain ? 1 : 0)
            return asv_verify_chain(&request, &report, &error)
        }
        withExtendedLifetime((leaf, intermediate, anchors)) {}
        switch status {
        case 1:
            guard report.valid_from < report.valid_until, report.issuers_valid_from < report.issuers_valid_until else {
                return Report(chainLength: report.chain_length, matchesInput: report.chain_matches_input, validity: 0..<0, issuersValidity: 0..<0)
            }
            return Report(
                chainLength: report.chain_length, matchesInput: report.chain_matches_input,
                validity: report.valid_from..<report.valid_until,
                issuersValidity: report.issuers_valid_from..<report.issuers_valid_until)
        case 0:
            throw .rejected(reason: report.failure, x509Error: report.x509_error, depth: report.depth, message: OpenSSLFailure(error).message)
        default:
            throw .internalError(OpenSSLFailure(error).message)
        }
    }
}
