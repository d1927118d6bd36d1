// Exercises the PKCS#7 functions of the shim (asv_pkcs7.c) on valid receipts and on every failure
// path, many times over, so that AddressSanitizer / LeakSanitizer or valgrind can prove that they
// free every OpenSSL object they allocate and never touch memory they should not.
//
// Built and run by Scripts/memory-check.sh on the minted receipts of TestVectors/receipts:
//   pkcs7-shim-check DIR ITERATIONS
// Every receipt goes through asv_pkcs7_parse (and, when it parses, the signature check); the valid
// ones also through the warm path, asv_pkcs7_parse_with_signer, on the receipt re-encoded without
// its certificates, with the right signer, the wrong one, and the full receipt (refused).
#include "asv_shim.h"

#include <openssl/pkcs7.h>
#include <openssl/x509.h>
#include "check-files.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failures = 0;

static void expect(int condition, const char *what, const char *file) {
    if (!condition) {
        fprintf(stderr, "FAIL: %s (%s)\n", what, file);
        failures++;
    }
}

/// The receipt's DER with its certificates removed (what ReceiptEnvelope produces), and the
/// embedded certificate `index`, up-ref'd. The harness's own OpenSSL objects are freed here too.
static unsigned char *strip_certificates(const unsigned char *der, size_t length, int index, X509 **certificate,
                                         int *stripped_length) {
    const unsigned char *cursor = der;
    PKCS7 *pkcs7 = d2i_PKCS7(NULL, &cursor, (long)length);
    if (pkcs7 == NULL || pkcs7->d.sign == NULL || pkcs7->d.sign->cert == NULL) {
        PKCS7_free(pkcs7);
        return NULL;
    }
    *certificate = sk_X509_value(pkcs7->d.sign->cert, index);
    X509_up_ref(*certificate);
    sk_X509_pop_free(pkcs7->d.sign->cert, X509_free);
    pkcs7->d.sign->cert = NULL;
    unsigned char *out = NULL;
    *stripped_length = i2d_PKCS7(pkcs7, &out);
    PKCS7_free(pkcs7);
    return out;
}

int main(int argc, char **argv) {
    if (argc != 3) {
        fprintf(stderr, "usage: %s DIR ITERATIONS\n", argv[0]);
        return 2;
    }
    const char *directory = argv[1];
    int iterations = atoi(argv[2]);
    const char *valid[] = {"valid-sha256.der", "valid-sha1.der", "valid-signed-attributes.der", "valid-no-in-app.der"};
    const char *invalid_signature[] = {"tampered-content.der", "signed-attributes-tampered.der",
                                       "signed-attributes-wrong-digest.der", "md5-digest.der", "signed-by-other-key.der",
                                       "leaf-ec-key.der", "sha1-declared-sha256-signed.der"};
    const char *unparsable[] = {"two-signers.der", "detached-content.der", "trailing-bytes.der", "no-certificates.der",
                                "content-not-data.der", "signer-certificate-absent.der", "length-past-end.der",
                                "ber-unterminated.der", "ber-trailing-after-eoc.der"};
    for (int iteration = 0; iteration < iterations; iteration++) {
        for (size_t i = 0; i < sizeof(valid) / sizeof(*valid); i++) {
            size_t length = 0;
            unsigned char *der = read_file(directory, valid[i], &length);
            asv_error error;
            asv_pkcs7 *parsed = NULL;
            expect(asv_pkcs7_parse(der, length, 8, &parsed, &error) == 1, "valid receipt parses", valid[i]);
            if (parsed != NULL) {
                expect(asv_pkcs7_verify_signature(parsed, &error) == 1, "valid signature verifies", valid[i]);
                size_t content_length = 0, certificate_length = 0;
                expect(asv_pkcs7_content(parsed, &content_length) != NULL && content_length > 0, "content", valid[i]);
                size_t count = asv_pkcs7_certificate_count(parsed);
                asv_pkcs7_signer_summary signer = asv_pkcs7_signer(parsed);
                expect(count >= 1 && signer.certificate_index < count &&
                           asv_pkcs7_certificate_der(parsed, signer.certificate_index, &certificate_length) != NULL && certificate_length > 0,
                       "the signer's certificate", valid[i]);
                expect(asv_pkcs7_certificate_der(parsed, count, &certificate_length) == NULL && certificate_length == 0,
                       "no certificate past the last", valid[i]);
                asv_pkcs7_free(parsed);
            }
            parsed = NULL;
            expect(asv_pkcs7_parse(der, length, 1, &parsed, &error) == 0 && parsed == NULL, "more certificates than allowed", valid[i]);
            expect(asv_pkcs7_parse(der, 0, 8, &parsed, &error) == 0, "empty input", valid[i]);
            expect(asv_pkcs7_parse(der, SIZE_MAX, 8, &parsed, &error) == 0, "a length over LONG_MAX refused before reading", valid[i]);

            X509 *leaf = NULL, *intermediate = NULL;
            int stripped_length = 0, ignored = 0;
            unsigned char *stripped = strip_certificates(der, length, 0, &leaf, &stripped_length);
            unsigned char *again = strip_certificates(der, length, 1, &intermediate, &ignored);
            expect(stripped != NULL && again != NULL, "receipt re-encodes without certificates", valid[i]);
            if (stripped != NULL && again != NULL) {
                parsed = NULL;
                expect(asv_pkcs7_parse_with_signer(stripped, (size_t)stripped_length, leaf, &parsed, &error) == 1,
                       "warm path parses with the leaf", valid[i]);
                if (parsed != NULL) {
                    expect(asv_pkcs7_certificate_count(parsed) == 0, "warm path embeds nothing", valid[i]);
                    expect(asv_pkcs7_verify_signature(parsed, &error) == 1, "warm path verifies", valid[i]);
                    asv_pkcs7_free(parsed);
                }
                parsed = NULL;
                expect(asv_pkcs7_parse_with_signer(stripped, (size_t)stripped_length, intermediate, &parsed, &error) == 0,
                       "warm path refuses another signer", valid[i]);
                expect(parsed == NULL, "no object on refusal", valid[i]);
                expect(asv_pkcs7_parse_with_signer(der, length, leaf, &parsed, &error) == 0,
                       "warm path refuses embedded certificates", valid[i]);
                expect(asv_pkcs7_parse_with_signer(stripped, (size_t)stripped_length - 1, leaf, &parsed, &error) == 0,
                       "warm path refuses a truncated receipt", valid[i]);
                expect(asv_pkcs7_parse_with_signer(stripped, (size_t)stripped_length, NULL, &parsed, &error) == -1,
                       "warm path needs a signer", valid[i]);
            }
            OPENSSL_free(stripped);
            OPENSSL_free(again);
            X509_free(leaf);
            X509_free(intermediate);
            free(der);
        }
        for (size_t i = 0; i < sizeof(invalid_signature) / sizeof(*invalid_signature); i++) {
            size_t length = 0;
            unsigned char *der = read_file(directory, invalid_signature[i], &length);
            asv_error error;
            asv_pkcs7 *parsed = NULL;
            expect(asv_pkcs7_parse(der, length, 8, &parsed, &error) == 1, "parses", invalid_signature[i]);
            if (parsed != NULL) {
                expect(asv_pkcs7_verify_signature(parsed, &error) == 0, "signature refused", invalid_signature[i]);
                expect(error.message[0] != '\0', "refusal explained", invalid_signature[i]);
                asv_pkcs7_free(parsed);
            }
            free(der);
        }
        for (size_t i = 0; i < sizeof(unparsable) / sizeof(*unparsable); i++) {
            size_t length = 0;
            unsigned char *der = read_file(directory, unparsable[i], &length);
            asv_error error;
            asv_pkcs7 *parsed = NULL;
            expect(asv_pkcs7_parse(der, length, 8, &parsed, &error) == 0, "refused", unparsable[i]);
            expect(parsed == NULL && error.message[0] != '\0', "refusal explained, nothing returned", unparsable[i]);
            free(der);
        }
        if (failures > 0) {
            break;
        }
    }
    if (failures > 0) {
        fprintf(stderr, "pkcs7-shim-check: %d failures\n", failures);
        return 1;
    }
    printf("pkcs7-shim-check: %d iterations, every path as expected\n", iterations);
    return 0;
}
