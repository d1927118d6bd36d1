// OCSP through OpenSSL: see include/asv_ocsp.h for the contract of each function.
#include "asv_internal.h"
#include "asv_ocsp.h"

#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include <openssl/err.h>
#include <openssl/ocsp.h>
#include <openssl/x509.h>
#include <openssl/x509_vfy.h>
#include <openssl/x509v3.h>

// MARK: - Responder URL

int asv_ocsp_responder_url(const X509 *certificate, char *buffer, size_t capacity, asv_error *err) {
    asv_error_begin(err);
    if (capacity > 0) {
        buffer[0] = '\0';
    }
    STACK_OF(OPENSSL_STRING) *urls = X509_get1_ocsp((X509 *)certificate);
    if (urls == NULL) {
        ERR_clear_error();
        return 0;
    }
    const char *chosen = NULL;
    for (int i = 0; i < sk_OPENSSL_STRING_num(urls); i++) {
        const char *url = sk_OPENSSL_STRING_value(urls, i);
        if (url == NULL) {
            continue;
        }
        if (chosen == NULL) {
            chosen = url;
        }
        if (strncmp(url, "http://", 7) == 0) {
            chosen = url;
            break;
        }
    }
    int result = 0;
    if (chosen != NULL) {
        size_t length = strlen(chosen);
        if (length + 1 > capacity) {
            asv_error_fail(err, "the certificate's OCSP responder URL is %zu bytes, longer than %zu", length,
                      capacity == 0 ? 0 : capacity - 1);
            result = -1;
        } else {
            memcpy(buffer, chosen, length + 1);
            result = 1;
        }
    }
    X509_email_free(urls);
    ERR_clear_error();
    return result;
}

// MARK: - Request

int asv_ocsp_request_der(const asv_ocsp_request *request, uint8_t *out, size_t capacity,
                         size_t *out_length, asv_error *err) {
    asv_error_begin(err);
    *out_length = 0;
    int result = -1;
    OCSP_REQUEST *ocsp_request = NULL;
    OCSP_CERTID *id = NULL;
    unsigned char *der = NULL;

    if (request == NULL || request->certificate == NULL || request->issuer == NULL) {
        asv_error_fail(err, "an OCSP request needs the certificate and its issuer");
        goto done;
    }
    if (request->nonce_length > INT_MAX) {
        asv_error_fail(err, "the nonce is too long");
        goto done;
    }
    ocsp_request = OCSP_REQUEST_new();
    // A SHA-1 CertID (NULL digest), as RFC 5019 and Apple's responders expect.
    id = OCSP_cert_to_id(NULL, request->certificate, request->issuer);
    if (ocsp_request == NULL || id == NULL) {
        asv_error_fail(err, "cannot build the OCSP CertID");
        goto done;
    }
    if (OCSP_request_add0_id(ocsp_request, id) == NULL) {
        asv_error_fail(err, "cannot add the CertID to the OCSP request");
        goto done;
    }
    id = NULL; // owned by the request now
    if (request->nonce != NULL && request->nonce_length > 0
        && OCSP_request_add1_nonce(ocsp_request, (unsigned char *)request->nonce, (int)request->nonce_length) != 1) {
        asv_error_fail(err, "cannot add the nonce to the OCSP request");
        goto done;
    }
    int length = i2d_OCSP_REQUEST(ocsp_request, &der);
    if (length <= 0 || der == NULL) {
        asv_error_fail(err, "cannot encode the OCSP request");
        goto done;
    }
    *out_length = (size_t)length;
    if ((size_t)length > capacity) {
        asv_error_fail(err, "the OCSP request is %d bytes, more than the %zu-byte buffer", length, capacity);
        goto done;
    }
    memcpy(out, der, (size_t)length);
    result = 1;

done:
    OPENSSL_free(der);
    OCSP_CERTID_free(id);
    OCSP_REQUEST_free(ocsp_request);
    ERR_clear_error();
    return result;
}

// MARK: - Response

const char *asv_ocsp_reason_name(int32_t reason) {
    switch (reason) {
    case 0: return "unspecified";
    case 1: return "keyCompromise";
    case 2: return "cACompromise";
    case 3: return "affiliationChanged";
    case 4: return "superseded";
    case 5: return "cessationOfOperation";
    case 6: return "certificateHold";
    case 8: return "removeFromCRL";
    case 9: return "privilegeWithdrawn";
    case 10: return "aACompromise";
    default: return "unspecified";
    }
}

// The layout of asv_ocsp_report does not depend on the enums: each is as wide as an int32_t.
_Static_assert(sizeof(asv_ocsp_failure) == sizeof(int32_t), "asv_ocsp_failure is not 32 bits wide");
_Static_assert(sizeof(asv_ocsp_responder_status) == sizeof(int32_t), "asv_ocsp_responder_status is not 32 bits wide");
_Static_assert(sizeof(asv_ocsp_cert_status) == sizeof(int32_t), "asv_ocsp_cert_status is not 32 bits wide");

/// Marks the response as not a usable answer for `failure` (the message is already in `err`);
/// returns 0, a definite "not a usable answer".
static int ocsp_refuse(asv_ocsp_report *report, asv_ocsp_failure failure) {
    report->failure = failure;
    report->cert_status = ASV_OCSP_STATUS_NONE;
    return 0;
}

/// The SingleResponse that answers the CertID asked about. The times are borrowed from the basic
/// response they were found in.
typedef struct ocsp_answer {
    /// V_OCSP_CERTSTATUS_*.
    int status;
    /// The CRLReason code of a revoked certificate, or -1.
    int reason;
    ASN1_GENERALIZEDTIME *revoked_at;
    ASN1_GENERALIZEDTIME *this_update;
    ASN1_GENERALIZEDTIME *next_update;
} ocsp_answer;

// Each step below returns 1 when the response passes it, 0 when it refuses the response (the
// reason in `report->failure` and `err`), -1 on an internal error (the reason in `err`); each frees
// what it allocates before it returns.

/// Step 1, parse: exactly one DER OCSPResponse, with status successful (the other statuses are
/// unsigned), holding a basic response. On 1, `*out` receives the basic response, which the caller
/// frees; otherwise `*out` is NULL.
static int ocsp_parse(const asv_ocsp_check *check, asv_ocsp_report *report, OCSP_BASICRESP **out,
                      asv_error *err) {
    *out = NULL;
    if (check->response == NULL || check->response_length == 0 || check->response_length > (size_t)LONG_MAX) {
        asv_error_fail(err, "the OCSP response is empty");
        return ocsp_refuse(report, ASV_OCSP_ERR_MALFORMED);
    }
    const unsigned char *cursor = check->response;
    OCSP_RESPONSE *response = d2i_OCSP_RESPONSE(NULL, &cursor, (long)check->response_length);
    if (response == NULL) {
        asv_error_fail(err, "the body is not a DER OCSP response");
        return ocsp_refuse(report, ASV_OCSP_ERR_MALFORMED);
    }

    int result = 0;
    size_t consumed = (size_t)(cursor - (const unsigned char *)check->response);
    if (consumed != check->response_length) {
        asv_error_fail(err, "%zu trailing bytes follow the OCSP response", check->response_length - consumed);
        result = ocsp_refuse(report, ASV_OCSP_ERR_MALFORMED);
        goto done;
    }
    int responder_status = OCSP_response_status(response);
    report->responder_status = (asv_ocsp_responder_status)responder_status;
    if (responder_status != OCSP_RESPONSE_STATUS_SUCCESSFUL) {
        asv_error_fail(err, "the responder answered %s (OCSPResponseStatus %d)",
                       OCSP_response_status_str(responder_status), responder_status);
        result = ocsp_refuse(report, ASV_OCSP_ERR_RESPONDER_STATUS);
        goto done;
    }
    *out = OCSP_response_get1_basic(response); // a copy: it outlives `response`
    if (*out == NULL) {
        asv_error_fail(err, "the response is not a basic OCSP response");
        result = ocsp_refuse(report, ASV_OCSP_ERR_NOT_BASIC);
        goto done;
    }
    result = 1;

done:
    OCSP_RESPONSE_free(response);
    return result;
}

/// Step 2, the signer: the response is signed by the issuer, or by a responder certificate the
/// issuer signed for OCSPSigning. The store holds the issuer alone (a partial chain: the issuer was
/// validated before), at `now`; OCSP_NOEXPLICIT stops OpenSSL from accepting any signer that merely
/// chains to a self-signed certificate in the store, OCSP_TRUSTOTHER is never set.
static int ocsp_verify_signer(const asv_ocsp_check *check, OCSP_BASICRESP *basic, asv_ocsp_report *report,
                              asv_error *err) {
    int result = -1;
    STACK_OF(X509) *issuers = sk_X509_new_null();
    X509_STORE *store = X509_STORE_new();
    if (issuers == NULL || store == NULL || sk_X509_push(issuers, (X509 *)check->issuer) <= 0
        || X509_STORE_add_cert(store, (X509 *)check->issuer) != 1) {
        asv_error_fail(err, "cannot set up the OCSP signature check");
        goto done;
    }
    X509_VERIFY_PARAM *parameters = X509_STORE_get0_param(store);
    X509_VERIFY_PARAM_set_flags(parameters, X509_V_FLAG_PARTIAL_CHAIN);
    X509_VERIFY_PARAM_set_time(parameters, (time_t)check->now);
    if (OCSP_basic_verify(basic, issuers, store, OCSP_NOEXPLICIT) != 1) {
        asv_error_fail(err, "the response's signature or signer is not the issuer's (OCSP_basic_verify)");
        result = ocsp_refuse(report, ASV_OCSP_ERR_SIGNATURE);
        goto done;
    }
    result = 1;

done:
    X509_STORE_free(store);
    sk_X509_free(issuers); // borrowed the issuer: not pop_free
    return result;
}

/// Step 3, the nonce: when the request carried one and the responder echoed one, they are the same.
/// Sets `report->nonce_echoed`.
static int ocsp_match_nonce(const asv_ocsp_check *check, OCSP_BASICRESP *basic, asv_ocsp_report *report,
                            asv_error *err) {
    if (check->nonce == NULL || check->nonce_length == 0) {
        return 1;
    }
    if (check->nonce_length > INT_MAX) {
        asv_error_fail(err, "the nonce is too long");
        return -1;
    }
    int result = -1;
    OCSP_REQUEST *request = OCSP_REQUEST_new();
    if (request == NULL
        || OCSP_request_add1_nonce(request, (unsigned char *)check->nonce, (int)check->nonce_length) != 1) {
        asv_error_fail(err, "cannot rebuild the request's nonce");
        goto done;
    }
    int nonce = OCSP_check_nonce(request, basic);
    if (nonce == 0) {
        asv_error_fail(err, "the response echoes another nonce than the request's (a replayed or misrouted answer)");
        result = ocsp_refuse(report, ASV_OCSP_ERR_NONCE_MISMATCH);
        goto done;
    }
    report->nonce_echoed = nonce == 1;
    result = 1;

done:
    OCSP_REQUEST_free(request);
    return result;
}

/// Step 4, the CertID: the response answers this certificate's CertID exactly once. On 1, `answer`
/// holds that answer.
static int ocsp_match_certid(const asv_ocsp_check *check, OCSP_BASICRESP *basic, ocsp_answer *answer,
                             asv_ocsp_report *report, asv_error *err) {
    OCSP_CERTID *id = OCSP_cert_to_id(NULL, check->certificate, check->issuer);
    if (id == NULL) {
        asv_error_fail(err, "cannot build the OCSP CertID");
        return -1;
    }
    int result = 0;
    if (OCSP_resp_find_status(basic, id, &answer->status, &answer->reason, &answer->revoked_at,
                              &answer->this_update, &answer->next_update) != 1) {
        asv_error_fail(err, "the response holds no status for this certificate (its CertID: another serial number or issuer)");
        result = ocsp_refuse(report, ASV_OCSP_ERR_CERTID_MISMATCH);
        goto done;
    }
    // OCSP_resp_find_status reads the first SingleResponse for the CertID; a response that answers
    // it again (perhaps otherwise: good, then revoked) is contradictory, and no answer is taken from it.
    int first = OCSP_resp_find(basic, id, -1);
    if (first >= 0 && OCSP_resp_find(basic, id, first) >= 0) {
        asv_error_fail(err, "the response answers this certificate's CertID more than once (RFC 6960 gives one SingleResponse per certificate asked about), so no answer can be taken from it");
        result = ocsp_refuse(report, ASV_OCSP_ERR_CERTID_MISMATCH);
        goto done;
    }
    // The same certificate may also be named under another hash algorithm (a SHA-256 CertID beside
    // our SHA-1 one), which OCSP_resp_find, comparing whole CertIDs, does not see: any other
    // SingleResponse for this serial number whose CertID is this certificate's under its own hash
    // algorithm (or under one that cannot be checked) makes the response contradictory too.
    const ASN1_INTEGER *serial = X509_get0_serialNumber(check->certificate);
    int count = OCSP_resp_count(basic);
    for (int i = 0; i < count; i++) {
        if (i == first) {
            continue;
        }
        OCSP_SINGLERESP *single = OCSP_resp_get0(basic, i);
        const OCSP_CERTID *other = single != NULL ? OCSP_SINGLERESP_get0_id(single) : NULL;
        ASN1_OBJECT *algorithm = NULL;
        ASN1_INTEGER *other_serial = NULL;
        if (other == NULL || OCSP_id_get0_info(NULL, &algorithm, NULL, &other_serial, (OCSP_CERTID *)other) != 1 ||
            other_serial == NULL || ASN1_INTEGER_cmp(serial, other_serial) != 0) {
            continue;
        }
        const EVP_MD *md = algorithm != NULL ? EVP_get_digestbyobj(algorithm) : NULL;
        int same = 1;
        if (md != NULL) {
            OCSP_CERTID *under = OCSP_cert_to_id(md, check->certificate, check->issuer);
            if (under == NULL) {
                asv_error_fail(err, "cannot build the OCSP CertID under the response's other hash algorithm");
                result = -1;
                goto done;
            }
            same = OCSP_id_cmp(under, other) == 0;
            OCSP_CERTID_free(under);
        }
        if (same) {
            asv_error_fail(err, "the response also answers this certificate under another hash algorithm (%s)%s, so no answer can be taken from it",
                           md != NULL ? EVP_MD_get0_name(md) : "an unknown one",
                           md != NULL ? "" : " that cannot be checked");
            result = ocsp_refuse(report, ASV_OCSP_ERR_CERTID_MISMATCH);
            goto done;
        }
    }
    result = 1;

done:
    OCSP_CERTID_free(id);
    return result;
}

/// Step 5, the time window: thisUpdate - clock_skew <= now < nextUpdate + clock_skew, or, without
/// nextUpdate, now <= thisUpdate + maximum_age + clock_skew. Fills the report's times (and, for a
/// revoked certificate, its revocation time and reason).
static int ocsp_check_window(const asv_ocsp_check *check, const ocsp_answer *answer, asv_ocsp_report *report,
                             asv_error *err) {
    ASN1_TIME *epoch = ASN1_TIME_set(NULL, 0);
    if (epoch == NULL) {
        asv_error_fail(err, "cannot allocate a time");
        return -1;
    }
    int ok = 1;
    report->this_update = asv_seconds_since_1970(answer->this_update, epoch, &ok);
    if (answer->next_update != NULL) {
        report->next_update = asv_seconds_since_1970(answer->next_update, epoch, &ok);
        report->has_next_update = 1;
    }
    if (answer->status == V_OCSP_CERTSTATUS_REVOKED) {
        report->revocation_time = asv_seconds_since_1970(answer->revoked_at, epoch, &ok);
        report->revocation_reason = answer->reason;
    }
    ASN1_TIME_free(epoch);
    if (!ok) {
        asv_error_fail(err, "the response's times cannot be read");
        return ocsp_refuse(report, ASV_OCSP_ERR_MALFORMED);
    }
    if (report->this_update - check->clock_skew > check->now) {
        asv_error_fail(err, "the response's thisUpdate is in the future");
        return ocsp_refuse(report, ASV_OCSP_ERR_NOT_YET_VALID);
    }
    if (report->has_next_update ? report->next_update + check->clock_skew <= check->now
                                : report->this_update + check->maximum_age + check->clock_skew < check->now) {
        asv_error_fail(err, report->has_next_update ? "the response's nextUpdate has passed"
                                                    : "the response has no nextUpdate and its thisUpdate is too old");
        return ocsp_refuse(report, ASV_OCSP_ERR_EXPIRED);
    }
    return 1;
}

int asv_ocsp_check_response(const asv_ocsp_check *check, asv_ocsp_report *report, asv_error *err) {
    asv_error_begin(err);
    memset(report, 0, sizeof(*report));
    report->failure = ASV_OCSP_ERR_MALFORMED;
    report->responder_status = ASV_OCSP_RESPONDER_NONE;
    report->cert_status = ASV_OCSP_STATUS_NONE;
    report->revocation_reason = -1;

    if (check == NULL || check->certificate == NULL || check->issuer == NULL || check->clock_skew < 0
        || check->maximum_age < 0) {
        asv_error_fail(err, "an OCSP check needs the certificate, its issuer and a non-negative skew and age");
        ERR_clear_error();
        return -1;
    }

    OCSP_BASICRESP *basic = NULL;
    ocsp_answer answer = {.status = -1, .reason = -1};
    int result = ocsp_parse(check, report, &basic, err);
    if (result == 1) {
        result = ocsp_verify_signer(check, basic, report, err);
    }
    if (result == 1) {
        result = ocsp_match_nonce(check, basic, report, err);
    }
    if (result == 1) {
        result = ocsp_match_certid(check, basic, &answer, report, err);
    }
    if (result == 1) {
        result = ocsp_check_window(check, &answer, report, err);
    }
    if (result == 1) {
        if (answer.status != V_OCSP_CERTSTATUS_GOOD && answer.status != V_OCSP_CERTSTATUS_REVOKED
            && answer.status != V_OCSP_CERTSTATUS_UNKNOWN) {
            asv_error_fail(err, "the response gives an unknown certificate status %d", answer.status);
            result = ocsp_refuse(report, ASV_OCSP_ERR_MALFORMED);
        } else {
            report->failure = ASV_OCSP_OK;
            report->cert_status = (asv_ocsp_cert_status)answer.status;
        }
    }
    OCSP_BASICRESP_free(basic); // the times in `answer` point into it: freed last
    ERR_clear_error();
    return result;
}
