// Minting a test PKI for the AppStoreVerificationTesting library: key generation, X.509 v3
// certificates, DER and PEM export, and PKCS#7 SignedData receipts. Never used to verify.
//
// Same conventions as asv_openssl.h: each function clears OpenSSL's error queue when it starts,
// frees every object it allocates on every path, and carries OpenSSL's error strings into
// `asv_error`. Return convention: 1 = success, 0 = a refused argument (the reason is in `err`),
// -1 = OpenSSL failed internally (the reason is in `err`). Buffers a function returns through
// `uint8_t **out` are allocated by OpenSSL: free them with asv_mint_buffer_free.
#ifndef ASV_MINT_H
#define ASV_MINT_H

#include <stddef.h>
#include <stdint.h>

#include "asv_error.h"

#ifdef __cplusplus
extern "C" {
#endif

/// The kinds of key asv_mint_generate_key makes.
/// An elliptic-curve key on P-256 (prime256v1), as Apple's JWS leaves and Xcode's JWS certificate.
#define ASV_MINT_KEY_P256 1
/// A 2048-bit RSA key (public exponent 65537), as Apple's receipt certificates.
#define ASV_MINT_KEY_RSA2048 2

/// Generates a new private key of `kind` (ASV_MINT_KEY_*). NULL on failure (reason in err). Free
/// with asv_pkey_free.
EVP_PKEY *asv_mint_generate_key(int kind, asv_error *err);

/// Loads any unencrypted private key (P-256 or RSA) from `length` bytes of PEM text (PKCS#8,
/// SEC1 or PKCS#1). NULL when no unencrypted private key can be read (reason in err).
EVP_PKEY *asv_mint_private_key_from_pem(const void *pem, size_t length, asv_error *err);

/// One X.509 v3 extension, in OpenSSL's configuration syntax (X509V3_EXT_nconf): for example
/// name "basicConstraints" value "critical,CA:TRUE", or name "1.2.840.113635.100.6.11.1" value
/// "DER:05:00".
typedef struct asv_mint_extension {
    const char *name;
    const char *value;
} asv_mint_extension;

/// What asv_mint_certificate makes.
typedef struct asv_mint_certificate_request {
    /// The subject's common name (UTF-8, required).
    const char *common_name;
    /// The subject's organization and organizational unit (UTF-8), NULL for none.
    const char *organization;
    const char *organizational_unit;
    /// The subject's country code, NULL for none.
    const char *country;
    /// The key the certificate certifies (its public half is written in the certificate).
    EVP_PKEY *subject_key;
    /// The issuer's certificate and private key; both NULL for a self-signed certificate (then
    /// `subject_key` signs).
    X509 *issuer;
    EVP_PKEY *issuer_key;
    /// The serial number (positive).
    int64_t serial;
    /// The validity window, seconds since 1970.
    int64_t not_before;
    int64_t not_after;
    /// The extensions, added in this order.
    const asv_mint_extension *extensions;
    size_t extension_count;
} asv_mint_certificate_request;

/// Makes and signs (SHA-256) the certificate `request` describes. NULL on failure (reason in err,
/// naming the extension OpenSSL refused, if any). Free with asv_x509_free.
X509 *asv_mint_certificate(const asv_mint_certificate_request *request, asv_error *err);

/// The DER encoding of `cert` in a new buffer `*out` of `*out_length` bytes. 1 or -1.
int asv_mint_certificate_der(X509 *cert, uint8_t **out, size_t *out_length, asv_error *err);
/// The PEM encoding (`-----BEGIN CERTIFICATE-----`) of `cert`. 1 or -1.
int asv_mint_certificate_pem(X509 *cert, uint8_t **out, size_t *out_length, asv_error *err);
/// The unencrypted PKCS#8 DER encoding of the private `key`. 1 or -1.
int asv_mint_private_key_der(EVP_PKEY *key, uint8_t **out, size_t *out_length, asv_error *err);
/// The unencrypted PKCS#8 PEM encoding (`-----BEGIN PRIVATE KEY-----`) of the private `key`. 1 or -1.
int asv_mint_private_key_pem(EVP_PKEY *key, uint8_t **out, size_t *out_length, asv_error *err);

/// Signs `payload` into a DER PKCS#7 ContentInfo holding a SignedData, as Apple signs app receipts:
/// attached id-data content, one signer (`signer` with `signer_key`, SHA-256, no signed
/// attributes), and the certificates `signer`, then `chain[0]`, `chain[1]`, ... embedded in that
/// order. 1 or -1 (0 when an argument is missing).
int asv_mint_pkcs7_sign(const void *payload, size_t payload_length, X509 *signer, EVP_PKEY *signer_key,
                        X509 *const *chain, size_t chain_count, uint8_t **out, size_t *out_length, asv_error *err);

/// Frees a buffer returned by an asv_mint_* function (NULL is ignored). Private key encodings are
/// wiped before they are freed.
void asv_mint_buffer_free(uint8_t *buffer, size_t length);

#ifdef __cplusplus
}
#endif

#endif
