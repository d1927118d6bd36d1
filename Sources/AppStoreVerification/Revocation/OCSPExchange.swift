internal import CAppStoreOpenSSL
import Foundation

/// One OCSP question about one certificate: the request's bytes, and the judgement of the response
/// through the shim (`asv_ocsp_check_response`).
struct OCSPExchange {
    let subject: RevocationSubject
    let url: URL
    let nonce: [UInt8]?

    /// The DER OCSPRequest, or nil when OpenSSL cannot build it (reason in `failure`).
    func requestBody() -> Result<Data, OpenSSLFailure> {
        var error = asv_error()
        var output = [UInt8](repeating: 0, count: 1024)
        var length = 0
        let built: Int32 = withNonce { noncePointer, nonceLength in
            var request = asv_ocsp_request(certificate: subject.certificate.pointer, issuer: subject.issuer.pointer, nonce: noncePointer, nonce_length: nonceLength)
            return output.withUnsafeMutableBufferPointer { asv_ocsp_request_der(&request, $0.baseAddress, $0.count, &length, &error) }
        }
        withExtendedLifetime(subject) {}
        guard built == 1 else { return .failure(OpenSSLFailure(error)) }
        return .success(Data(output[..<length]))
    }

    /// Judges `body` (a DER OCSPResponse) at `now`.
    func judge(_ body: Data, now: Int64, options: OCSPOptions) -> OCSPOutcome {
        var error = asv_error()
        var report = asv_ocsp_report()
        let verdict: Int32 = body.withUnsafeBytes { response in
            withNonce { noncePointer, nonceLength in
                var check = asv_ocsp_check(
                    certificate: subject.certificate.pointer, issuer: subject.issuer.pointer,
                    response: response.baseAddress, response_length: response.count,
                    nonce: noncePointer, nonce_length: nonceLength,
                    now: now, clock_skew: options.clockSkew.wholeSeconds, maximum_age: options.maximumCacheAge.wholeSeconds)
                return asv_ocsp_check_response(&check, &report, &error)
            }
        }
        withExtendedLifetime(subject) {}
        let detail = OpenSSLFailure(error).message
        let responder = url.absoluteString
        let position = subject.position
        func unavailable(_ reason: RevocationCheckUnavailable.Code, _ sentence: String) -> OCSPOutcome {
            .unavailable(RevocationCheckUnavailable(code: reason, certificate: position, responderURL: responder, message: sentence + " Try again later."))
        }
        guard verdict == 1 else {
            if verdict != 0 {
                return unavailable(.invalidResponse, "The OCSP response from \(responder) about \(position) could not be checked: \(detail).")
            }
            switch report.failure {
            case ASV_OCSP_ERR_RESPONDER_STATUS:
                return unavailable(.responderError, "The OCSP responder \(responder) gave no answer about \(position): \(detail).")
            case ASV_OCSP_ERR_NOT_BASIC:
                // Only a basic response carries a signature this verifier can check (RFC 6960 makes
                // it the one type every responder and client must support); anything else is as
                // unauthenticated as an error status, so it is no answer rather than a verdict.
                return unavailable(.invalidResponse, "The OCSP response from \(responder) about \(position) is not a basic OCSP response (id-pkix-ocsp-basic), the only type this verifier can authenticate: \(detail).")
            case ASV_OCSP_ERR_NONCE_MISMATCH:
                return unavailable(.invalidResponse, "The OCSP response from \(responder) about \(position) answers another request (\(detail)).")
            case ASV_OCSP_ERR_SIGNATURE:
                return .invalid(.invalidCertificateChain("The OCSP response from \(responder) about \(position) is not signed by its issuer (\(subject.issuer.subject)) or a responder the issuer authorised for OCSP signing: \(detail)."))
            case ASV_OCSP_ERR_CERTID_MISMATCH:
                return .invalid(.invalidCertificateChain("The OCSP response from \(responder) does not answer for \(position): \(detail)."))
            case ASV_OCSP_ERR_NOT_YET_VALID:
                return .invalid(.invalidCertificateChain("The OCSP response from \(responder) about \(position) was issued in the future: thisUpdate \(DateText.iso8601(seconds: report.this_update)), now \(DateText.iso8601(seconds: now)) (allowed clock skew \(options.clockSkew.wholeSeconds) s)."))
            case ASV_OCSP_ERR_EXPIRED:
                let until = report.has_next_update == 1 ? "its nextUpdate was \(DateText.iso8601(seconds: report.next_update))" : "it has no nextUpdate and was issued \(DateText.iso8601(seconds: report.this_update))"
                return .invalid(.invalidCertificateChain("The OCSP response from \(responder) about \(position) is stale: \(until), now is \(DateText.iso8601(seconds: now)) (allowed clock skew \(options.clockSkew.wholeSeconds) s)."))
            default:
                return unavailable(.invalidResponse, "The body from \(responder) about \(position) is not a well-formed OCSP response: \(detail).")
            }
        }
        let fetchedAt = now
        var reusableUntil = report.has_next_update == 1 ? report.next_update : fetchedAt
        reusableUntil = min(reusableUntil, fetchedAt + options.maximumCacheAge.wholeSeconds)
        switch report.cert_status {
        case ASV_OCSP_STATUS_GOOD:
            return .answer(OCSPAnswer(status: .good, reusableUntil: reusableUntil))
        case ASV_OCSP_STATUS_REVOKED:
            return .answer(OCSPAnswer(status: .revoked(time: report.revocation_time, reason: report.revocation_reason), reusableUntil: reusableUntil))
        default:
            return .invalid(.invalidCertificateChain("The OCSP responder \(responder) answered \"unknown\" for \(position): it does not vouch for the certificate, so the chain is not trusted."))
        }
    }

    private func withNonce<R>(_ body: (UnsafeRawPointer?, Int) -> R) -> R {
        guard let nonce else { return body(nil, 0) }
        return nonce.withUnsafeBytes { body($0.baseAddress, $0.count) }
    }
}
