// Exercises the OCSP functions of the shim (asv_ocsp.c) on good input and on every failure path,
// many times over, so that AddressSanitizer / LeakSanitizer or valgrind can prove that they free
// every OpenSSL object they allocate and never touch memory they should not.
//
// Built and run by Scripts/memory-check.sh on a PKI minted by Scripts/make-ocsp-test-pki.sh and
// responses written by `openssl ocsp -reqin ... -respout ...`:
//   ocsp-shim-check DIR ITERATIONS
// DIR holds root.der (no Authority Information Access), intermediate.der, good.der, revoked.der, unknown.der, and the DER responses
// good.resp (for good), revoked.resp, unknown.resp, unrelated.resp (good's status signed by an
// unrelated key), good-nonce.req (a request about good made by `openssl ocsp -nonce -reqout`) and
// good-nonce.resp (the responder's answer to it, echoing its nonce).
#include "asv_shim.h"

#include <openssl/ocsp.h>

#include "check-files.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static X509 *load_certificate(const char *directory, const char *name) {
    size_t length = 0;
    unsigned char *der = read_file(directory, name, &length);
    asv_error err;
    X509 *certificate = asv_x509_from_der(der, length, &err);
    free(der);
    if (certificate == NULL) {
        fprintf(stderr, "%s: %s\n", name, err.message);
        exit(2);
    }
    return certificate;
}

/// The nonce a DER OCSPRequest carries (the value inside its id-pkix-ocsp-nonce OCTET STRING), as
/// `openssl ocsp -nonce` made it; exits when there is none.
static unsigned char *request_nonce(const unsigned char *der, size_t length, size_t *nonce_length) {
    const unsigned char *cursor = der;
    OCSP_REQUEST *request = d2i_OCSP_REQUEST(NULL, &cursor, (long)length);
    X509_EXTENSION *extension = request == NULL ? NULL
        : OCSP_REQUEST_get_ext(request, OCSP_REQUEST_get_ext_by_NID(request, NID_id_pkix_OCSP_Nonce, -1));
    ASN1_OCTET_STRING *value = extension == NULL ? NULL : X509_EXTENSION_get_data(extension);
    const unsigned char *inner_cursor = value == NULL ? NULL : ASN1_STRING_get0_data(value);
    ASN1_OCTET_STRING *inner = inner_cursor == NULL ? NULL
        : d2i_ASN1_OCTET_STRING(NULL, &inner_cursor, ASN1_STRING_length(value));
    if (inner == NULL || ASN1_STRING_length(inner) <= 0) {
        fprintf(stderr, "good-nonce.req carries no nonce\n");
        exit(2);
    }
    *nonce_length = (size_t)ASN1_STRING_length(inner);
    unsigned char *nonce = malloc(*nonce_length);
    if (nonce == NULL) {
        exit(2);
    }
    memcpy(nonce, ASN1_STRING_get0_data(inner), *nonce_length);
    ASN1_OCTET_STRING_free(inner);
    OCSP_REQUEST_free(request);
    return nonce;
}

static int failures = 0;

static void expect(int condition, const char *what) {
    if (!condition) {
        fprintf(stderr, "ocsp-shim-check: FAILED: %s\n", what);
        failures++;
    }
}

/// Checks `response` for `certificate`, whose request carried `nonce` (or none), and returns the
/// result; the report goes to `report`.
static int check_with_nonce(X509 *certificate, X509 *issuer, const unsigned char *response, size_t length,
                            const unsigned char *nonce, size_t nonce_length, int64_t now, asv_ocsp_report *report) {
    asv_ocsp_check request = {
        .certificate = certificate, .issuer = issuer, .response = response, .response_length = length,
        .nonce = nonce, .nonce_length = nonce_length, .now = now, .clock_skew = 300, .maximum_age = 900,
    };
    asv_error err;
    return asv_ocsp_check_response(&request, report, &err);
}

/// Checks `response` for `certificate`, whose request carried no nonce.
static int check(X509 *certificate, X509 *issuer, const unsigned char *response, size_t length,
                 int64_t now, asv_ocsp_report *report) {
    return check_with_nonce(certificate, issuer, response, length, NULL, 0, now, report);
}

int main(int argc, char **argv) {
    if (argc != 3) {
        fprintf(stderr, "usage: ocsp-shim-check DIR ITERATIONS\n");
        return 2;
    }
    const char *directory = argv[1];
    int iterations = atoi(argv[2]);
    X509 *root = load_certificate(directory, "root.der");
    X509 *intermediate = load_certificate(directory, "intermediate.der");
    X509 *good = load_certificate(directory, "good.der");
    X509 *revoked = load_certificate(directory, "revoked.der");
    X509 *unknown = load_certificate(directory, "unknown.der");
    size_t good_length, revoked_length, unknown_length, unrelated_length;
    unsigned char *good_response = read_file(directory, "good.resp", &good_length);
    unsigned char *revoked_response = read_file(directory, "revoked.resp", &revoked_length);
    unsigned char *unknown_response = read_file(directory, "unknown.resp", &unknown_length);
    unsigned char *unrelated_response = read_file(directory, "unrelated.resp", &unrelated_length);
    size_t nonce_request_length, nonce_response_length, nonce_length;
    unsigned char *nonce_request = read_file(directory, "good-nonce.req", &nonce_request_length);
    unsigned char *nonce_response = read_file(directory, "good-nonce.resp", &nonce_response_length);
    unsigned char *sent_nonce = request_nonce(nonce_request, nonce_request_length, &nonce_length);
    unsigned char *other_nonce = malloc(nonce_length);
    if (other_nonce == NULL) {
        return 2;
    }
    memcpy(other_nonce, sent_nonce, nonce_length);
    other_nonce[nonce_length - 1] ^= 0x01;
    int64_t now = (int64_t)time(NULL);
    unsigned char *longer_response = malloc(good_length + 1);
    if (longer_response == NULL) {
        return 2;
    }
    memcpy(longer_response, good_response, good_length);
    longer_response[good_length] = 0;
    // OCSPResponse { responseStatus unauthorized(6) }: unsigned, as RFC 6960 has it.
    const unsigned char unauthorized[] = {0x30, 0x03, 0x0A, 0x01, 0x06};
    // OCSPResponse { successful, responseBytes { responseType id-pkix-ocsp-nonce (not basic), response "" } }.
    const unsigned char not_basic[] = {0x30, 0x14, 0x0A, 0x01, 0x00, 0xA0, 0x0F, 0x30, 0x0D, 0x06, 0x09, 0x2B, 0x06,
                                       0x01, 0x05, 0x05, 0x07, 0x30, 0x01, 0x02, 0x04, 0x00};

    for (int i = 0; i < iterations; i++) {
        asv_error err;
        char url[256];
        expect(asv_ocsp_responder_url(good, url, sizeof(url), &err) == 1 && strncmp(url, "http://127.0.0.1:", 17) == 0,
               "the leaf's AIA names the loopback responder");
        expect(asv_ocsp_responder_url(good, url, 8, &err) == -1, "a URL longer than the buffer is refused");
        expect(asv_ocsp_responder_url(good, url, 0, &err) == -1, "no buffer at all is refused");
        expect(asv_ocsp_responder_url(root, url, sizeof(url), &err) == 0 && url[0] == '\0', "a certificate without AIA names no responder");

        uint8_t der[512];
        size_t der_length = 0;
        const uint8_t nonce[16] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16};
        asv_ocsp_request request = {.certificate = good, .issuer = intermediate, .nonce = nonce, .nonce_length = sizeof(nonce)};
        expect(asv_ocsp_request_der(&request, der, sizeof(der), &der_length, &err) == 1 && der_length > 60,
               "a request with a nonce encodes");
        expect(asv_ocsp_request_der(&request, der, 10, &der_length, &err) == -1 && der_length > 10,
               "a too-small buffer is refused with the length needed");
        asv_ocsp_request plain = {.certificate = good, .issuer = intermediate};
        expect(asv_ocsp_request_der(&plain, der, sizeof(der), &der_length, &err) == 1 && der_length > 40, "a request without a nonce encodes");
        asv_ocsp_request no_issuer = {.certificate = good};
        expect(asv_ocsp_request_der(&no_issuer, der, sizeof(der), &der_length, &err) == -1, "a request without the issuer is refused");
        asv_ocsp_request long_nonce = {.certificate = good, .issuer = intermediate, .nonce = nonce, .nonce_length = (size_t)INT_MAX + 1};
        expect(asv_ocsp_request_der(&long_nonce, der, sizeof(der), &der_length, &err) == -1, "a nonce over INT_MAX is refused before reading");

        asv_ocsp_report report;
        expect(check(good, intermediate, good_response, good_length, now, &report) == 1
                   && report.cert_status == ASV_OCSP_STATUS_GOOD && report.has_next_update,
               "good");
        expect(check(revoked, intermediate, revoked_response, revoked_length, now, &report) == 1
                   && report.cert_status == ASV_OCSP_STATUS_REVOKED && report.revocation_reason == 1,
               "revoked, keyCompromise");
        expect(check(unknown, intermediate, unknown_response, unknown_length, now, &report) == 1
                   && report.cert_status == ASV_OCSP_STATUS_UNKNOWN,
               "unknown");
        expect(check(good, intermediate, unrelated_response, unrelated_length, now, &report) == 0
                   && report.failure == ASV_OCSP_ERR_SIGNATURE,
               "a response signed by an unrelated key is refused");
        expect(check(revoked, intermediate, good_response, good_length, now, &report) == 0
                   && report.failure == ASV_OCSP_ERR_CERTID_MISMATCH,
               "a response for another serial is refused");
        expect(check(good, intermediate, good_response, good_length / 2, now, &report) == 0
                   && report.failure == ASV_OCSP_ERR_MALFORMED,
               "a truncated response is refused");
        expect(check(good, intermediate, (const unsigned char *)"garbage", 7, now, &report) == 0
                   && report.failure == ASV_OCSP_ERR_MALFORMED,
               "garbage is refused");
        expect(check(good, intermediate, good_response, good_length, now + 2 * 86400, &report) == 0
                   && report.failure == ASV_OCSP_ERR_EXPIRED,
               "a response past its nextUpdate is refused");
        // An hour before the response was made: its signer's certificate is valid then (the PKI's
        // certificates start a day earlier), so the refusal is about thisUpdate alone.
        expect(check(good, intermediate, good_response, good_length, now - 3600, &report) == 0
                   && report.failure == ASV_OCSP_ERR_NOT_YET_VALID,
               "a response from the future is refused as not yet valid");

        expect(check(good, intermediate, good_response, 0, now, &report) == 0 && report.failure == ASV_OCSP_ERR_MALFORMED,
               "an empty response is refused");
        expect(check(good, intermediate, longer_response, good_length + 1, now, &report) == 0
                   && report.failure == ASV_OCSP_ERR_MALFORMED,
               "a response with a trailing byte is refused");
        expect(check(good, intermediate, unauthorized, sizeof(unauthorized), now, &report) == 0
                   && report.failure == ASV_OCSP_ERR_RESPONDER_STATUS && report.responder_status == ASV_OCSP_RESPONDER_UNAUTHORIZED,
               "an unauthorized (unsigned) answer is refused with its status");
        expect(check(good, intermediate, not_basic, sizeof(not_basic), now, &report) == 0
                   && report.failure == ASV_OCSP_ERR_NOT_BASIC,
               "a successful response that is not a basic response is refused");
        expect(check_with_nonce(good, intermediate, good_response, good_length, sent_nonce, (size_t)INT_MAX + 1, now, &report) == -1,
               "a nonce over INT_MAX is an internal error, not read");
        asv_ocsp_check negative = {.certificate = good, .issuer = intermediate, .response = good_response,
                                   .response_length = good_length, .now = now, .clock_skew = -1};
        expect(asv_ocsp_check_response(&negative, &report, &err) == -1 && asv_ocsp_check_response(NULL, &report, &err) == -1,
               "a negative skew or no check is an internal error");

        // The nonce: echoed and equal, echoed and different (a replayed answer), not echoed.
        expect(check_with_nonce(good, intermediate, nonce_response, nonce_response_length, sent_nonce, nonce_length, now, &report) == 1
                   && report.cert_status == ASV_OCSP_STATUS_GOOD && report.nonce_echoed == 1,
               "a response echoing the request's nonce is good, the nonce marked echoed");
        expect(check_with_nonce(good, intermediate, nonce_response, nonce_response_length, other_nonce, nonce_length, now, &report) == 0
                   && report.failure == ASV_OCSP_ERR_NONCE_MISMATCH,
               "a response echoing another request's nonce is refused");
        expect(check_with_nonce(good, intermediate, good_response, good_length, sent_nonce, nonce_length, now, &report) == 1
                   && report.cert_status == ASV_OCSP_STATUS_GOOD && report.nonce_echoed == 0,
               "a response echoing no nonce (a pre-signed answer) is accepted, the nonce marked not echoed");
        if (failures > 0) {
            break;
        }
    }

    free(good_response);
    free(revoked_response);
    free(unknown_response);
    free(unrelated_response);
    free(nonce_request);
    free(nonce_response);
    free(sent_nonce);
    free(other_nonce);
    free(longer_response);
    asv_x509_free(root);
    asv_x509_free(intermediate);
    asv_x509_free(good);
    asv_x509_free(revoked);
    asv_x509_free(unknown);
    if (failures > 0) {
        return 1;
    }
    printf("ocsp-shim-check: %d iterations, every OCSP path as expected\n", iterations);
    return 0;
}
