// A thin shim over OpenSSL 3 for App Store signed-data verification.
//
// Swift calls a few coarse functions; each one clears OpenSSL's error queue when it starts, frees
// every object it allocates on every path, and on failure writes what OpenSSL said into an
// `asv_error` so the message reaches the Swift error. The queue is always empty when a function
// returns, so one call's failure never leaks into the next call's message.
//
// Return convention: 1 = yes / success, 0 = no / a definite "invalid" verdict (the reason is in
// `err`), -1 = OpenSSL failed internally (allocation, ...; the reason is in `err`).
#ifndef ASV_OPENSSL_H
#define ASV_OPENSSL_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

// OpenSSL's own opaque types (the same typedefs as <openssl/types.h>), so that Swift sees them as
// opaque pointers without importing all of OpenSSL.
typedef struct x509_st X509;
typedef struct x509_store_st X509_STORE;
typedef struct evp_pkey_st EVP_PKEY;

/// A failure description filled in by the shim.
typedef struct asv_error {
    /// What failed, NUL-terminated; empty when nothing did.
    char message[512];
    /// For path validation failures: OpenSSL's X509_V_ERR_* code, else 0.
    int x509_error;
    /// For path validation failures: the depth of the certificate that failed (0 = leaf), else -1.
    int depth;
} asv_error;

// MARK: - Certificates

/// Parses exactly one DER certificate. Trailing bytes after the certificate are an error.
X509 *asv_x509_from_der(const uint8_t *der, size_t length, asv_error *err);
void asv_x509_free(X509 *cert);

/// 1 if `cert` carries an extension with the given dotted OID, 0 if not, -1 on error.
int asv_x509_has_extension(const X509 *cert, const char *dotted_oid, asv_error *err);

/// The validity window, as seconds since 1970. 1 on success.
int asv_x509_validity(const X509 *cert, int64_t *not_before, int64_t *not_after, asv_error *err);

/// The subject as a one-line RFC 2253 string (truncated to fit). Returns the length written.
size_t asv_x509_subject(const X509 *cert, char *buffer, size_t capacity);

/// The certificate's public key (a new reference; free with asv_pkey_free).
EVP_PKEY *asv_x509_public_key(const X509 *cert, asv_error *err);

/// 1 if `cert`'s signature verifies under `issuer_key`, 0 if not, -1 on error.
int asv_x509_signature_verifies(const X509 *cert, EVP_PKEY *issuer_key, asv_error *err);

// MARK: - Keys

/// Parses exactly one DER SubjectPublicKeyInfo. Trailing bytes are an error.
EVP_PKEY *asv_pkey_from_spki_der(const uint8_t *der, size_t length, asv_error *err);

/// The key's elliptic curve as an OpenSSL NID (NID_X9_62_prime256v1 = 415 for P-256,
/// NID_secp384r1 = 715 for P-384), or 0 when it is not an EC key.
int asv_pkey_curve_nid(EVP_PKEY *key);
void asv_pkey_free(EVP_PKEY *key);

// MARK: - Trust store and path validation

X509_STORE *asv_store_new(asv_error *err);
/// Adds a trusted root. 1 on success.
int asv_store_add_root(X509_STORE *store, X509 *root, asv_error *err);
void asv_store_free(X509_STORE *store);

/// Validates the path `leaf` -> `untrusted[0..<untrusted_count]` -> a certificate in `store` with
/// `X509_verify_cert`, at `at_time` (seconds since 1970).
///
/// `strict` sets X509_V_FLAG_X509_STRICT. `partial_chain` sets X509_V_FLAG_PARTIAL_CHAIN, so that a
/// store holding an already-validated intermediate (not a self-signed root) can anchor the path;
/// without it only a complete chain to a root in `store` is accepted.
///
/// On success `chain_length` receives the length of the chain OpenSSL built (anchor included),
/// bit i of `chain_matches_input` is set when the chain's i-th certificate is the i-th input (leaf,
/// then untrusted[0], ...) compared by content, [`valid_from`, `valid_until`) receives the window,
/// in seconds since 1970, in which every certificate of the chain is within its validity period
/// (OpenSSL treats a certificate as expired from its notAfter second on), and
/// [`issuers_valid_from`, `issuers_valid_until`) the same window for the chain without the leaf.
/// Returns 1 when the path is valid, 0 when it is not (err->x509_error and err->depth say why and
/// where), -1 on an internal error.
int asv_verify_chain(X509_STORE *store, X509 *leaf, X509 *const *untrusted, size_t untrusted_count,
                     int64_t at_time, int strict, int partial_chain, size_t *chain_length,
                     uint32_t *chain_matches_input, int64_t *valid_from, int64_t *valid_until,
                     int64_t *issuers_valid_from, int64_t *issuers_valid_until, asv_error *err);

// MARK: - ES256

/// Verifies a JOSE ES256 signature: `signature` is the raw big-endian r || s (exactly 64 bytes,
/// r and s each in [1, n-1]) over SHA-256(`message`), under the P-256 `key`.
/// 1 valid, 0 invalid (reason in err), -1 internal error.
int asv_es256_verify(EVP_PKEY *key, const uint8_t *message, size_t message_length,
                     const uint8_t *signature, size_t signature_length, asv_error *err);

// MARK: - Digests

/// SHA-256 of `data` into `out` (32 bytes). 1 on success.
int asv_sha256(const uint8_t *data, size_t length, uint8_t out[32]);
/// SHA-384 of `data` into `out` (48 bytes). 1 on success.
int asv_sha384(const uint8_t *data, size_t length, uint8_t out[48]);

/// The OpenSSL version string the shim runs against, e.g. "OpenSSL 3.0.19 27 Jan 2026".
const char *asv_openssl_version(void);

#ifdef __cplusplus
}
#endif

// OCSP: the responder URL, requests and the check of responses (asv_ocsp.c).
#include "asv_ocsp.h"

#endif
