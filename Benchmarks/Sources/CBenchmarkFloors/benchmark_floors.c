#include "benchmark_floors.h"
#include <openssl/bn.h>
#include <openssl/ec.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/pkcs7.h>
#include <openssl/sha.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>
#include <stdlib.h>
#include <string.h>

struct bf_jws {
    X509 *leaf;
    EVP_PKEY *intermediate_key;
    unsigned char *leaf_der;
    size_t leaf_der_length;
    unsigned char *input;
    size_t input_length;
    unsigned char *der_signature;
    size_t der_signature_length;
    unsigned char digest[32];
    EVP_PKEY_CTX *digest_context;
};

static X509 *parse_certificate(const uint8_t *der, size_t length) {
    const unsigned char *cursor = der;
    return d2i_X509(NULL, &cursor, (long)length);
}

bf_jws *bf_jws_new(const uint8_t *leaf, size_t leaf_length, const uint8_t *intermediate, size_t intermediate_length,
                   const uint8_t *signing_input, size_t signing_input_length, const uint8_t *signature, size_t signature_length) {
    if (signature_length != 64) return NULL;
    bf_jws *jws = calloc(1, sizeof(bf_jws));
    if (jws == NULL) return NULL;
    X509 *issuer = parse_certificate(intermediate, intermediate_length);
    jws->leaf = parse_certificate(leaf, leaf_length);
    if (issuer != NULL) {
        jws->intermediate_key = X509_get_pubkey(issuer);
        X509_free(issuer);
    }
    jws->leaf_der = malloc(leaf_length);
    jws->input = malloc(signing_input_length);
    ECDSA_SIG *sig = ECDSA_SIG_new();
    BIGNUM *r = BN_bin2bn(signature, 32, NULL), *s = BN_bin2bn(signature + 32, 32, NULL);
    int ok = jws->leaf != NULL && jws->intermediate_key != NULL && jws->leaf_der != NULL && jws->input != NULL && sig != NULL
        && r != NULL && s != NULL && ECDSA_SIG_set0(sig, r, s) == 1;
    if (ok) {
        r = s = NULL;
        unsigned char *out = NULL;
        int length = i2d_ECDSA_SIG(sig, &out);
        ok = length > 0;
        jws->der_signature = out;
        jws->der_signature_length = ok ? (size_t)length : 0;
    }
    BN_free(r);
    BN_free(s);
    ECDSA_SIG_free(sig);
    if (ok) {
        memcpy(jws->leaf_der, leaf, leaf_length);
        jws->leaf_der_length = leaf_length;
        memcpy(jws->input, signing_input, signing_input_length);
        jws->input_length = signing_input_length;
        SHA256(jws->input, jws->input_length, jws->digest);
        jws->digest_context = EVP_PKEY_CTX_new(X509_get0_pubkey(jws->leaf), NULL);
        ok = jws->digest_context != NULL && EVP_PKEY_verify_init(jws->digest_context) == 1;
    }
    if (!ok) {
        bf_jws_free(jws);
        return NULL;
    }
    return jws;
}

void bf_jws_free(bf_jws *jws) {
    if (jws == NULL) return;
    X509_free(jws->leaf);
    EVP_PKEY_free(jws->intermediate_key);
    EVP_PKEY_CTX_free(jws->digest_context);
    free(jws->leaf_der);
    free(jws->input);
    OPENSSL_free(jws->der_signature);
    free(jws);
}

int bf_jws_verify_es256(bf_jws *jws) {
    EVP_MD_CTX *context = EVP_MD_CTX_new();
    int ok = context != NULL && EVP_DigestVerifyInit(context, NULL, EVP_sha256(), NULL, X509_get0_pubkey(jws->leaf)) == 1
        && EVP_DigestVerify(context, jws->der_signature, jws->der_signature_length, jws->input, jws->input_length) == 1;
    EVP_MD_CTX_free(context);
    return ok;
}

int bf_jws_verify_es256_digest(bf_jws *jws) {
    return EVP_PKEY_verify(jws->digest_context, jws->der_signature, jws->der_signature_length, jws->digest, sizeof jws->digest) == 1;
}

int bf_jws_verify_leaf_certificate(bf_jws *jws) {
    return X509_verify(jws->leaf, jws->intermediate_key) == 1;
}

int bf_jws_parse_and_verify_leaf_certificate(bf_jws *jws) {
    X509 *leaf = parse_certificate(jws->leaf_der, jws->leaf_der_length);
    int ok = leaf != NULL && X509_verify(leaf, jws->intermediate_key) == 1;
    X509_free(leaf);
    return ok;
}

struct bf_receipt {
    PKCS7 *pkcs7;
    X509 *signer;
    EVP_PKEY *intermediate_key;
};

bf_receipt *bf_receipt_new(const uint8_t *der, size_t length) {
    bf_receipt *receipt = calloc(1, sizeof(bf_receipt));
    if (receipt == NULL) return NULL;
    const unsigned char *cursor = der;
    receipt->pkcs7 = d2i_PKCS7(NULL, &cursor, (long)length);
    STACK_OF(X509) *certificates = receipt->pkcs7 != NULL && PKCS7_type_is_signed(receipt->pkcs7) ? receipt->pkcs7->d.sign->cert : NULL;
    STACK_OF(X509) *signers = receipt->pkcs7 != NULL ? PKCS7_get0_signers(receipt->pkcs7, NULL, 0) : NULL;
    if (signers != NULL && sk_X509_num(signers) == 1) {
        receipt->signer = sk_X509_value(signers, 0);
        X509_up_ref(receipt->signer);
    }
    sk_X509_free(signers);
    for (int index = 0; receipt->signer != NULL && certificates != NULL && index < sk_X509_num(certificates); index++) {
        X509 *candidate = sk_X509_value(certificates, index);
        if (candidate != receipt->signer && X509_check_issued(candidate, receipt->signer) == X509_V_OK) {
            receipt->intermediate_key = X509_get_pubkey(candidate);
            break;
        }
    }
    if (receipt->signer == NULL || receipt->intermediate_key == NULL) {
        bf_receipt_free(receipt);
        return NULL;
    }
    return receipt;
}

void bf_receipt_free(bf_receipt *receipt) {
    if (receipt == NULL) return;
    PKCS7_free(receipt->pkcs7);
    X509_free(receipt->signer);
    EVP_PKEY_free(receipt->intermediate_key);
    free(receipt);
}

int bf_receipt_verify_signature(bf_receipt *receipt) {
    return PKCS7_verify(receipt->pkcs7, NULL, NULL, NULL, NULL, PKCS7_NOVERIFY | PKCS7_NOCHAIN | PKCS7_BINARY) == 1;
}

int bf_receipt_verify_leaf_certificate(bf_receipt *receipt) {
    return X509_verify(receipt->signer, receipt->intermediate_key) == 1;
}

struct bf_signer {
    EVP_PKEY *key;
    EVP_PKEY_CTX *context;
};

bf_signer *bf_signer_new(const char *pem, size_t length) {
    bf_signer *signer = calloc(1, sizeof(bf_signer));
    if (signer == NULL) return NULL;
    BIO *bio = BIO_new_mem_buf(pem, (int)length);
    signer->key = bio != NULL ? PEM_read_bio_PrivateKey(bio, NULL, NULL, NULL) : NULL;
    BIO_free(bio);
    signer->context = signer->key != NULL ? EVP_PKEY_CTX_new(signer->key, NULL) : NULL;
    if (signer->context == NULL || EVP_PKEY_sign_init(signer->context) != 1) {
        bf_signer_free(signer);
        return NULL;
    }
    return signer;
}

void bf_signer_free(bf_signer *signer) {
    if (signer == NULL) return;
    EVP_PKEY_CTX_free(signer->context);
    EVP_PKEY_free(signer->key);
    free(signer);
}

int bf_signer_sign(bf_signer *signer, const uint8_t *message, size_t length) {
    unsigned char digest[32], signature[80];
    size_t signature_length = sizeof signature;
    SHA256(message, length, digest);
    return EVP_PKEY_sign(signer->context, signature, &signature_length, digest, sizeof digest) == 1;
}
