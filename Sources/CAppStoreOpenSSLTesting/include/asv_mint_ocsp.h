// An OCSP responder for tests (RFC 6960), through OpenSSL: reading a DER OCSPRequest (which issuer
// and serial each of its single requests asks about) and building the DER OCSPResponse, a basic
// response signed by the issuing CA's key. Used only by the Testing product's TestOCSPResponder;
// never used to verify.
//
// Same conventions as asv_mint.h: each function clears OpenSSL's error queue when it starts, frees
// every object it allocates on every path, and carries OpenSSL's error strings into `asv_error`.
// Return convention: 1 = success, 0 = a refused argument or request (the reason is in `err`),
// -1 = OpenSSL failed internally (the reason is in `err`). Buffers returned through
// `uint8_t **out` are allocated by OpenSSL: free them with asv_mint_buffer_free.
#ifndef ASV_MINT_OCSP_H
#define ASV_MINT_OCSP_H

#include <stddef.h>
#include <stdint.h>

#include "asv_error.h"

#ifdef __cplusplus
extern "C" {
#endif

/// The room a serial number takes as hexadecimal text: RFC 5280 allows 20 octets (40 digits); a
/// sign and the NUL fit too, with room to spare for longer non-conforming serials.
#define ASV_MINT_OCSP_SERIAL_CAPACITY 96

/// The most single requests one request may hold for asv_mint_ocsp_read_request.
#define ASV_MINT_OCSP_MAX_QUERIES 16

/// One single request (a CertID) of an OCSP request, as the responder reads it.
typedef struct asv_mint_ocsp_query {
    /// The index in the `issuers` given to asv_mint_ocsp_read_request of the certificate
    /// whose name hash and key hash the CertID carries (under the CertID's own hash algorithm), or
    /// -1 when it is none of them.
    long issuer_index;
    /// The serial number asked about, as uppercase hexadecimal (OpenSSL's BN_bn2hex), NUL-terminated.
    char serial_hex[ASV_MINT_OCSP_SERIAL_CAPACITY];
} asv_mint_ocsp_query;

/// Reads `length` bytes of a DER OCSPRequest and, for each of its single requests in order, which
/// of `issuers` issued the certificate asked about and its serial number. `queries` has room for
/// `capacity` entries; `*count` is set to the number written.
///
/// 1 on success; 0 when the bytes are not exactly one DER OCSPRequest, or it holds no single
/// request or more than `capacity`, or a CertID names a hash algorithm OpenSSL does not know
/// (reason in err); -1 when OpenSSL fails internally.
int asv_mint_ocsp_read_request(const void *der, size_t length, X509 *const *issuers, size_t issuer_count,
                                    asv_mint_ocsp_query *queries, size_t capacity, size_t *count, asv_error *err);

/// What a request about `certificate` would ask: into `query`, the index in `issuers` of the
/// certificate that issued it (its subject is `certificate`'s issuer name and, when `certificate`
/// names its authority key identifier, its key matches; the signature is not checked), or -1 when
/// none did, and its serial number as asv_mint_ocsp_read_request writes it. 1, or -1 when the
/// serial cannot be read or does not fit.
int asv_mint_ocsp_identify(X509 *certificate, X509 *const *issuers, size_t issuer_count, asv_mint_ocsp_query *query,
                                asv_error *err);

/// The status the responder gives one single request.
typedef struct asv_mint_ocsp_answer {
    /// ASV_OCSP_STATUS_GOOD, ASV_OCSP_STATUS_REVOKED or ASV_OCSP_STATUS_UNKNOWN (asv_ocsp.h).
    int status;
    /// For a revoked certificate: when it was revoked, seconds since 1970.
    int64_t revocation_time;
    /// For a revoked certificate: the CRLReason code (0 ... 10), or -1 for none.
    int revocation_reason;
} asv_mint_ocsp_answer;

/// Answers the DER OCSPRequest `request_der`: a successful OCSPResponse holding a basic response
/// with one SingleResponse per single request, in the request's order, each with the request's own
/// CertID and `answers[i]` (`answer_count` must equal the number of single requests), thisUpdate
/// `this_update` and nextUpdate `next_update` (seconds since 1970; `next_update` 0 for none), the
/// request's nonce echoed when it carries one, signed with SHA-256 by `signer` with `signer_key`
/// (the responder ID is the signer's name; no certificate is included). The DER response is written
/// to a new buffer `*out` of `*out_length` bytes.
///
/// 1 on success; 0 when an argument is refused (the request does not decode, the counts differ, a
/// status or reason is out of range, the key does not match the certificate); -1 when OpenSSL fails
/// internally.
int asv_mint_ocsp_response(const void *request_der, size_t length, const asv_mint_ocsp_answer *answers,
                            size_t answer_count, X509 *signer, EVP_PKEY *signer_key, int64_t this_update,
                            int64_t next_update, uint8_t **out, size_t *out_length, asv_error *err);

/// An unsigned OCSPResponse carrying only the error `responder_status` (ASV_OCSP_RESPONDER_*
/// of asv_ocsp.h other than successful: malformedRequest, internalError, tryLater, sigRequired,
/// unauthorized), DER-encoded into a new buffer `*out` of `*out_length` bytes. 1, 0 for a status
/// that is not an error, or -1.
int asv_mint_ocsp_error_response(int responder_status, uint8_t **out, size_t *out_length, asv_error *err);

#ifdef __cplusplus
}
#endif

#endif
