// A thin shim over OpenSSL 3: see include/asv_openssl.h for the contract of each function.
#include "asv_internal.h"
#include "asv_openssl.h"

#include <limits.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/bio.h>
#include <openssl/core_names.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/objects.h>
#include <openssl/opensslv.h>
#include <openssl/x509.h>
#include <openssl/x509_vfy.h>
#include <openssl/x509v3.h>

#if !defined(OPENSSL_VERSION_MAJOR) || OPENSSL_VERSION_MAJOR < 3 || defined(LIBRESSL_VERSION_NUMBER)
#error "OpenSSL 3 or later is required, and an older OpenSSL (or LibreSSL) was found. Debian/Ubuntu: sudo apt-get install libssl-dev (Debian 12, Ubuntu 22.04 or later); Fedora/RHEL/Amazon Linux: sudo dnf install openssl-devel (RHEL 9, Amazon Linux 2023 or later); macOS: brew install openssl@3, then export PKG_CONFIG_PATH=\"$(brew --prefix openssl@3)/lib/pkgconfig\" (README: Install OpenSSL 3)"
#endif

// MARK: - Digests

static pthread_once_t asv_digests_once = PTHREAD_ONCE_INIT;
static EVP_MD *asv_sha256_md = NULL;
static EVP_MD *asv_sha384_md = NULL;
static EVP_MD *asv_sha1_md = NULL;

/// Fetches the digest implementations once, instead of on every call.
static void asv_fetch_digests(void) {
    asv_sha256_md = EVP_MD_fetch(NULL, "SHA256", NULL);
    asv_sha384_md = EVP_MD_fetch(NULL, "SHA384", NULL);
    asv_sha1_md = EVP_MD_fetch(NULL, "SHA1", NULL);
    ERR_clear_error();
}

/// The fetched implementation of `fallback`'s algorithm, or `fallback` itself.
static const EVP_MD *asv_md(const EVP_MD *fetched, const EVP_MD *fallback) {
    return fetched != NULL ? fetched : fallback;
}

static int asv_digest(const EVP_MD *md, const void *data, size_t length, uint8_t *out) {
    unsigned int out_length = 0;
    int ok = md != NULL && EVP_Digest(data, length, out, &out_length, md, NULL) == 1;
    ERR_clear_error();
    return ok ? 1 : -1;
}

int asv_sha256(const void *data, size_t length, uint8_t out[32]) {
    pthread_once(&asv_digests_once, asv_fetch_digests);
    return asv_digest(asv_md(asv_sha256_md, EVP_sha256()), data, length, out);
}

int asv_sha384(const void *data, size_t length, uint8_t out[48]) {
    pthread_once(&asv_digests_once, asv_fetch_digests);
    return asv_digest(asv_md(asv_sha384_md, EVP_sha384()), data, length, out);
}

int asv_sha1(const void *data, size_t length, uint8_t out[20]) {
    pthread_once(&asv_digests_once, asv_fetch_digests);
    return asv_digest(asv_md(asv_sha1_md, EVP_sha1()), data, length, out);
}

struct asv_sha256_prefix {
    EVP_MD_CTX *context;
};

asv_sha256_prefix *asv_sha256_prefix_new(const void *prefix, size_t length, asv_error *err) {
    asv_error_begin(err);
    pthread_once(&asv_digests_once, asv_fetch_digests);
    asv_sha256_prefix *state = calloc(1, sizeof(asv_sha256_prefix));
    if (state == NULL) {
        asv_error_fail(err, "cannot allocate a SHA-256 state");
        return NULL;
    }
    state->context = EVP_MD_CTX_new();
    if (state->context == NULL ||
        EVP_DigestInit_ex(state->context, asv_md(asv_sha256_md, EVP_sha256()), NULL) != 1 ||
        EVP_DigestUpdate(state->context, prefix, length) != 1) {
        asv_error_fail(err, "cannot start a SHA-256 computation");
        asv_sha256_prefix_free(state);
        return NULL;
    }
    return state;
}

/// One scratch digest context per thread, reused by every finish on that thread.
static pthread_key_t asv_scratch_md_key;
static pthread_once_t asv_scratch_md_once = PTHREAD_ONCE_INIT;

static void asv_free_md_context(void *context) { EVP_MD_CTX_free((EVP_MD_CTX *)context); }
static void asv_make_scratch_md_key(void) { (void)pthread_key_create(&asv_scratch_md_key, asv_free_md_context); }

static EVP_MD_CTX *asv_scratch_md_context(void) {
    pthread_once(&asv_scratch_md_once, asv_make_scratch_md_key);
    EVP_MD_CTX *context = pthread_getspecific(asv_scratch_md_key);
    if (context == NULL) {
        context = EVP_MD_CTX_new();
        if (context != NULL && pthread_setspecific(asv_scratch_md_key, context) != 0) {
            EVP_MD_CTX_free(context);
            context = NULL;
        }
    }
    return context;
}

int asv_sha256_prefix_finish(const asv_sha256_prefix *state, const void *suffix, size_t length,
                             uint8_t out[32]) {
    EVP_MD_CTX *scratch = asv_scratch_md_context();
    unsigned int out_length = 0;
    int ok = scratch != NULL && state != NULL && EVP_MD_CTX_copy_ex(scratch, state->context) == 1 &&
             EVP_DigestUpdate(scratch, suffix, length) == 1 &&
             EVP_DigestFinal_ex(scratch, out, &out_length) == 1 && out_length == 32;
    ERR_clear_error();
    return ok ? 1 : -1;
}

void asv_sha256_prefix_free(asv_sha256_prefix *state) {
    if (state == NULL) {
        return;
    }
    EVP_MD_CTX_free(state->context);
    free(state);
}

const char *asv_openssl_version(void) { return OpenSSL_version(OPENSSL_VERSION); }

// MARK: - Certificates

X509 *asv_x509_from_der(const void *der, size_t length, asv_error *err) {
    asv_error_begin(err);
    if (der == NULL || length == 0) {
        asv_error_fail(err, "the certificate is empty");
        return NULL;
    }
    if (length > (size_t)LONG_MAX) {
        asv_error_fail(err, "the certificate is too large (%zu bytes)", length);
        return NULL;
    }
    const unsigned char *start = der;
    const unsigned char *cursor = start;
    X509 *cert = d2i_X509(NULL, &cursor, (long)length);
    if (cert == NULL) {
        asv_error_fail(err, "not a DER-encoded X.509 certificate");
        return NULL;
    }
    size_t consumed = (size_t)(cursor - start);
    if (consumed != length) {
        X509_free(cert);
        asv_error_fail(err, "%zu trailing bytes follow the certificate's DER encoding", length - consumed);
        return NULL;
    }
    return cert;
}

void asv_x509_free(X509 *cert) { X509_free(cert); }

int asv_x509_has_extension(const X509 *cert, const char *dotted_oid, asv_error *err) {
    asv_error_begin(err);
    ASN1_OBJECT *oid = OBJ_txt2obj(dotted_oid, 1);
    if (oid == NULL) {
        asv_error_fail(err, "invalid OID %s", dotted_oid);
        return -1;
    }
    int index = X509_get_ext_by_OBJ(cert, oid, -1);
    ASN1_OBJECT_free(oid);
    ERR_clear_error();
    return index >= 0 ? 1 : 0;
}

// Declared in asv_internal.h: asv_ocsp.c reads the times of OCSP responses with it too.
int64_t asv_seconds_since_1970(const ASN1_TIME *time, const ASN1_TIME *epoch, int *ok) {
    int days = 0, seconds = 0;
    if (time == NULL || ASN1_TIME_diff(&days, &seconds, epoch, time) != 1) {
        *ok = 0;
        return 0;
    }
    return (int64_t)days * 86400 + (int64_t)seconds;
}

int asv_x509_validity(const X509 *cert, int64_t *not_before, int64_t *not_after, asv_error *err) {
    asv_error_begin(err);
    ASN1_TIME *epoch = ASN1_TIME_set(NULL, 0);
    if (epoch == NULL) {
        asv_error_fail(err, "cannot allocate a time");
        return -1;
    }
    int ok = 1;
    *not_before = asv_seconds_since_1970(X509_get0_notBefore(cert), epoch, &ok);
    *not_after = asv_seconds_since_1970(X509_get0_notAfter(cert), epoch, &ok);
    ASN1_TIME_free(epoch);
    if (!ok) {
        asv_error_fail(err, "the certificate's validity dates cannot be read");
        return 0;
    }
    return 1;
}

size_t asv_x509_subject(const X509 *cert, char *buffer, size_t capacity) {
    ERR_clear_error();
    if (capacity == 0) {
        return 0;
    }
    buffer[0] = '\0';
    BIO *bio = BIO_new(BIO_s_mem());
    if (bio == NULL) {
        ERR_clear_error();
        return 0;
    }
    size_t written = 0;
    unsigned long flags = XN_FLAG_RFC2253 & ~ASN1_STRFLGS_ESC_MSB;
    if (X509_NAME_print_ex(bio, X509_get_subject_name(cert), 0, flags) >= 0) {
        int read = BIO_read(bio, buffer, (int)(capacity - 1 > INT_MAX ? INT_MAX : capacity - 1));
        if (read > 0) {
            written = (size_t)read;
        }
    }
    buffer[written] = '\0';
    BIO_free(bio);
    ERR_clear_error();
    return written;
}

EVP_PKEY *asv_x509_public_key(const X509 *cert, asv_error *err) {
    asv_error_begin(err);
    EVP_PKEY *key = X509_get_pubkey((X509 *)cert);
    if (key == NULL) {
        asv_error_fail(err, "the certificate's public key cannot be read");
    }
    return key;
}

int asv_x509_signature_verifies(const X509 *cert, EVP_PKEY *issuer_key, asv_error *err) {
    asv_error_begin(err);
    int result = X509_verify((X509 *)cert, issuer_key);
    if (result == 1) {
        return 1;
    }
    asv_error_fail(err, "the certificate's signature does not verify under the issuer's key");
    return result == 0 ? 0 : -1;
}

// MARK: - Keys

EVP_PKEY *asv_pkey_from_spki_der(const void *der, size_t length, asv_error *err) {
    asv_error_begin(err);
    if (der == NULL || length == 0 || length > (size_t)LONG_MAX) {
        asv_error_fail(err, "the public key is empty or too large");
        return NULL;
    }
    const unsigned char *start = der;
    const unsigned char *cursor = start;
    EVP_PKEY *key = d2i_PUBKEY(NULL, &cursor, (long)length);
    if (key == NULL) {
        asv_error_fail(err, "not a DER SubjectPublicKeyInfo");
        return NULL;
    }
    if ((size_t)(cursor - start) != length) {
        EVP_PKEY_free(key);
        asv_error_fail(err, "trailing bytes follow the public key's DER encoding");
        return NULL;
    }
    return key;
}

asv_key_kind asv_pkey_kind(const EVP_PKEY *key) {
    ERR_clear_error();
    if (key == NULL) {
        return ASV_KEY_OTHER;
    }
    int type = EVP_PKEY_get_base_id(key);
    if (type == EVP_PKEY_RSA) {
        return ASV_KEY_RSA;
    }
    if (type != EVP_PKEY_EC) {
        return ASV_KEY_OTHER;
    }
    char name[80];
    size_t length = 0;
    if (EVP_PKEY_get_group_name(key, name, sizeof(name), &length) != 1) {
        ERR_clear_error();
        return ASV_KEY_EC_OTHER;
    }
    int nid = OBJ_txt2nid(name);
    ERR_clear_error();
    switch (nid) {
    case NID_X9_62_prime256v1:
        return ASV_KEY_EC_P256;
    case NID_secp384r1:
        return ASV_KEY_EC_P384;
    default:
        return ASV_KEY_EC_OTHER;
    }
}

int asv_pkey_bits(const EVP_PKEY *key) {
    int bits = key == NULL ? 0 : EVP_PKEY_get_bits(key);
    ERR_clear_error();
    return bits > 0 ? bits : 0;
}

void asv_pkey_free(EVP_PKEY *key) { EVP_PKEY_free(key); }

// MARK: - Trust store and path validation

X509_STORE *asv_store_new(asv_error *err) {
    asv_error_begin(err);
    X509_STORE *store = X509_STORE_new();
    if (store == NULL) {
        asv_error_fail(err, "cannot allocate an X509_STORE");
    }
    return store;
}

int asv_store_add_root(X509_STORE *store, X509 *root, asv_error *err) {
    asv_error_begin(err);
    if (X509_STORE_add_cert(store, root) != 1) {
        asv_error_fail(err, "cannot add the root certificate to the trust store");
        return -1;
    }
    return 1;
}

void asv_store_free(X509_STORE *store) { X509_STORE_free(store); }

/// The group a path-validation error belongs to, for messages.
static asv_chain_failure asv_chain_failure_of(int x509_error) {
    switch (x509_error) {
    case X509_V_OK:
        return ASV_CHAIN_OK;
    case X509_V_ERR_CERT_NOT_YET_VALID:
    case X509_V_ERR_CERT_HAS_EXPIRED:
        return ASV_CHAIN_OUTSIDE_VALIDITY;
    case X509_V_ERR_UNABLE_TO_GET_ISSUER_CERT:
    case X509_V_ERR_UNABLE_TO_GET_ISSUER_CERT_LOCALLY:
    case X509_V_ERR_SELF_SIGNED_CERT_IN_CHAIN:
    case X509_V_ERR_UNABLE_TO_VERIFY_LEAF_SIGNATURE:
        return ASV_CHAIN_UNTRUSTED;
    default:
        return ASV_CHAIN_OTHER;
    }
}

/// Fills the report's windows and input matches from the validated `chain`. 1, or -1 on error.
static int asv_report_chain(const asv_chain_request *request, STACK_OF(X509) *chain,
                            asv_chain_report *report, asv_error *err) {
    int count = chain == NULL ? 0 : sk_X509_num(chain);
    report->chain_length = (size_t)(count < 0 ? 0 : count);
    for (int i = 0; i < count && i < 32; i++) {
        X509 *input = NULL;
        if (i == 0) {
            input = request->leaf;
        } else if ((size_t)(i - 1) < request->untrusted_count) {
            input = request->untrusted[i - 1];
        }
        if (input != NULL && X509_cmp(sk_X509_value(chain, i), input) == 0) {
            report->chain_matches_input |= (uint32_t)1 << i;
        }
    }
    for (int i = 0; i < count; i++) {
        int64_t not_before = 0, not_after = 0;
        if (asv_x509_validity(sk_X509_value(chain, i), &not_before, &not_after, NULL) != 1) {
            asv_error_fail(err, "the validity dates of the chain's certificate %d cannot be read", i);
            return -1;
        }
        if (not_before > report->valid_from) {
            report->valid_from = not_before;
        }
        if (not_after < report->valid_until) {
            report->valid_until = not_after;
        }
        if (i > 0 && not_before > report->issuers_valid_from) {
            report->issuers_valid_from = not_before;
        }
        if (i > 0 && not_after < report->issuers_valid_until) {
            report->issuers_valid_until = not_after;
        }
    }
    return 1;
}

int asv_verify_chain(const asv_chain_request *request, asv_chain_report *report, asv_error *err) {
    asv_error_begin(err);
    memset(report, 0, sizeof(*report));
    report->failure = ASV_CHAIN_OK;
    report->depth = -1;
    report->valid_from = INT64_MIN;
    report->valid_until = INT64_MAX;
    report->issuers_valid_from = INT64_MIN;
    report->issuers_valid_until = INT64_MAX;
    if (request == NULL || request->store == NULL || request->leaf == NULL ||
        (request->untrusted == NULL && request->untrusted_count > 0)) {
        asv_error_fail(err, "incomplete path validation request");
        return -1;
    }
    int result = -1;
    X509_STORE_CTX *context = NULL;
    STACK_OF(X509) *intermediates = sk_X509_new_null();
    if (intermediates == NULL) {
        asv_error_fail(err, "cannot allocate a certificate stack");
        goto done;
    }
    for (size_t i = 0; i < request->untrusted_count; i++) {
        // The stack borrows the certificates: it is freed with sk_X509_free, not pop_free.
        if (sk_X509_push(intermediates, request->untrusted[i]) <= 0) {
            asv_error_fail(err, "cannot build the intermediate certificate stack");
            goto done;
        }
    }
    context = X509_STORE_CTX_new();
    if (context == NULL || X509_STORE_CTX_init(context, request->store, request->leaf, intermediates) != 1) {
        asv_error_fail(err, "cannot set up path validation");
        goto done;
    }
    X509_VERIFY_PARAM *parameters = X509_STORE_CTX_get0_param(context);
    X509_VERIFY_PARAM_set_time(parameters, (time_t)request->at_time);
    if (request->partial_chain) {
        X509_VERIFY_PARAM_set_flags(parameters, X509_V_FLAG_PARTIAL_CHAIN);
    } else {
        X509_VERIFY_PARAM_clear_flags(parameters, X509_V_FLAG_PARTIAL_CHAIN);
    }
    if (request->strict) {
        X509_VERIFY_PARAM_set_flags(parameters, X509_V_FLAG_X509_STRICT);
    } else {
        X509_VERIFY_PARAM_clear_flags(parameters, X509_V_FLAG_X509_STRICT);
    }

    if (X509_verify_cert(context) == 1) {
        result = asv_report_chain(request, X509_STORE_CTX_get0_chain(context), report, err);
    } else {
        int code = X509_STORE_CTX_get_error(context);
        if (code == X509_V_OK) {
            asv_error_fail(err, "path validation failed");
            result = -1;
        } else {
            asv_error_fail(err, "%s", X509_verify_cert_error_string(code));
            report->failure = asv_chain_failure_of(code);
            report->x509_error = code;
            report->depth = X509_STORE_CTX_get_error_depth(context);
            if (err != NULL) {
                err->x509_error = code;
                err->depth = report->depth;
            }
            result = 0;
        }
    }

done:
    X509_STORE_CTX_free(context);
    sk_X509_free(intermediates);
    ERR_clear_error();
    return result;
}

// MARK: - ES256

/// The order n of the P-256 group, big-endian.
static const uint8_t asv_p256_order[32] = {
    0xFF, 0xFF, 0xFF, 0xFF, 0x00, 0x00, 0x00, 0x00, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF,
    0xBC, 0xE6, 0xFA, 0xAD, 0xA7, 0x17, 0x9E, 0x84, 0xF3, 0xB9, 0xCA, 0xC2, 0xFC, 0x63, 0x25, 0x51,
};

/// Whether a 32-byte big-endian scalar is in [1, n-1].
static int asv_p256_scalar_in_range(const uint8_t scalar[32]) {
    uint8_t any = 0;
    for (int i = 0; i < 32; i++) {
        any |= scalar[i];
    }
    return any != 0 && memcmp(scalar, asv_p256_order, 32) < 0;
}

/// Writes a 32-byte big-endian unsigned integer as a DER INTEGER; returns the bytes written (<= 35).
static size_t asv_der_integer(uint8_t *out, const uint8_t scalar[32]) {
    size_t start = 0;
    while (start < 31 && scalar[start] == 0) {
        start++;
    }
    size_t length = 32 - start;
    int pad = (scalar[start] & 0x80) != 0;
    out[0] = 0x02;
    out[1] = (uint8_t)(length + (size_t)pad);
    size_t offset = 2;
    if (pad) {
        out[offset++] = 0x00;
    }
    memcpy(out + offset, scalar + start, length);
    return offset + length;
}

/// One verification context per thread, kept for the last key that thread verified with: a warm
/// chain verifies every JWS under the same key, so the context is set up once, not per call. The
/// context holds a reference to its key, so the key's address cannot be reused while it is cached.
static pthread_key_t asv_verify_context_key;
static pthread_once_t asv_verify_context_once = PTHREAD_ONCE_INIT;

static void asv_free_pkey_context(void *context) { EVP_PKEY_CTX_free((EVP_PKEY_CTX *)context); }
static void asv_make_verify_context_key(void) {
    (void)pthread_key_create(&asv_verify_context_key, asv_free_pkey_context);
}

/// A verification context for `key` on this thread, initialised for EVP_PKEY_verify; NULL on error.
/// Owned by the thread: the caller must not free it.
static EVP_PKEY_CTX *asv_verify_context(EVP_PKEY *key) {
    pthread_once(&asv_verify_context_once, asv_make_verify_context_key);
    EVP_PKEY_CTX *context = pthread_getspecific(asv_verify_context_key);
    if (context != NULL && EVP_PKEY_CTX_get0_pkey(context) == key) {
        return context;
    }
    EVP_PKEY_CTX *fresh = EVP_PKEY_CTX_new(key, NULL);
    if (fresh == NULL || EVP_PKEY_verify_init(fresh) != 1 ||
        pthread_setspecific(asv_verify_context_key, fresh) != 0) {
        EVP_PKEY_CTX_free(fresh);
        return NULL;
    }
    EVP_PKEY_CTX_free(context);
    return fresh;
}

int asv_es256_verify_digest(EVP_PKEY *key, const uint8_t digest[32], const void *signature_bytes,
                            size_t signature_length, asv_error *err) {
    asv_error_begin(err);
    const uint8_t *signature = signature_bytes;
    if (signature_length != 64) {
        asv_error_fail(err, "an ES256 signature is 64 bytes (r || s), this one is %zu", signature_length);
        return 0;
    }
    if (!asv_p256_scalar_in_range(signature) || !asv_p256_scalar_in_range(signature + 32)) {
        asv_error_fail(err, "the signature's r or s is not in [1, n-1]");
        return 0;
    }
    if (key == NULL || asv_pkey_kind(key) != ASV_KEY_EC_P256) {
        asv_error_fail(err, "the signing key is not a P-256 key");
        return 0;
    }
    // DER ECDSA-Sig-Value: SEQUENCE { INTEGER r, INTEGER s }, at most 2 + 2 * 35 = 72 bytes.
    uint8_t der[72];
    size_t body = asv_der_integer(der + 2, signature);
    body += asv_der_integer(der + 2 + body, signature + 32);
    der[0] = 0x30;
    der[1] = (uint8_t)body;

    EVP_PKEY_CTX *context = asv_verify_context(key);
    if (context == NULL) {
        asv_error_fail(err, "cannot set up ECDSA verification");
        return -1;
    }
    int verified = EVP_PKEY_verify(context, der, body + 2, digest, 32);
    if (verified == 1) {
        ERR_clear_error();
        return 1;
    }
    // 0 is a mismatch; a negative value is a signature OpenSSL could not even parse. Both are an
    // invalid signature, not an internal failure: the bytes came from outside.
    asv_error_fail(err, verified == 0 ? "the ECDSA P-256 signature does not match the signing input"
                                : "the ECDSA P-256 signature cannot be checked");
    return 0;
}

int asv_es256_verify(EVP_PKEY *key, const void *message, size_t message_length,
                     const void *signature, size_t signature_length, asv_error *err) {
    uint8_t digest[32];
    if (asv_sha256(message, message_length, digest) != 1) {
        asv_error_begin(err);
        asv_error_fail(err, "SHA-256 failed");
        return -1;
    }
    return asv_es256_verify_digest(key, digest, signature, signature_length, err);
}
