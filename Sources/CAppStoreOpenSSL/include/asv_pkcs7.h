// PKCS#7 SignedData for legacy App Store app receipts: parsing and the signer's signature.
//
// Same conventions as asv_error.h: every function clears OpenSSL's error queue when it starts,
// frees what it allocates on every path, writes OpenSSL's messages into `asv_error` on failure, and
// returns 1 = ok, 0 = a definite "invalid" verdict, -1 = an internal error.
//
// Path validation of the signer's certificate is NOT done here: the caller validates the chain with
// its own policy (asv_verify_chain), then asks this file only whether the signature verifies.
#ifndef ASV_PKCS7_H
#define ASV_PKCS7_H

#include <stddef.h>
#include <stdint.h>

#include "asv_error.h"

#ifdef __cplusplus
extern "C" {
#endif

/// A parsed SignedData with attached content, exactly one signer, and its embedded certificates.
typedef struct asv_pkcs7 asv_pkcs7;

/// What the signer declares, for messages and checks.
typedef struct asv_pkcs7_signer_summary {
    /// OpenSSL NID of the signer's digest algorithm (NID_sha1 = 64, NID_sha256 = 672, ...).
    int digest_nid;
    /// OpenSSL NID of the signer's signature algorithm (NID_rsaEncryption = 6, ...).
    int signature_nid;
    /// 1 when the signer carries signed (authenticated) attributes, else 0.
    int has_signed_attributes;
    /// Index into the embedded certificates of the signer's certificate (by issuer and serial).
    size_t certificate_index;
} asv_pkcs7_signer_summary;

/// Parses `length` bytes of DER or BER (indefinite lengths, constructed OCTET STRINGs) as a
/// ContentInfo holding a SignedData. Trailing bytes after the ContentInfo are refused. Refused too
/// (0): any other content type, detached (absent) content, content that is not id-data, no
/// signer or more than one, a signer whose certificate is not among the embedded ones, more than
/// `max_certificates` embedded certificates. On 1, `*out` receives the parsed object (free with
/// asv_pkcs7_free); otherwise `*out` is NULL.
int asv_pkcs7_parse(const void *bytes, size_t length, size_t max_certificates, asv_pkcs7 **out,
                    asv_error *err);
void asv_pkcs7_free(asv_pkcs7 *pkcs7);

/// The fast path for a receipt whose embedded certificates a caller already checked in an earlier
/// receipt: `bytes` is the receipt with its `certificates` field cut out, and `signer_certificate`
/// the parsed signing certificate (one reference is taken). Everything asv_pkcs7_parse refuses is
/// refused, and also any embedded certificate and a signer (by issuer and serial number) other than
/// `signer_certificate`; asv_pkcs7_verify_signature then uses `signer_certificate` alone. The
/// object embeds no certificates (asv_pkcs7_certificate_count is 0). 1 ok, 0 invalid, -1 internal.
int asv_pkcs7_parse_with_signer(const void *bytes, size_t length, X509 *signer_certificate, asv_pkcs7 **out,
                                asv_error *err);

/// The signed content octets (the eContent of id-data), borrowed from `pkcs7`.
const uint8_t *asv_pkcs7_content(const asv_pkcs7 *pkcs7, size_t *length);

/// The number of embedded certificates.
size_t asv_pkcs7_certificate_count(const asv_pkcs7 *pkcs7);
/// The DER encoding of embedded certificate `index`, borrowed from `pkcs7`; NULL when out of range.
const uint8_t *asv_pkcs7_certificate_der(const asv_pkcs7 *pkcs7, size_t index, size_t *length);

/// The signer's algorithms, attributes and certificate.
asv_pkcs7_signer_summary asv_pkcs7_signer(const asv_pkcs7 *pkcs7);

/// Verifies the signer's signature over the content with the signer's embedded certificate's key
/// (PKCS7_verify with PKCS7_NOVERIFY | PKCS7_NOCHAIN: no path validation here). Requires an RSA key,
/// digest SHA-256 or SHA-1, and an RSA signature algorithm. With signed attributes, their
/// message digest must match the content and the signature covers the attributes (RFC 2315 9.3).
/// 1 valid, 0 invalid (reason in err), -1 internal error.
int asv_pkcs7_verify_signature(const asv_pkcs7 *pkcs7, asv_error *err);

#ifdef __cplusplus
}
#endif

#endif
