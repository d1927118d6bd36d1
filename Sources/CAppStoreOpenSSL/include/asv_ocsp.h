// OCSP (RFC 6960) through OpenSSL: the responder URL a certificate names, the DER request for a
// (certificate, issuer) pair, and the complete check of a DER response.
//
// The conventions of asv_error.h: each function clears OpenSSL's error queue when it starts, frees
// every object it allocates on every path, and carries OpenSSL's error strings into `asv_error`.
// Return convention: 1 = yes / success, 0 = no / a definite "invalid" verdict (the reason is in the
// report and in `err`), -1 = OpenSSL failed internally (the reason is in `err`).
#ifndef ASV_OCSP_H
#define ASV_OCSP_H

#include <stddef.h>
#include <stdint.h>

#include "asv_error.h"

#ifdef __cplusplus
extern "C" {
#endif

// MARK: - Named results

/// The certificate status a verified response gives (RFC 6960 CertStatus, OpenSSL's
/// V_OCSP_CERTSTATUS_* values; `asv_ocsp_report.cert_status`).
typedef enum asv_ocsp_cert_status {
    /// No status: the response is not a usable answer (`asv_ocsp_report.failure` says why).
    ASV_OCSP_STATUS_NONE = -1,
    ASV_OCSP_STATUS_GOOD = 0,
    ASV_OCSP_STATUS_REVOKED = 1,
    ASV_OCSP_STATUS_UNKNOWN = 2,
} asv_ocsp_cert_status;

/// Why a response is not a usable answer (`asv_ocsp_report.failure`).
typedef enum asv_ocsp_failure {
    /// The response was checked and is a usable answer: see `cert_status`.
    ASV_OCSP_OK = 0,
    /// The bytes are not one DER OCSPResponse (garbage, truncated, trailing bytes).
    ASV_OCSP_ERR_MALFORMED = 1,
    /// The responder answered with a status other than successful (`responder_status` says which);
    /// such answers are not signed.
    ASV_OCSP_ERR_RESPONDER_STATUS = 2,
    /// A successful response that is not a basic OCSP response, or whose basic response does not
    /// decode.
    ASV_OCSP_ERR_NOT_BASIC = 3,
    /// OCSP_basic_verify refused the response: its signature, or its signer (neither the issuer nor
    /// a certificate the issuer signed carrying the OCSPSigning extended key usage).
    ASV_OCSP_ERR_SIGNATURE = 4,
    /// The responder echoed a nonce other than the one the request carried.
    ASV_OCSP_ERR_NONCE_MISMATCH = 5,
    /// The response holds no status for this certificate's CertID (another serial or issuer), or
    /// more than one.
    ASV_OCSP_ERR_CERTID_MISMATCH = 6,
    /// thisUpdate is later than now (beyond the allowed clock skew).
    ASV_OCSP_ERR_NOT_YET_VALID = 7,
    /// nextUpdate is not later than now (beyond the allowed clock skew), or, without nextUpdate,
    /// thisUpdate is older than the maximum age.
    ASV_OCSP_ERR_EXPIRED = 8,
} asv_ocsp_failure;

/// RFC 6960 OCSPResponseStatus values (`asv_ocsp_report.responder_status`).
typedef enum asv_ocsp_responder_status {
    /// No status: the bytes did not decode as an OCSPResponse.
    ASV_OCSP_RESPONDER_NONE = -1,
    ASV_OCSP_RESPONDER_SUCCESSFUL = 0,
    ASV_OCSP_RESPONDER_MALFORMED_REQUEST = 1,
    ASV_OCSP_RESPONDER_INTERNAL_ERROR = 2,
    ASV_OCSP_RESPONDER_TRY_LATER = 3,
    ASV_OCSP_RESPONDER_SIG_REQUIRED = 5,
    ASV_OCSP_RESPONDER_UNAUTHORIZED = 6,
} asv_ocsp_responder_status;

// MARK: - Responder URL

/// Copies into `buffer` the OCSP responder URL named by the certificate's Authority Information
/// Access extension: the first `http://` one, else the first of any scheme (so that the caller can
/// say what it found). Returns 1 when one was copied, 0 when the certificate names none, -1 when
/// it does not fit in `capacity` bytes (NUL included) or cannot be read.
int asv_ocsp_responder_url(const X509 *certificate, char *buffer, size_t capacity, asv_error *err);

// MARK: - Request

/// What to ask a responder about.
typedef struct asv_ocsp_request {
    /// The certificate whose status is asked.
    const X509 *certificate;
    /// The certificate that issued it (its name and key hash make the CertID).
    const X509 *issuer;
    /// A nonce to include (id-pkix-ocsp-nonce), or NULL for none.
    const void *nonce;
    size_t nonce_length;
} asv_ocsp_request;

/// Writes the DER OCSPRequest for `request` (one CertID, SHA-1 as Apple's responders expect, and
/// the nonce if any) into `out`. `*out_length` receives the length; when `capacity` is too small,
/// `*out_length` receives the length needed and the function returns -1. Returns 1 on success.
int asv_ocsp_request_der(const asv_ocsp_request *request, uint8_t *out, size_t capacity,
                         size_t *out_length, asv_error *err);

// MARK: - Response

/// A response to check, and what it answers.
typedef struct asv_ocsp_check {
    /// The certificate whose status was asked.
    const X509 *certificate;
    /// Its issuer: the response must be signed by it, or by a responder certificate it issued that
    /// carries the OCSPSigning extended key usage.
    const X509 *issuer;
    /// The DER OCSPResponse as received.
    const void *response;
    size_t response_length;
    /// The nonce the request carried, or NULL. A response that echoes a nonce must echo this one; a
    /// response that echoes none is accepted (responders that pre-sign their answers do not echo).
    const void *nonce;
    size_t nonce_length;
    /// The current time, seconds since 1970: the responder's certificate must be valid then, and
    /// thisUpdate - clock_skew <= now < nextUpdate + clock_skew.
    int64_t now;
    /// The allowed clock difference with the responder, in seconds (>= 0).
    int64_t clock_skew;
    /// For a response without nextUpdate: the oldest thisUpdate accepted, as an age in seconds.
    int64_t maximum_age;
} asv_ocsp_check;

/// What a response says (filled in as far as the check got).
typedef struct asv_ocsp_report {
    /// ASV_OCSP_OK, or the ASV_OCSP_ERR_* reason the response is not a usable answer.
    asv_ocsp_failure failure;
    /// The response's OCSPResponseStatus (ASV_OCSP_RESPONDER_*), or ASV_OCSP_RESPONDER_NONE (-1)
    /// when it did not decode.
    asv_ocsp_responder_status responder_status;
    /// ASV_OCSP_STATUS_GOOD / REVOKED / UNKNOWN when `failure` is ASV_OCSP_OK, else
    /// ASV_OCSP_STATUS_NONE (-1).
    asv_ocsp_cert_status cert_status;
    /// For a revoked certificate: the CRLReason code (0 unspecified, 1 keyCompromise, ...), or -1
    /// when the response gives none.
    int32_t revocation_reason;
    /// For a revoked certificate: the revocation time, seconds since 1970.
    int64_t revocation_time;
    /// The response's thisUpdate, seconds since 1970.
    int64_t this_update;
    /// The response's nextUpdate, seconds since 1970, when `has_next_update` is 1.
    int64_t next_update;
    int32_t has_next_update;
    /// 1 when the responder echoed the request's nonce.
    int32_t nonce_echoed;
} asv_ocsp_report;

/// Checks `check->response` completely: a DER OCSPResponse with status successful, a basic
/// response whose signature OCSP_basic_verify accepts against the issuer alone (the issuer itself,
/// or a delegated responder certificate the issuer signed with the OCSPSigning extended key usage;
/// no other trust), the nonce when echoed, a SingleResponse for exactly this certificate's CertID,
/// and thisUpdate <= now < nextUpdate within the clock skew.
///
/// Returns 1 when the response is a usable answer (`report->cert_status` says good, revoked or
/// unknown), 0 when it is not (`report->failure` says why, `err` says it in words), -1 on an
/// internal error.
int asv_ocsp_check_response(const asv_ocsp_check *check, asv_ocsp_report *report, asv_error *err);

/// The RFC 5280 name of a CRLReason code ("keyCompromise", ...), or "unspecified" for an unknown code.
const char *asv_ocsp_reason_name(int32_t reason);

#ifdef __cplusplus
}
#endif

#endif
