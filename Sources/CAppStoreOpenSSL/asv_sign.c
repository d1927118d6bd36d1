// Signing with a P-256 private key: see include/asv_sign.h for the contract of each function.
#include "asv_internal.h"
#include "asv_openssl.h"
#include "asv_sign.h"

#include <limits.h>
#include <string.h>

#include <openssl/bio.h>
#include <openssl/bn.h>
#include <openssl/ec.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/x509.h>

// MARK: - Loading

/// The password callback: never prompts, never supplies a password, only notes that one was asked.
static int asv_refuse_password(char *buffer, int size, int rwflag, void *asked) {
    (void)buffer;
    (void)size;
    (void)rwflag;
    if (asked != NULL) {
        *(int *)asked = 1;
    }
    return -1;
}

/// Whether `needle` occurs in the first `length` bytes of `haystack`.
static int asv_contains(const uint8_t *haystack, size_t length, const char *needle) {
    size_t needle_length = strlen(needle);
    if (needle_length == 0 || length < needle_length) {
        return 0;
    }
    for (size_t i = 0; i + needle_length <= length; i++) {
        if (haystack[i] == (uint8_t)needle[0] && memcmp(haystack + i, needle, needle_length) == 0) {
            return 1;
        }
    }
    return 0;
}

int asv_private_key_from_pem(const void *pem, size_t length, EVP_PKEY **out, int *failure, asv_error *err) {
    asv_error_begin(err);
    *out = NULL;
    *failure = ASV_PRIVATE_KEY_MALFORMED;
    if (pem == NULL || length == 0) {
        asv_error_fail(err, "the key text is empty");
        return 0;
    }
    if (length > (size_t)INT_MAX) {
        asv_error_fail(err, "the key text is too large (%zu bytes)", length);
        return 0;
    }
    BIO *bio = BIO_new_mem_buf(pem, (int)length);
    if (bio == NULL) {
        asv_error_fail(err, "cannot allocate a memory BIO");
        *failure = ASV_PRIVATE_KEY_MALFORMED;
        return -1;
    }
    int password_asked = 0;
    EVP_PKEY *key = PEM_read_bio_PrivateKey(bio, NULL, asv_refuse_password, &password_asked);
    BIO_free(bio);
    if (key == NULL) {
        const uint8_t *text = pem;
        if (password_asked || asv_contains(text, length, "-----BEGIN ENCRYPTED PRIVATE KEY-----") ||
            asv_contains(text, length, "Proc-Type: 4,ENCRYPTED")) {
            *failure = ASV_PRIVATE_KEY_ENCRYPTED;
            asv_error_fail(err, "the private key is encrypted");
        } else {
            *failure = ASV_PRIVATE_KEY_MALFORMED;
            asv_error_fail(err, "no PEM private key could be read");
        }
        return 0;
    }
    asv_key_kind kind = asv_pkey_kind(key);
    if (kind != ASV_KEY_EC_P256) {
        int bits = asv_pkey_bits(key);
        EVP_PKEY_free(key);
        *failure = ASV_PRIVATE_KEY_NOT_P256;
        switch (kind) {
        case ASV_KEY_RSA:
            asv_error_fail(err, "this one is a %d-bit RSA key", bits);
            break;
        case ASV_KEY_EC_P384:
            asv_error_fail(err, "this one is an elliptic-curve key on P-384");
            break;
        case ASV_KEY_EC_OTHER:
            asv_error_fail(err, "this one is an elliptic-curve key on another curve (%d bits)", bits);
            break;
        default:
            asv_error_fail(err, "this one is neither an elliptic-curve nor an RSA key");
            break;
        }
        return 0;
    }
    // The whole key: the scalar in 1 ... n-1, the public point on the curve and of order n, and the
    // public key equal to the scalar times G (a SEC1 key carries its public half separately).
    EVP_PKEY_CTX *check = EVP_PKEY_CTX_new_from_pkey(NULL, key, NULL);
    if (check == NULL) {
        EVP_PKEY_free(key);
        asv_error_fail(err, "cannot allocate a key check context");
        *failure = ASV_PRIVATE_KEY_MALFORMED;
        return -1;
    }
    int valid = EVP_PKEY_check(check);
    EVP_PKEY_CTX_free(check);
    if (valid != 1) {
        EVP_PKEY_free(key);
        *failure = ASV_PRIVATE_KEY_INVALID;
        asv_error_fail(err, "the P-256 key fails OpenSSL's key check");
        return 0;
    }
    ERR_clear_error();
    *failure = ASV_PRIVATE_KEY_OK;
    *out = key;
    return 1;
}

// MARK: - Signing

/// Reads one DER INTEGER of a P-256 ECDSA-Sig-Value at `*cursor` (within `end`) into `out` as 32
/// big-endian bytes. 1 on success, 0 if it is not a non-negative INTEGER of at most 32 bytes.
static int asv_der_scalar(const uint8_t **cursor, const uint8_t *end, uint8_t out[32]) {
    const uint8_t *p = *cursor;
    if (end - p < 2 || p[0] != 0x02) return 0;
    size_t length = p[1];
    p += 2;
    if (length == 0 || length > 33 || (size_t)(end - p) < length || (p[0] & 0x80)) return 0;
    while (length > 1 && p[0] == 0) {
        p++;
        length--;
    }
    if (length > 32) return 0;
    memset(out, 0, 32 - length);
    memcpy(out + 32 - length, p, length);
    *cursor = p + length;
    return 1;
}

/// The 64-byte JOSE form (r || s) of a DER ECDSA-Sig-Value, without OpenSSL's decoder and its
/// allocations. 1 on success, 0 if `der` is not a P-256 signature as OpenSSL writes one.
static int asv_der_signature_to_raw(const uint8_t *der, size_t length, uint8_t out[64]) {
    if (length < 8 || length > 72 || der[0] != 0x30 || (size_t)der[1] != length - 2) return 0;
    const uint8_t *cursor = der + 2;
    const uint8_t *end = der + length;
    return asv_der_scalar(&cursor, end, out) && asv_der_scalar(&cursor, end, out + 32) && cursor == end;
}

EVP_PKEY_CTX *asv_sign_context_new(EVP_PKEY *key, asv_error *err) {
    asv_error_begin(err);
    if (key == NULL || asv_pkey_kind(key) != ASV_KEY_EC_P256) {
        asv_error_fail(err, "the signing key is not a P-256 key");
        return NULL;
    }
    EVP_PKEY_CTX *context = EVP_PKEY_CTX_new(key, NULL);
    if (context == NULL || EVP_PKEY_sign_init(context) != 1) {
        asv_error_fail(err, "cannot set up ECDSA signing");
        EVP_PKEY_CTX_free(context);
        return NULL;
    }
    return context;
}

void asv_sign_context_free(EVP_PKEY_CTX *context) { EVP_PKEY_CTX_free(context); }

int asv_ecdsa_p256_sign(EVP_PKEY *key, EVP_PKEY_CTX *context, const void *message, size_t message_length,
                        int encoding, uint8_t *out, size_t capacity, size_t *out_length, asv_error *err) {
    uint8_t digest[32];
    if (asv_sha256(message, message_length, digest) != 1) {
        asv_error_begin(err);
        *out_length = 0;
        asv_error_fail(err, "SHA-256 failed");
        return -1;
    }
    int result = asv_ecdsa_p256_sign_digest(key, context, digest, encoding, out, capacity, out_length, err);
    OPENSSL_cleanse(digest, sizeof(digest));
    return result;
}

int asv_ecdsa_p256_sign_digest(EVP_PKEY *key, EVP_PKEY_CTX *context, const uint8_t digest[32],
                               int encoding, uint8_t *out, size_t capacity, size_t *out_length, asv_error *err) {
    asv_error_begin(err);
    *out_length = 0;
    // A context was made for its key by asv_sign_context_new, which checked the key (checked
    // again below: it must be this key); without one, the key is checked here.
    if (key == NULL || (context == NULL && asv_pkey_kind(key) != ASV_KEY_EC_P256)) {
        asv_error_fail(err, "the signing key is not a P-256 key");
        return 0;
    }
    if (encoding != ASV_SIGNATURE_RAW && encoding != ASV_SIGNATURE_DER) {
        asv_error_fail(err, "unknown signature encoding %d", encoding);
        return 0;
    }
    size_t needed = encoding == ASV_SIGNATURE_RAW ? 64 : 72;
    if (out == NULL || capacity < needed) {
        asv_error_fail(err, "the signature buffer holds %zu bytes, %zu are needed", capacity, needed);
        return 0;
    }
    if (context != NULL && EVP_PKEY_CTX_get0_pkey(context) != key) {
        asv_error_fail(err, "the signing context was made for another key");
        return 0;
    }

    // DER ECDSA-Sig-Value: SEQUENCE { INTEGER r, INTEGER s }, at most 2 + 2 * 35 = 72 bytes for P-256.
    uint8_t der[80];
    size_t der_length = sizeof(der);
    int result = -1;
    EVP_PKEY_CTX *own = NULL;
    if (context == NULL) {
        own = asv_sign_context_new(key, err);
        if (own == NULL) {
            goto done;
        }
        context = own;
    }
    if (EVP_PKEY_sign(context, der, &der_length, digest, 32) != 1 || der_length > 72) {
        asv_error_fail(err, "ECDSA-SHA256 signing failed");
        goto done;
    }
    if (encoding == ASV_SIGNATURE_DER) {
        memcpy(out, der, der_length);
        *out_length = der_length;
        result = 1;
        goto done;
    }
    if (!asv_der_signature_to_raw(der, der_length, out)) {
        asv_error_fail(err, "OpenSSL's DER signature cannot be read back");
        goto done;
    }
    *out_length = 64;
    result = 1;

done:
    EVP_PKEY_CTX_free(own);
    OPENSSL_cleanse(der, sizeof(der));
    if (result == 1) {
        ERR_clear_error();
    }
    return result;
}

// MARK: - Public key

int asv_pkey_public_spki_der(EVP_PKEY *key, uint8_t *out, size_t capacity, size_t *out_length, asv_error *err) {
    asv_error_begin(err);
    *out_length = 0;
    if (key == NULL) {
        asv_error_fail(err, "no key");
        return -1;
    }
    unsigned char *der = NULL;
    int length = i2d_PUBKEY(key, &der);
    if (length <= 0 || der == NULL) {
        asv_error_fail(err, "cannot encode the public key as a SubjectPublicKeyInfo");
        OPENSSL_free(der);
        return -1;
    }
    *out_length = (size_t)length;
    if (out == NULL || capacity < (size_t)length) {
        OPENSSL_free(der);
        asv_error_fail(err, "the buffer holds %zu bytes, the public key needs %d", capacity, length);
        return 0;
    }
    memcpy(out, der, (size_t)length);
    OPENSSL_free(der);
    ERR_clear_error();
    return 1;
}
