// Signing with a P-256 private key: loading it from PEM, ECDSA-SHA256 signatures (JOSE raw r || s,
// or DER), and its public key as a SubjectPublicKeyInfo.
//
// Same conventions as asv_error.h: each function clears OpenSSL's error queue when it starts,
// frees every object it allocates on every path, and carries OpenSSL's error strings into
// `asv_error`. No function ever writes key material into `asv_error` or anywhere else.
// Return convention: 1 = success, 0 = a definite refusal (the reason is in the out-parameter and in
// `err`), -1 = OpenSSL failed internally (the reason is in `err`).
#ifndef ASV_SIGN_H
#define ASV_SIGN_H

#include <stddef.h>
#include <stdint.h>

#include "asv_error.h"

#ifdef __cplusplus
extern "C" {
#endif

/// Why a PEM text is not a usable signing key (`asv_private_key_from_pem`'s `failure`).
/// The key was loaded.
#define ASV_PRIVATE_KEY_OK 0
/// No PEM private key could be read: not PEM, a damaged PEM block, or no private key in it.
#define ASV_PRIVATE_KEY_MALFORMED 1
/// The PEM private key is encrypted (a password would be needed; none is ever asked for).
#define ASV_PRIVATE_KEY_ENCRYPTED 2
/// A private key, but not an elliptic-curve key on P-256 (RSA, P-384, Ed25519, ...).
#define ASV_PRIVATE_KEY_NOT_P256 3
/// A P-256 key that fails OpenSSL's full key check (EVP_PKEY_check): a private scalar outside
/// 1 ... n-1, a public point off the curve, or a public key that is not the private scalar times G.
#define ASV_PRIVATE_KEY_INVALID 4

/// Loads a private key from `length` bytes of PEM text: PKCS#8 (`-----BEGIN PRIVATE KEY-----`, as
/// App Store Connect's .p8 files) or SEC1 (`-----BEGIN EC PRIVATE KEY-----`). Encrypted keys are
/// refused without prompting (the password callback fails), and so is a P-256 key that fails
/// EVP_PKEY_check (ASV_PRIVATE_KEY_INVALID): its signatures would verify under no key. On 1, `*out` receives the key (free
/// with asv_pkey_free); otherwise `*out` is NULL and `*failure` says why (ASV_PRIVATE_KEY_*).
int asv_private_key_from_pem(const void *pem, size_t length, EVP_PKEY **out, int *failure, asv_error *err);

/// The encodings of an ECDSA signature.
/// JOSE (RFC 7518 section 3.4): big-endian r || s, 32 bytes each, 64 in all.
#define ASV_SIGNATURE_RAW 0
/// DER ECDSA-Sig-Value: SEQUENCE { INTEGER r, INTEGER s }, at most 72 bytes.
#define ASV_SIGNATURE_DER 1

typedef struct evp_pkey_ctx_st EVP_PKEY_CTX;

/// A signing context for `key`, set up once (OpenSSL 3 fetches the algorithm and exports the key
/// to its provider when a context is made, which costs about a third of a signature) and reused by
/// asv_ecdsa_p256_sign. Not for two threads at once. It holds a reference to `key`: free it with
/// asv_sign_context_free before or with the key. NULL when OpenSSL failed (reason in `err`).
EVP_PKEY_CTX *asv_sign_context_new(EVP_PKEY *key, asv_error *err);
void asv_sign_context_free(EVP_PKEY_CTX *context);

/// Signs SHA-256(`message`) with the P-256 private `key` (ECDSA, randomized) and writes the
/// signature in `encoding` (ASV_SIGNATURE_RAW or _DER) into `out` of `capacity` bytes (72 is
/// always enough); `*out_length` receives its length. `context` is one asv_sign_context_new made
/// for `key`, in use by no other thread, or NULL for a context of this call alone. 1 on success, 0
/// when the key is not a P-256 private key or `capacity` is too small, -1 when OpenSSL failed.
int asv_ecdsa_p256_sign(EVP_PKEY *key, EVP_PKEY_CTX *context, const void *message, size_t message_length,
                        int encoding, uint8_t *out, size_t capacity, size_t *out_length, asv_error *err);

/// As asv_ecdsa_p256_sign, for a message whose SHA-256 `digest` the caller computed (with
/// asv_sha256_prefix_finish, say, when many messages share a long prefix such as a JWS header).
int asv_ecdsa_p256_sign_digest(EVP_PKEY *key, EVP_PKEY_CTX *context, const uint8_t digest[32],
                               int encoding, uint8_t *out, size_t capacity, size_t *out_length, asv_error *err);
/// Writes the DER SubjectPublicKeyInfo of `key`'s public key into `out`; `*out_length` receives
/// its length (when `capacity` is too small, the length needed, and the function returns 0).
/// 1 on success, -1 when OpenSSL failed.
int asv_pkey_public_spki_der(EVP_PKEY *key, uint8_t *out, size_t capacity, size_t *out_length, asv_error *err);

#ifdef __cplusplus
}
#endif

#endif
