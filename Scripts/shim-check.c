// Exercises every function of asv_openssl.c and asv_sign.c, on good input and on failure paths
// (ARCHITECTURE.md, "The C shim, function by function", lists those no test reaches), many times
// over, so that AddressSanitizer / LeakSanitizer or valgrind can prove that the shim frees every
// OpenSSL object it allocates and never touches memory it should not.
//
// Built and run by Scripts/memory-check.sh:
//   shim-check ROOT.der INTERMEDIATE.der LEAF.der SIGNING_INPUT SIGNATURE(64 raw bytes) ITERATIONS
// The signing functions (asv_sign.c) run on keys this harness generates once, written as PEM.
#include "asv_openssl.h"
#include "asv_sign.h"

#include <openssl/bio.h>
#include <openssl/evp.h>
#include <openssl/pem.h>

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

/// A PEM text of `key` (PKCS#8; encrypted with AES-128-CBC under a password when `encrypted`), NUL-terminated.
static char *pem_of(EVP_PKEY *key, int encrypted, size_t *length) {
    BIO *bio = BIO_new(BIO_s_mem());
    char password[] = "password";
    int written = bio != NULL && (encrypted ? PEM_write_bio_PKCS8PrivateKey(bio, key, EVP_aes_128_cbc(), password, 8, NULL, NULL)
                                            : PEM_write_bio_PrivateKey(bio, key, NULL, NULL, 0, NULL, NULL));
    char *data = NULL;
    long size = written ? BIO_get_mem_data(bio, &data) : 0;
    char *copy = size > 0 ? malloc((size_t)size + 1) : NULL;
    if (copy == NULL) {
        fprintf(stderr, "shim-check: cannot write a PEM key\n");
        exit(2);
    }
    memcpy(copy, data, (size_t)size);
    copy[size] = '\0';
    *length = (size_t)size;
    BIO_free(bio);
    return copy;
}

/// A freshly generated key: EVP_PKEY_Q_keygen(NULL, NULL, type, parameter).
static EVP_PKEY *generated(EVP_PKEY *key) {
    if (key == NULL) {
        fprintf(stderr, "shim-check: cannot generate a key\n");
        exit(2);
    }
    return key;
}

/// Loads `pem` with asv_private_key_from_pem and checks the verdict and the failure; frees the key.
static int loads_as(const char *pem, size_t length, int verdict, int failure) {
    asv_error err;
    EVP_PKEY *key = (EVP_PKEY *)1;
    int reason = -1;
    int result = asv_private_key_from_pem(pem, length, &key, &reason, &err);
    int ok = result == verdict && reason == failure && (result == 1) == (key != NULL);
    asv_pkey_free(key);
    return ok;
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

    // Keys for the signing functions: P-256 (plain and encrypted), and the kinds they refuse.
    EVP_PKEY *p256 = generated(EVP_PKEY_Q_keygen(NULL, NULL, "EC", "P-256"));
    EVP_PKEY *p384 = generated(EVP_PKEY_Q_keygen(NULL, NULL, "EC", "P-384"));
    EVP_PKEY *p521 = generated(EVP_PKEY_Q_keygen(NULL, NULL, "EC", "P-521"));
    EVP_PKEY *rsa = generated(EVP_PKEY_Q_keygen(NULL, NULL, "RSA", (size_t)2048));
    EVP_PKEY *ed25519 = generated(EVP_PKEY_Q_keygen(NULL, NULL, "ED25519"));
    size_t p256_length, encrypted_length, p384_length, p521_length, rsa_length, ed25519_length;
    char *p256_pem = pem_of(p256, 0, &p256_length);
    char *encrypted_pem = pem_of(p256, 1, &encrypted_length);
    char *p384_pem = pem_of(p384, 0, &p384_length);
    char *p521_pem = pem_of(p521, 0, &p521_length);
    char *rsa_pem = pem_of(rsa, 0, &rsa_length);
    char *ed25519_pem = pem_of(ed25519, 0, &ed25519_length);

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
        expect(asv_x509_from_der(leaf_der, SIZE_MAX, &err) == NULL, "a length over LONG_MAX refused before reading");

        expect(asv_x509_has_extension(leaf, "1.2.840.113635.100.6.11.1", &err) == 1, "leaf marker present");
        expect(asv_x509_has_extension(root, "1.2.840.113635.100.6.11.1", &err) == 0, "root has no leaf marker");
        expect(asv_x509_has_extension(leaf, "not an oid", &err) == -1, "invalid OID reported");
        int64_t not_before, not_after;
        expect(asv_x509_validity(leaf, &not_before, &not_after, &err) == 1 && not_before < not_after, "validity read");
        char subject[256];
        expect(asv_x509_subject(leaf, subject, sizeof(subject)) > 0, "subject read");
        expect(asv_x509_subject(leaf, subject, 8) == 7, "subject truncated to the buffer");
        expect(asv_x509_subject(leaf, subject, 0) == 0, "no room, no subject");

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
        asv_chain_request no_list = {store, leaf, NULL, 1, at_time, 1, 0};
        expect(asv_verify_chain(&no_list, &report, &err) == -1, "an untrusted count without a list is an internal error");
        expect(asv_store_add_root(store, NULL, &err) == -1, "adding no certificate to a store fails");
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
        expect(asv_es256_verify(NULL, input, input_length, signature, 64, &err) == 0, "no key refused");
        unsigned char spki[200];
        size_t spki_length = 0;
        expect(asv_pkey_public_spki_der(leaf_key, spki, sizeof(spki) - 1, &spki_length, &err) == 1 && spki_length == 91,
               "the leaf's public key encodes as a 91-byte SPKI");
        EVP_PKEY *parsed_key = asv_pkey_from_spki_der(spki, spki_length, &err);
        expect(parsed_key != NULL && asv_pkey_kind(parsed_key) == ASV_KEY_EC_P256, "SPKI parses back");
        asv_pkey_free(parsed_key);
        spki[spki_length] = 0;
        expect(asv_pkey_from_spki_der(spki, spki_length + 1, &err) == NULL && strstr(err.message, "trailing") != NULL,
               "trailing bytes after an SPKI refused");
        expect(asv_pkey_from_spki_der(spki, 0, &err) == NULL, "empty SPKI refused");
        expect(asv_pkey_from_spki_der(input, input_length, &err) == NULL, "garbage SPKI refused");
        expect(asv_pkey_public_spki_der(leaf_key, spki, 10, &spki_length, &err) == 0 && spki_length == 91,
               "a too-small SPKI buffer is refused with the length needed");
        expect(asv_pkey_public_spki_der(NULL, spki, sizeof(spki), &spki_length, &err) == -1, "no key to encode");
        expect(asv_pkey_kind(rsa) == ASV_KEY_RSA && asv_pkey_bits(rsa) == 2048 && asv_pkey_kind(p521) == ASV_KEY_EC_OTHER &&
                   asv_pkey_kind(ed25519) == ASV_KEY_OTHER && asv_pkey_bits(NULL) == 0,
               "RSA, P-521 and Ed25519 key kinds");
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
        asv_sha256_prefix_free(NULL);
        expect(asv_sha256_prefix_finish(NULL, input, input_length, split) == -1, "finishing no state fails");
        expect(strncmp(asv_openssl_version(), "OpenSSL 3", 9) == 0, "the OpenSSL version string");

        // Loading signing keys: P-256 loads; empty, too large, garbage, encrypted, and every other
        // key kind are refused with their reason.
        expect(loads_as(p256_pem, p256_length, 1, ASV_PRIVATE_KEY_OK), "a P-256 PKCS#8 key loads");
        expect(loads_as(p256_pem, 0, 0, ASV_PRIVATE_KEY_MALFORMED), "empty key text refused");
        expect(loads_as(p256_pem, SIZE_MAX, 0, ASV_PRIVATE_KEY_MALFORMED), "key text over INT_MAX refused before reading");
        expect(loads_as((const char *)input, input_length, 0, ASV_PRIVATE_KEY_MALFORMED), "garbage refused");
        expect(loads_as(encrypted_pem, encrypted_length, 0, ASV_PRIVATE_KEY_ENCRYPTED), "encrypted key refused");
        expect(loads_as(rsa_pem, rsa_length, 0, ASV_PRIVATE_KEY_NOT_P256), "RSA key refused");
        expect(loads_as(p384_pem, p384_length, 0, ASV_PRIVATE_KEY_NOT_P256), "P-384 key refused");
        expect(loads_as(p521_pem, p521_length, 0, ASV_PRIVATE_KEY_NOT_P256), "P-521 key refused");
        expect(loads_as(ed25519_pem, ed25519_length, 0, ASV_PRIVATE_KEY_NOT_P256), "Ed25519 key refused");

        // Signing: raw and DER, with and without a context; every refusal.
        EVP_PKEY *signing_key = NULL;
        int reason = -1;
        asv_private_key_from_pem(p256_pem, p256_length, &signing_key, &reason, &err);
        EVP_PKEY_CTX *context = asv_sign_context_new(signing_key, &err);
        expect(context != NULL, "a signing context");
        expect(asv_sign_context_new(intermediate_key, &err) == NULL && asv_sign_context_new(NULL, &err) == NULL,
               "no signing context for a P-384 key or no key");
        uint8_t made[72];
        size_t made_length = 0;
        expect(asv_ecdsa_p256_sign(signing_key, context, input, input_length, ASV_SIGNATURE_RAW, made, 64, &made_length, &err) == 1 &&
                   made_length == 64,
               "a raw signature with the context");
        unsigned char public_spki[128];
        size_t public_length = 0;
        asv_pkey_public_spki_der(signing_key, public_spki, sizeof(public_spki), &public_length, &err);
        EVP_PKEY *public_key = asv_pkey_from_spki_der(public_spki, public_length, &err);
        expect(asv_es256_verify(public_key, input, input_length, made, 64, &err) == 1, "the raw signature verifies");
        asv_pkey_free(public_key);
        expect(asv_ecdsa_p256_sign(signing_key, NULL, input, input_length, ASV_SIGNATURE_DER, made, sizeof(made), &made_length, &err) == 1 &&
                   made_length >= 8 && made_length <= 72 && made[0] == 0x30,
               "a DER signature without a context");
        expect(asv_ecdsa_p256_sign(signing_key, context, input, input_length, ASV_SIGNATURE_DER, made, 71, &made_length, &err) == 0,
               "a DER buffer under 72 bytes refused");
        expect(asv_ecdsa_p256_sign(signing_key, context, input, input_length, 7, made, sizeof(made), &made_length, &err) == 0,
               "an unknown encoding refused");
        expect(asv_ecdsa_p256_sign(leaf_key, context, input, input_length, ASV_SIGNATURE_RAW, made, sizeof(made), &made_length, &err) == 0,
               "a context made for another key refused");
        expect(asv_ecdsa_p256_sign(intermediate_key, NULL, input, input_length, ASV_SIGNATURE_RAW, made, sizeof(made), &made_length, &err) == 0 &&
                   asv_ecdsa_p256_sign(NULL, NULL, input, input_length, ASV_SIGNATURE_RAW, made, sizeof(made), &made_length, &err) == 0,
               "a P-384 key or no key refused");
        expect(asv_ecdsa_p256_sign(leaf_key, NULL, input, input_length, ASV_SIGNATURE_RAW, made, sizeof(made), &made_length, &err) == -1,
               "a public key alone cannot sign");
        asv_sign_context_free(context);
        asv_pkey_free(signing_key);

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
    free(p256_pem);
    free(encrypted_pem);
    free(p384_pem);
    free(p521_pem);
    free(rsa_pem);
    free(ed25519_pem);
    EVP_PKEY_free(p256);
    EVP_PKEY_free(p384);
    EVP_PKEY_free(p521);
    EVP_PKEY_free(rsa);
    EVP_PKEY_free(ed25519);
    printf("shim-check: %d iterations, %d failed expectations\n", iterations, failures);
    return failures == 0 ? 0 : 1;
}
