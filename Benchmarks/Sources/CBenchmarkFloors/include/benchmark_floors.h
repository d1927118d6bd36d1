// The bare OpenSSL operations a verification or a signature cannot avoid, called directly (not
// through the library's shim), so that the benchmarks measure the library against OpenSSL alone.
// Every function returns 1 on success and 0 otherwise; the objects are opaque.
#ifndef BENCHMARK_FLOORS_H
#define BENCHMARK_FLOORS_H
#include <stddef.h>
#include <stdint.h>

/// A JWS's leaf and intermediate certificates, its signing input and its signature, pre-parsed.
typedef struct bf_jws bf_jws;
/// `signature` is JOSE's 64-byte `r || s`.
bf_jws *bf_jws_new(const uint8_t *leaf, size_t leaf_length, const uint8_t *intermediate, size_t intermediate_length,
                   const uint8_t *signing_input, size_t signing_input_length, const uint8_t *signature, size_t signature_length);
void bf_jws_free(bf_jws *jws);
/// SHA-256 of the signing input and ECDSA P-256 verify with the pre-parsed leaf key.
int bf_jws_verify_es256(bf_jws *jws);
/// ECDSA P-256 verify of the precomputed SHA-256 digest (a context set up once).
int bf_jws_verify_es256_digest(bf_jws *jws);
/// The leaf certificate's signature under the pre-parsed intermediate key.
int bf_jws_verify_leaf_certificate(bf_jws *jws);
/// Parsing the leaf's DER again, then checking its signature.
int bf_jws_parse_and_verify_leaf_certificate(bf_jws *jws);

/// A PKCS#7 app receipt, its signer certificate and the intermediate's key, pre-parsed.
typedef struct bf_receipt bf_receipt;
bf_receipt *bf_receipt_new(const uint8_t *der, size_t length);
void bf_receipt_free(bf_receipt *receipt);
/// PKCS7_verify without path validation: the signer's RSA signature (and content digest).
int bf_receipt_verify_signature(bf_receipt *receipt);
/// The signer certificate's signature under the intermediate's key.
int bf_receipt_verify_leaf_certificate(bf_receipt *receipt);

/// A P-256 private key (PEM) and a signing context set up once.
typedef struct bf_signer bf_signer;
bf_signer *bf_signer_new(const char *pem, size_t length);
void bf_signer_free(bf_signer *signer);
/// SHA-256 of `message` and one ECDSA P-256 signature.
int bf_signer_sign(bf_signer *signer, const uint8_t *message, size_t length);
#endif
