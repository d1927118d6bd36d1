// Exercises the Testing product's OCSP responder functions (asv_mint_ocsp.c) on good input and
// on every refusal path, many times over, so that AddressSanitizer / LeakSanitizer can prove that
// they free every OpenSSL object they allocate and never touch memory they should not; each signed
// response is checked with the shim's own asv_ocsp_check_response.
//
// Built and run by Scripts/memory-check.sh on the PKI of Scripts/make-ocsp-test-pki.sh and the
// requests of `openssl ocsp -reqout`:
//   ocsp-responder-check DIR ITERATIONS
// DIR holds root.der, intermediate.der, intermediate.key, good.der, good.key, good.req (a request
// about good without a nonce) and good-nonce.req (with one).
#include "asv_shim.h"
#include "asv_mint.h"
#include "asv_mint_ocsp.h"

#include "check-files.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static int failures = 0;

static void expect(int condition, const char *what, const asv_error *err) {
    if (!condition) {
        fprintf(stderr, "ocsp-responder-check: FAILED: %s (%s)\n", what, err != NULL ? err->message : "");
        failures++;
    }
}

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

static EVP_PKEY *load_key(const char *directory, const char *name) {
    size_t length = 0;
    unsigned char *pem = read_file(directory, name, &length);
    asv_error err;
    EVP_PKEY *key = asv_mint_private_key_from_pem(pem, length, &err);
    free(pem);
    if (key == NULL) {
        fprintf(stderr, "%s: %s\n", name, err.message);
        exit(2);
    }
    return key;
}

/// Signs an answer to `request` and checks it with the verifier's own function. 1 when it checks.
static int sign_and_check(const unsigned char *request, size_t length, int status, X509 *intermediate, EVP_PKEY *key, X509 *leaf,
                          X509 *root, int with_next_update) {
    asv_error err;
    asv_mint_ocsp_answer answer = {status, (int64_t)time(NULL) - 3600, status == ASV_OCSP_STATUS_REVOKED ? 1 : -1};
    uint8_t *response = NULL;
    size_t response_length = 0;
    int64_t now = (int64_t)time(NULL);
    int signed_ok = asv_mint_ocsp_response(request, length, &answer, 1, intermediate, key, now - 60, with_next_update ? now + 3600 : 0,
                                            &response, &response_length, &err);
    expect(signed_ok == 1, "signing an answer", &err);
    if (signed_ok != 1) {
        return 0;
    }
    (void)root;
    asv_ocsp_check check = {leaf, intermediate, response, response_length, NULL, 0, now, 300, 900};
    asv_ocsp_report report;
    int checked = asv_ocsp_check_response(&check, &report, &err);
    asv_mint_buffer_free(response, response_length);
    expect(checked == 1 && (int)report.cert_status == status && report.has_next_update == with_next_update,
           "the signed answer checks with asv_ocsp_check_response", &err);
    if (checked != 1) {
        return 0;
    }
    return 1;
}

int main(int argc, char **argv) {
    if (argc != 3) {
        fprintf(stderr, "usage: ocsp-responder-check DIR ITERATIONS\n");
        return 2;
    }
    const char *directory = argv[1];
    int iterations = atoi(argv[2]);
    X509 *root = load_certificate(directory, "root.der");
    X509 *intermediate = load_certificate(directory, "intermediate.der");
    X509 *leaf = load_certificate(directory, "good.der");
    EVP_PKEY *intermediate_key = load_key(directory, "intermediate.key");
    EVP_PKEY *other_key = load_key(directory, "good.key");
    size_t request_length = 0, nonce_request_length = 0;
    unsigned char *request = read_file(directory, "good.req", &request_length);
    unsigned char *nonce_request = read_file(directory, "good-nonce.req", &nonce_request_length);
    unsigned char *trailing = malloc(request_length + 1);
    if (trailing == NULL) {
        return 2;
    }
    memcpy(trailing, request, request_length);
    trailing[request_length] = 0;
    X509 *issuers[2] = {root, intermediate};

    for (int i = 0; i < iterations; i++) {
        asv_error err;
        asv_mint_ocsp_query queries[ASV_MINT_OCSP_MAX_QUERIES];
        size_t count = 0;
        expect(asv_mint_ocsp_read_request(request, request_length, issuers, 2, queries, ASV_MINT_OCSP_MAX_QUERIES, &count, &err) == 1 &&
                   count == 1 && queries[0].issuer_index == 1,
               "reading a request about good (issuer: the intermediate)", &err);
        expect(asv_mint_ocsp_read_request(nonce_request, nonce_request_length, issuers, 1, queries, ASV_MINT_OCSP_MAX_QUERIES, &count, &err) == 1 &&
                   count == 1 && queries[0].issuer_index == -1,
               "reading a request whose issuer is not given", &err);
        expect(asv_mint_ocsp_read_request(request, request_length, issuers, 2, queries, 0, &count, &err) == 0,
               "a request with more single requests than room", &err);
        expect(asv_mint_ocsp_read_request((const unsigned char *)"garbage", 7, issuers, 2, queries, 4, &count, &err) == 0,
               "garbage is not a request", &err);
        expect(asv_mint_ocsp_read_request(trailing, request_length + 1, issuers, 2, queries, 4, &count, &err) == 0,
               "a request with trailing bytes is refused", &err);

        asv_mint_ocsp_query identity;
        expect(asv_mint_ocsp_identify(leaf, issuers, 2, &identity, &err) == 1 && identity.issuer_index == 1 &&
                   strcmp(identity.serial_hex, queries[0].serial_hex) == 0,
               "identifying good: the same serial as its request", &err);
        expect(asv_mint_ocsp_identify(leaf, issuers, 1, &identity, &err) == 1 && identity.issuer_index == -1,
               "identifying good without its issuer", &err);

        expect(sign_and_check(request, request_length, ASV_OCSP_STATUS_GOOD, intermediate, intermediate_key, leaf, root, 1),
               "a good answer", NULL);
        expect(sign_and_check(nonce_request, nonce_request_length, ASV_OCSP_STATUS_REVOKED, intermediate, intermediate_key, leaf, root, 1),
               "a revoked answer echoing the nonce", NULL);
        expect(sign_and_check(request, request_length, ASV_OCSP_STATUS_UNKNOWN, intermediate, intermediate_key, leaf, root, 0),
               "an unknown answer without nextUpdate", NULL);

        uint8_t *out = NULL;
        size_t out_length = 0;
        asv_mint_ocsp_answer good = {ASV_OCSP_STATUS_GOOD, 0, -1};
        asv_mint_ocsp_answer bad_status = {7, 0, -1};
        asv_mint_ocsp_answer bad_reason = {ASV_OCSP_STATUS_REVOKED, 0, 7};
        asv_mint_ocsp_answer two[2] = {good, good};
        int64_t now = (int64_t)time(NULL);
        expect(asv_mint_ocsp_response(request, request_length, &good, 1, intermediate, other_key, now, now + 60, &out, &out_length, &err) == 0 && out == NULL,
               "a key that does not match the signer is refused", &err);
        expect(asv_mint_ocsp_response(request, request_length, two, 2, intermediate, intermediate_key, now, now + 60, &out, &out_length, &err) == 0,
               "more answers than single requests", &err);
        expect(asv_mint_ocsp_response(request, request_length, &bad_status, 1, intermediate, intermediate_key, now, now + 60, &out, &out_length, &err) == 0,
               "an unknown status", &err);
        expect(asv_mint_ocsp_response(request, request_length, &bad_reason, 1, intermediate, intermediate_key, now, now + 60, &out, &out_length, &err) == 0,
               "an unknown revocation reason", &err);
        expect(asv_mint_ocsp_response(request, request_length, &good, 1, intermediate, intermediate_key, now, now - 60, &out, &out_length, &err) == 0,
               "nextUpdate before thisUpdate", &err);
        expect(asv_mint_ocsp_response((const unsigned char *)"garbage", 7, &good, 1, intermediate, intermediate_key, now, now + 60, &out, &out_length, &err) == 0,
               "signing an answer to garbage", &err);

        expect(asv_mint_ocsp_error_response(ASV_OCSP_RESPONDER_UNAUTHORIZED, &out, &out_length, &err) == 1 && out_length == 5,
               "an unauthorized response", &err);
        asv_mint_buffer_free(out, out_length);
        expect(asv_mint_ocsp_error_response(ASV_OCSP_RESPONDER_SUCCESSFUL, &out, &out_length, &err) == 0 && out == NULL,
               "successful is not an error status", &err);
    }

    free(trailing);
    free(nonce_request);
    free(request);
    asv_pkey_free(other_key);
    asv_pkey_free(intermediate_key);
    asv_x509_free(leaf);
    asv_x509_free(intermediate);
    asv_x509_free(root);
    if (failures > 0) {
        fprintf(stderr, "ocsp-responder-check: %d failures\n", failures);
        return 1;
    }
    printf("ocsp-responder-check: %d iterations, every responder path as expected\n", iterations);
    return 0;
}
