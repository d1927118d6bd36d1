// An OCSP responder for tests: see include/asv_mint_ocsp.h for the contract of each function.
#include "asv_error.h"
#include "asv_ocsp.h"
#include "asv_mint_ocsp.h"

#include <limits.h>
#include <string.h>

#include <openssl/asn1.h>
#include <openssl/bn.h>
#include <openssl/crypto.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/objects.h>
#include <openssl/ocsp.h>
#include <openssl/x509.h>

/// Decodes exactly one DER OCSPRequest (no trailing bytes). NULL with the reason in err.
static OCSP_REQUEST *asv_mint_ocsp_decode(const void *der, size_t length, asv_error *err) {
    if (der == NULL || length == 0 || length > (size_t)LONG_MAX) {
        asv_error_fail(err, "the request is empty or too large (%zu bytes)", length);
        return NULL;
    }
    const unsigned char *cursor = der;
    OCSP_REQUEST *request = d2i_OCSP_REQUEST(NULL, &cursor, (long)length);
    if (request == NULL) {
        asv_error_fail(err, "the body is not a DER OCSPRequest");
        return NULL;
    }
    if (cursor != (const unsigned char *)der + length) {
        OCSP_REQUEST_free(request);
        asv_error_fail(err, "the OCSPRequest is followed by %zu more bytes", (size_t)((const unsigned char *)der + length - cursor));
        return NULL;
    }
    return request;
}

/// Writes `serial` as uppercase hexadecimal into `buffer`. 1 or -1.
static int asv_mint_ocsp_serial_text(const ASN1_INTEGER *serial, char *buffer, size_t capacity, asv_error *err) {
    BIGNUM *number = ASN1_INTEGER_to_BN(serial, NULL);
    if (number == NULL) {
        asv_error_fail(err, "cannot read the serial number");
        return -1;
    }
    char *hex = BN_bn2hex(number);
    BN_free(number);
    if (hex == NULL) {
        asv_error_fail(err, "cannot write the serial number as hexadecimal");
        return -1;
    }
    size_t length = strlen(hex);
    int result = 1;
    if (length + 1 > capacity) {
        asv_error_fail(err, "the serial number has %zu hexadecimal digits, more than %zu", length, capacity - 1);
        result = -1;
    } else {
        memcpy(buffer, hex, length + 1);
    }
    OPENSSL_free(hex);
    return result;
}

/// The index in `issuers` of the certificate `id` names as its issuer, -1 for none, or -2 when
/// OpenSSL fails (reason in err).
static long asv_mint_ocsp_find_issuer(OCSP_CERTID *id, const EVP_MD *digest, const ASN1_INTEGER *serial,
                                           X509 *const *issuers, size_t issuer_count, asv_error *err) {
    for (size_t i = 0; i < issuer_count; i++) {
        if (issuers[i] == NULL) {
            continue;
        }
        OCSP_CERTID *candidate = OCSP_cert_id_new(digest, X509_get_subject_name(issuers[i]), X509_get0_pubkey_bitstr(issuers[i]), serial);
        if (candidate == NULL) {
            asv_error_fail(err, "cannot compute the CertID of issuer %zu", i);
            return -2;
        }
        int differs = OCSP_id_issuer_cmp(candidate, id);
        OCSP_CERTID_free(candidate);
        if (differs == 0) {
            return (long)i;
        }
    }
    return -1;
}

int asv_mint_ocsp_read_request(const void *der, size_t length, X509 *const *issuers, size_t issuer_count,
                                    asv_mint_ocsp_query *queries, size_t capacity, size_t *count, asv_error *err) {
    asv_error_begin(err);
    if (count != NULL) {
        *count = 0;
    }
    if (queries == NULL || count == NULL || (issuers == NULL && issuer_count > 0)) {
        asv_error_fail(err, "no room for the queries, or no issuers");
        return 0;
    }
    OCSP_REQUEST *request = asv_mint_ocsp_decode(der, length, err);
    if (request == NULL) {
        return 0;
    }
    int result = 1;
    int singles = OCSP_request_onereq_count(request);
    if (singles <= 0 || (size_t)singles > capacity) {
        asv_error_fail(err, "the request holds %d single requests (this responder answers 1 to %zu)", singles, capacity);
        result = 0;
        goto done;
    }
    for (int i = 0; i < singles; i++) {
        OCSP_CERTID *id = OCSP_onereq_get0_id(OCSP_request_onereq_get0(request, i));
        ASN1_OBJECT *algorithm = NULL;
        ASN1_INTEGER *serial = NULL;
        if (id == NULL || OCSP_id_get0_info(NULL, &algorithm, NULL, &serial, id) != 1 || algorithm == NULL || serial == NULL) {
            asv_error_fail(err, "single request %d has no readable CertID", i + 1);
            result = 0;
            goto done;
        }
        const EVP_MD *digest = EVP_get_digestbyobj(algorithm);
        if (digest == NULL) {
            asv_error_fail(err, "single request %d names a CertID hash algorithm OpenSSL does not know", i + 1);
            result = 0;
            goto done;
        }
        asv_mint_ocsp_query *query = &queries[i];
        query->issuer_index = asv_mint_ocsp_find_issuer(id, digest, serial, issuers, issuer_count, err);
        if (query->issuer_index == -2 ||
            asv_mint_ocsp_serial_text(serial, query->serial_hex, sizeof query->serial_hex, err) != 1) {
            result = -1;
            goto done;
        }
    }
    *count = (size_t)singles;
done:
    OCSP_REQUEST_free(request);
    return result;
}

int asv_mint_ocsp_identify(X509 *certificate, X509 *const *issuers, size_t issuer_count, asv_mint_ocsp_query *query,
                                asv_error *err) {
    asv_error_begin(err);
    if (certificate == NULL || query == NULL || (issuers == NULL && issuer_count > 0)) {
        asv_error_fail(err, "no certificate, no query or no issuers");
        return -1;
    }
    query->issuer_index = -1;
    for (size_t i = 0; i < issuer_count; i++) {
        // X509_check_issued compares names and key identifiers, not signatures.
        if (issuers[i] != NULL && X509_check_issued(issuers[i], certificate) == X509_V_OK) {
            query->issuer_index = (long)i;
            break;
        }
    }
    // X509_check_issued may leave reasons on OpenSSL's queue: the queue is empty when this returns.
    ERR_clear_error();
    return asv_mint_ocsp_serial_text(X509_get0_serialNumber(certificate), query->serial_hex, sizeof query->serial_hex, err);
}

/// Checks one answer's status and reason. 1 or 0 (reason in err).
static int asv_mint_ocsp_check_answer(const asv_mint_ocsp_answer *answer, size_t index, asv_error *err) {
    if (answer->status != ASV_OCSP_STATUS_GOOD && answer->status != ASV_OCSP_STATUS_REVOKED && answer->status != ASV_OCSP_STATUS_UNKNOWN) {
        asv_error_fail(err, "answer %zu has the status %d (expected good 0, revoked 1 or unknown 2)", index + 1, answer->status);
        return 0;
    }
    int reason = answer->revocation_reason;
    if (answer->status == ASV_OCSP_STATUS_REVOKED && (reason < -1 || reason > 10 || reason == 7)) {
        asv_error_fail(err, "answer %zu has the revocation reason %d (expected -1 for none, or a CRLReason 0 ... 10 but 7)", index + 1, reason);
        return 0;
    }
    return 1;
}

/// Adds one SingleResponse per single request of `request` to `basic`. 1, 0 or -1.
static int asv_mint_ocsp_add_statuses(OCSP_BASICRESP *basic, OCSP_REQUEST *request, const asv_mint_ocsp_answer *answers,
                                           size_t answer_count, ASN1_TIME *this_update, ASN1_TIME *next_update, asv_error *err) {
    int singles = OCSP_request_onereq_count(request);
    if (singles <= 0 || (size_t)singles != answer_count) {
        asv_error_fail(err, "the request holds %d single requests but %zu answers were given", singles, answer_count);
        return 0;
    }
    for (int i = 0; i < singles; i++) {
        const asv_mint_ocsp_answer *answer = &answers[i];
        if (asv_mint_ocsp_check_answer(answer, (size_t)i, err) != 1) {
            return 0;
        }
        OCSP_CERTID *id = OCSP_onereq_get0_id(OCSP_request_onereq_get0(request, i));
        ASN1_TIME *revoked_at = NULL;
        int reason = OCSP_REVOKED_STATUS_NOSTATUS;
        if (answer->status == ASV_OCSP_STATUS_REVOKED) {
            revoked_at = ASN1_TIME_set(NULL, (time_t)answer->revocation_time);
            if (revoked_at == NULL) {
                asv_error_fail(err, "cannot encode the revocation time of answer %d", i + 1);
                return -1;
            }
            reason = answer->revocation_reason;
        }
        // Copies the CertID and the times into the basic response.
        OCSP_SINGLERESP *added = id != NULL ? OCSP_basic_add1_status(basic, id, answer->status, reason, revoked_at, this_update, next_update) : NULL;
        ASN1_TIME_free(revoked_at);
        if (added == NULL) {
            asv_error_fail(err, "cannot add the status of single request %d", i + 1);
            return -1;
        }
    }
    return 1;
}

/// DER-encodes `response` into a new OpenSSL buffer. 1 or -1.
static int asv_mint_ocsp_encode(OCSP_RESPONSE *response, uint8_t **out, size_t *out_length, asv_error *err) {
    unsigned char *encoded = NULL;
    int length = i2d_OCSP_RESPONSE(response, &encoded);
    if (length <= 0 || encoded == NULL) {
        OPENSSL_free(encoded);
        asv_error_fail(err, "cannot DER-encode the OCSPResponse");
        return -1;
    }
    *out = encoded;
    *out_length = (size_t)length;
    return 1;
}

int asv_mint_ocsp_response(const void *request_der, size_t length, const asv_mint_ocsp_answer *answers,
                            size_t answer_count, X509 *signer, EVP_PKEY *signer_key, int64_t this_update,
                            int64_t next_update, uint8_t **out, size_t *out_length, asv_error *err) {
    asv_error_begin(err);
    if (out == NULL || out_length == NULL) {
        asv_error_fail(err, "no output buffer");
        return 0;
    }
    *out = NULL;
    *out_length = 0;
    if (answers == NULL || signer == NULL || signer_key == NULL) {
        asv_error_fail(err, "a response needs answers, a signer certificate and its key");
        return 0;
    }
    if (next_update != 0 && next_update <= this_update) {
        asv_error_fail(err, "nextUpdate must be later than thisUpdate");
        return 0;
    }
    int result = -1;
    OCSP_BASICRESP *basic = NULL;
    OCSP_RESPONSE *response = NULL;
    ASN1_TIME *this_time = NULL;
    ASN1_TIME *next_time = NULL;
    OCSP_REQUEST *request = asv_mint_ocsp_decode(request_der, length, err);
    if (request == NULL) {
        return 0;
    }
    basic = OCSP_BASICRESP_new();
    this_time = ASN1_TIME_set(NULL, (time_t)this_update);
    next_time = next_update != 0 ? ASN1_TIME_set(NULL, (time_t)next_update) : NULL;
    if (basic == NULL || this_time == NULL || (next_update != 0 && next_time == NULL)) {
        asv_error_fail(err, "cannot allocate the basic response or its times");
        goto done;
    }
    result = asv_mint_ocsp_add_statuses(basic, request, answers, answer_count, this_time, next_time, err);
    if (result != 1) {
        goto done;
    }
    result = -1;
    // 1: the nonce copied; 2: the request carried none.
    if (OCSP_copy_nonce(basic, request) <= 0) {
        asv_error_fail(err, "cannot echo the request's nonce");
        goto done;
    }
    if (X509_check_private_key(signer, signer_key) != 1) {
        asv_error_fail(err, "the signer's key does not match the signer's certificate");
        result = 0;
        goto done;
    }
    if (OCSP_basic_sign(basic, signer, signer_key, EVP_sha256(), NULL, OCSP_NOCERTS) != 1) {
        asv_error_fail(err, "cannot sign the basic response");
        goto done;
    }
    response = OCSP_response_create(OCSP_RESPONSE_STATUS_SUCCESSFUL, basic);
    if (response == NULL) {
        asv_error_fail(err, "cannot allocate the OCSPResponse");
        goto done;
    }
    result = asv_mint_ocsp_encode(response, out, out_length, err);
done:
    OCSP_RESPONSE_free(response);
    OCSP_BASICRESP_free(basic);
    ASN1_TIME_free(next_time);
    ASN1_TIME_free(this_time);
    OCSP_REQUEST_free(request);
    return result;
}

int asv_mint_ocsp_error_response(int responder_status, uint8_t **out, size_t *out_length, asv_error *err) {
    asv_error_begin(err);
    if (out == NULL || out_length == NULL) {
        asv_error_fail(err, "no output buffer");
        return 0;
    }
    *out = NULL;
    *out_length = 0;
    switch (responder_status) {
    case ASV_OCSP_RESPONDER_MALFORMED_REQUEST:
    case ASV_OCSP_RESPONDER_INTERNAL_ERROR:
    case ASV_OCSP_RESPONDER_TRY_LATER:
    case ASV_OCSP_RESPONDER_SIG_REQUIRED:
    case ASV_OCSP_RESPONDER_UNAUTHORIZED:
        break;
    default:
        asv_error_fail(err, "%d is not an OCSP error status (1, 2, 3, 5 or 6)", responder_status);
        return 0;
    }
    OCSP_RESPONSE *response = OCSP_response_create(responder_status, NULL);
    if (response == NULL) {
        asv_error_fail(err, "cannot allocate the OCSPResponse");
        return -1;
    }
    int result = asv_mint_ocsp_encode(response, out, out_length, err);
    OCSP_RESPONSE_free(response);
    return result;
}
