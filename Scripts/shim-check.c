// Exercises every function of the OpenSSL shim, on good input and on every failure path, many
// times over, so that AddressSanitizer / LeakSanitizer or valgrind can prove that the shim frees
// every OpenSSL object it allocates and never touches memory it should not.
//
// Built and run by Scripts/memory-check.sh:
//   shim-check ROOT.der INTERMEDIATE.der LEAF.der SIGNING_INPUT SIGNATURE(64 raw bytes) ITERATIONS
#include "asv_openssl.h"

#include "check-files.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failures = 0;

static void expect(int condition, const char *what) {
    if (!condition) {
        fprintf(stderr, "shim-check: FAILED: %s\n", what);
        failures++;
    }
}

int main(int argc, char **argv) {
    if (argc != 7) {
        fprintf(stderr, "usage: %s ROOT INTERMEDIATE LEAF SIGNING_INPUT SIGNATURE ITERATIONS\n", argv[0]);
        return 2;
    }
    size_t root_length, intermediate_length, leaf_length, input_length, signature_length;
    unsigned char *root_der = read_path(argv[1], &root_length);
    unsigned char *intermediate_der = read_path(argv[2], &intermediate_length);
    unsigned char *leaf_der = read_path(argv[3], &leaf_length);
    unsigned char *input = read_path(argv[4], &input_length);
    unsigned char *signature = read_path(argv[5], &signature_length);
    int iterations = atoi(argv[6]);
    const int64_t at_time = 1772366400; // 2026-03-01T12:00:00Z, the vectors' signedDate

    for (int i = 0; i < iterations; i++) {
        asv_error err;
        X509 *root = asv_x509_from_der(root_der, root_length, &err);
        X509 *intermediate = asv_x509_from_der(intermediate_der, intermediate_length, &err);
        X509 *leaf = asv_x509_from_der(leaf_der, leaf_length, &err);
        expect(root && intermediate && leaf, "parse the test PKI");

        // Failure paths of parsing: truncated, trailing bytes, empty, garbage.
        expect(asv_x509_from_der(leaf_der, leaf_length / 2, &err) == NULL, "truncated certificate refused");
        unsigned char *longer = malloc(leaf_length + 3);
        memcpy(longer, leaf_der, leaf_length);
        memset(longer + leaf_length, 0, 3);
        expect(asv_x509_from_der(longer, leaf_length + 3, &err) == NULL, "trailing bytes refused");
        expect(strstr(err.message, "trailing") != NULL, "trailing bytes named in the message");
        free(longer);
        expect(asv_x509_from_der(NULL, 0, &err) == NULL, "empty input refused");
        expect(asv_x509_from_der(input, input_length, &err) == NULL, "non-DER refused");

        expect(asv_x509_has_extension(leaf, "1.2.840.113635.100.6.11.1", &err) == 1, "leaf marker present");
        expect(asv_x509_has_extension(root, "1.2.840.113635.100.6.11.1", &err) == 0, "root has no leaf marker");
        expect(asv_x509_has_extension(leaf, "not an oid", &err) == -1, "invalid OID reported");
        int64_t not_before, not_after;
        expect(asv_x509_validity(leaf, &not_before, &not_after, &err) == 1 && not_before < not_after, "validity read");
        char subject[256];
        expect(asv_x509_subject(leaf, subject, sizeof(subject)) > 0, "subject read");
        expect(asv_x509_subject(leaf, subject, 8) == 7, "subject truncated to the buffer");

        EVP_PKEY *leaf_key = asv_x509_public_key(leaf, &err);
        EVP_PKEY *intermediate_key = asv_x509_public_key(intermediate, &err);
        expect(asv_pkey_kind(leaf_key) == ASV_KEY_EC_P256 && asv_pkey_kind(intermediate_key) == ASV_KEY_EC_P384, "key kinds");
        expect(asv_pkey_bits(leaf_key) == 256 && asv_pkey_kind(NULL) == ASV_KEY_OTHER, "key sizes");
        expect(asv_x509_signature_verifies(leaf, intermediate_key, &err) == 1, "leaf signed by intermediate");
        expect(asv_x509_signature_verifies(leaf, leaf_key, &err) != 1, "leaf not signed by itself");

        // Path validation: good, at a bad time, without the intermediate, partial chain.
        X509_STORE *store = asv_store_new(&err);
        expect(asv_store_add_root(store, root, &err) == 1, "root added");
        X509 *untrusted[1] = {intermediate};
        asv_chain_report report;
        asv_chain_request request = {store, leaf, untrusted, 1, at_time, 1, 0};
        expect(asv_verify_chain(&request, &report, &err) == 1 && report.chain_length == 3 &&
                   report.chain_matches_input == 3 && report.failure == ASV_CHAIN_OK,
               "good chain validates");
        request.at_time = 4102444800;
        expect(asv_verify_chain(&request, &report, &err) == 0 && report.x509_error == 10 &&
                   report.failure == ASV_CHAIN_OUTSIDE_VALIDITY && report.depth >= 0,
               "expired chain refused");
        asv_chain_request no_intermediate = {store, leaf, NULL, 0, at_time, 1, 0};
        expect(asv_verify_chain(&no_intermediate, &report, &err) == 0 && report.failure == ASV_CHAIN_UNTRUSTED,
               "missing intermediate refused");
        asv_chain_request incomplete = {NULL, leaf, NULL, 0, at_time, 1, 0};
        expect(asv_verify_chain(&incomplete, &report, &err) == -1, "incomplete request is an internal error");
        X509_STORE *partial = asv_store_new(&err);
        asv_store_add_root(partial, intermediate, &err);
        asv_chain_request partial_request = {partial, leaf, NULL, 0, at_time, 1, 1};
        expect(asv_verify_chain(&partial_request, &report, &err) == 1 && report.chain_length == 2, "partial chain validates");
        partial_request.partial_chain = 0;
        expect(asv_verify_chain(&partial_request, &report, &err) == 0, "partial chain refused without the flag");

        // ES256: good, tampered, wrong length, out of range, wrong key.
        expect(asv_es256_verify(leaf_key, input, input_length, signature, signature_length, &err) == 1, "signature verifies");
        unsigned char bad[65];
        memcpy(bad, signature, 64);
        bad[10] ^= 1;
        expect(asv_es256_verify(leaf_key, input, input_length, bad, 64, &err) == 0, "tampered signature refused");
        expect(asv_es256_verify(leaf_key, input, input_length, signature, 63, &err) == 0, "63 bytes refused");
        expect(asv_es256_verify(leaf_key, input, input_length, bad, 65, &err) == 0, "65 bytes refused");
        memset(bad, 0, 64);
        expect(asv_es256_verify(leaf_key, input, input_length, bad, 64, &err) == 0, "r = s = 0 refused");
        memset(bad, 0xFF, 64);
        expect(asv_es256_verify(leaf_key, input, input_length, bad, 64, &err) == 0, "r, s above n refused");
        expect(asv_es256_verify(intermediate_key, input, input_length, signature, 64, &err) == 0, "P-384 key refused");
        unsigned char spki[200];
        expect(asv_pkey_from_spki_der(spki, 0, &err) == NULL, "empty SPKI refused");
        expect(asv_pkey_from_spki_der(input, input_length, &err) == NULL, "garbage SPKI refused");
        uint8_t digest[48];
        expect(asv_sha256(input, input_length, digest) == 1 && asv_sha384(input, input_length, digest) == 1 &&
                   asv_sha1(input, input_length, digest) == 1, "digests");

        // The header midstate: SHA-256(prefix || suffix) equals the one-shot digest, and the digest
        // verifies with asv_es256_verify_digest; the same thread's cached context serves other keys.
        asv_sha256_prefix *prefix = asv_sha256_prefix_new(input, 10, &err);
        uint8_t whole[32], split[32];
        expect(prefix != NULL && asv_sha256(input, input_length, whole) == 1 &&
                   asv_sha256_prefix_finish(prefix, input + 10, input_length - 10, split) == 1 &&
                   memcmp(whole, split, 32) == 0, "midstate digest equals the one-shot digest");
        expect(asv_es256_verify_digest(leaf_key, split, signature, signature_length, &err) == 1, "digest verifies");
        expect(asv_es256_verify_digest(intermediate_key, split, signature, signature_length, &err) == 0, "P-384 key refused for a digest");
        expect(asv_es256_verify_digest(leaf_key, split, signature, signature_length, &err) == 1, "digest verifies after a key change");
        asv_sha256_prefix_free(prefix);

        asv_store_free(partial);
        asv_store_free(store);
        asv_pkey_free(leaf_key);
        asv_pkey_free(intermediate_key);
        asv_x509_free(leaf);
        asv_x509_free(intermediate);
        asv_x509_free(root);
        if (failures > 0) {
            break;
        }
    }
    free(root_der);
    free(intermediate_der);
    free(leaf_der);
    free(input);
    free(signature);
    printf("shim-check: %d iterations, %d failed expectations\n", iterations, failures);
    return failures == 0 ? 0 : 1;
}
