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
X509 *asv_x509_from_der(const void *der, size_t length, asv_error *err);
void asv_x509_free(X509 *cert);

/// 1 if `cert` carries an extension with the given dotted OID, 0 if not, -1 on error.
int asv_x509_has_extension(const X509 *cert, const char *dotted_oid, asv_error *err);

/// The validity window, as seconds since 1970. 1 on success, 0 when the dates cannot be read, -1 on
/// an internal error.
int asv_x509_validity(const X509 *cert, int64_t *not_before, int64_t *not_after, asv_error *err);

/// The subject as a one-line RFC 2253 string (truncated to fit). Returns the length written.
size_t asv_x509_subject(const X509 *cert, char *buffer, size_t capacity);

/// The certificate's public key (a new reference; free with asv_pkey_free).
EVP_PKEY *asv_x509_public_key(const X509 *cert, asv_error *err);

/// 1 if `cert`'s signature verifies under `issuer_key`, 0 if not, -1 on error.
int asv_x509_signature_verifies(const X509 *cert, EVP_PKEY *issuer_key, asv_error *err);

// MARK: - Keys

/// The kinds of public key the Swift side tells apart.
typedef enum asv_key_kind {
    /// Neither an elliptic-curve nor an RSA key.
    ASV_KEY_OTHER = 0,
    /// An EC key on P-256 (prime256v1), the ES256 curve.
    ASV_KEY_EC_P256 = 1,
    /// An EC key on P-384 (secp384r1).
    ASV_KEY_EC_P384 = 2,
    /// An EC key on another curve.
    ASV_KEY_EC_OTHER = 3,
    /// An RSA key (`asv_pkey_bits` gives its modulus size).
    ASV_KEY_RSA = 4,
} asv_key_kind;

/// Parses exactly one DER SubjectPublicKeyInfo. Trailing bytes are an error.
EVP_PKEY *asv_pkey_from_spki_der(const void *der, size_t length, asv_error *err);

/// What kind of key `key` is (for EC keys: which curve).
asv_key_kind asv_pkey_kind(const EVP_PKEY *key);
/// The key's size in bits (the modulus for RSA, the group order for EC), 0 when unknown.
int asv_pkey_bits(const EVP_PKEY *key);
void asv_pkey_free(EVP_PKEY *key);

// MARK: - Trust store and path validation

X509_STORE *asv_store_new(asv_error *err);
/// Adds a trusted root. 1 on success, -1 on error.
int asv_store_add_root(X509_STORE *store, X509 *root, asv_error *err);
void asv_store_free(X509_STORE *store);

/// One path validation asked of OpenSSL's `X509_verify_cert`.
typedef struct asv_chain_request {
    /// The anchors: trusted roots, or (with `partial_chain`) an already-validated intermediate.
    X509_STORE *store;
    /// The certificate whose path is validated.
    X509 *leaf;
    /// Untrusted certificates OpenSSL may use to build the path (the JWS's intermediate).
    X509 *const *untrusted;
    size_t untrusted_count;
    /// The instant of validation, in seconds since 1970.
    int64_t at_time;
    /// Nonzero: OpenSSL's strict X.509 checks (X509_V_FLAG_X509_STRICT).
    int strict;
    /// Nonzero: X509_V_FLAG_PARTIAL_CHAIN, so that a store holding a validated intermediate (not a
    /// self-signed root) anchors the path. Zero: only a complete chain to a root in `store` passes.
    int partial_chain;
} asv_chain_request;

/// Why a path validation failed, grouped the way messages explain it.
typedef enum asv_chain_failure {
    /// The path is valid.
    ASV_CHAIN_OK = 0,
    /// A certificate is not valid at the instant (X509_V_ERR_CERT_NOT_YET_VALID, _HAS_EXPIRED).
    ASV_CHAIN_OUTSIDE_VALIDITY = 1,
    /// The path leads to no trusted anchor (X509_V_ERR_UNABLE_TO_GET_ISSUER_CERT(_LOCALLY),
    /// _SELF_SIGNED_CERT_IN_CHAIN, _UNABLE_TO_VERIFY_LEAF_SIGNATURE).
    ASV_CHAIN_UNTRUSTED = 2,
    /// Any other OpenSSL verification error (signature, extensions, strict-mode rules, ...).
    ASV_CHAIN_OTHER = 3,
} asv_chain_failure;

/// What a path validation found.
typedef struct asv_chain_report {
    /// On failure: which group the error belongs to; ASV_CHAIN_OK on success.
    asv_chain_failure failure;
    /// On failure: OpenSSL's X509_V_ERR_* code and the depth of the failing certificate (0 = leaf).
    int x509_error;
    int depth;
    /// On success: the length of the path OpenSSL built, anchor included.
    size_t chain_length;
    /// On success: bit i is set when the path's i-th certificate is the i-th input (leaf, then
    /// untrusted[0], ...), compared by content.
    uint32_t chain_matches_input;
    /// On success: [valid_from, valid_until), seconds since 1970, in which every certificate of the
    /// path is within its validity period (OpenSSL treats a certificate as expired from its notAfter
    /// second on); [issuers_valid_from, issuers_valid_until) the same without the leaf.
    int64_t valid_from;
    int64_t valid_until;
    int64_t issuers_valid_from;
    int64_t issuers_valid_until;
} asv_chain_report;

/// Runs the path validation `request` describes and fills `report`.
/// Returns 1 when the path is valid, 0 when it is not (report->failure, ->x509_error and ->depth say
/// why and where; err holds OpenSSL's message), -1 on an internal error (err says what).
int asv_verify_chain(const asv_chain_request *request, asv_chain_report *report, asv_error *err);

// MARK: - ES256

/// Verifies a JOSE ES256 signature: `signature` is the raw big-endian r || s (exactly 64 bytes,
/// r and s each in [1, n-1]) over SHA-256(`message`), under the P-256 `key`.
/// 1 valid, 0 invalid (reason in err), -1 internal error.
int asv_es256_verify(EVP_PKEY *key, const void *message, size_t message_length,
                     const void *signature, size_t signature_length, asv_error *err);

/// The same check over a SHA-256 digest computed by the caller (32 bytes).
/// 1 valid, 0 invalid (reason in err), -1 internal error.
int asv_es256_verify_digest(EVP_PKEY *key, const uint8_t digest[32], const void *signature,
                            size_t signature_length, asv_error *err);

// MARK: - Digests

/// SHA-256 of `data` into `out` (32 bytes). 1 on success, -1 when OpenSSL failed.
int asv_sha256(const void *data, size_t length, uint8_t out[32]);
/// SHA-384 of `data` into `out` (48 bytes). 1 on success, -1 when OpenSSL failed.
int asv_sha384(const void *data, size_t length, uint8_t out[48]);
/// SHA-1 of `data` into `out` (20 bytes). 1 on success, -1 when OpenSSL failed.
int asv_sha1(const void *data, size_t length, uint8_t out[20]);

/// A SHA-256 computation that has absorbed a prefix and can be finished many times with different
/// suffixes (the midstate of a JWS header shared by every JWS of one chain). Immutable once made:
/// finishing copies it, so one state serves concurrent callers.
typedef struct asv_sha256_prefix asv_sha256_prefix;

/// Absorbs `prefix`. NULL when OpenSSL failed (reason in err).
asv_sha256_prefix *asv_sha256_prefix_new(const void *prefix, size_t length, asv_error *err);
/// SHA-256(prefix || suffix) into `out`. 1 on success, -1 when OpenSSL failed.
int asv_sha256_prefix_finish(const asv_sha256_prefix *state, const void *suffix, size_t length,
                             uint8_t out[32]);
void asv_sha256_prefix_free(asv_sha256_prefix *state);

/// The OpenSSL version string the shim runs against, e.g. "OpenSSL 3.0.19 27 Jan 2026".
const char *asv_openssl_version(void);

#ifdef __cplusplus
}
#endif

// PKCS#7 SignedData for legacy app receipts.
#include "asv_pkcs7.h"
// OCSP: the responder URL, requests and the check of responses (asv_ocsp.c).
#include "asv_ocsp.h"
// Signing: P-256 private keys from PEM, ECDSA-SHA256 signatures (asv_sign.c).
#include "asv_sign.h"
// Minting a test PKI for AppStoreVerificationTesting (asv_mint.c).
#include "asv_mint.h"

#endif
