// PKCS#7 SignedData for app receipts: see include/asv_pkcs7.h for the contract of each function.
#include "asv_internal.h"
#include "asv_pkcs7.h"

#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/asn1.h>
#include <openssl/bio.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/objects.h>
#include <openssl/pkcs7.h>
#include <openssl/x509.h>

struct asv_pkcs7 {
    PKCS7 *pkcs7;
    /// The signer's certificate, borrowed from pkcs7's certificate stack, or from `supplied_signer`.
    X509 *signer_certificate;
    /// With asv_pkcs7_parse_with_signer: the caller's certificate (one reference held), as the only
    /// certificate PKCS7_verify may use.
    STACK_OF(X509) *supplied_signer;
    asv_pkcs7_signer_summary signer;
    size_t certificate_count;
    /// DER of each embedded certificate (OPENSSL_malloc'd by i2d_X509).
    unsigned char **certificate_der;
    size_t *certificate_length;
};

// MARK: - Names

/// The short name of an algorithm NID, for messages.
static const char *asv_pkcs7_algorithm_name(int nid) {
    const char *name = nid == NID_undef ? NULL : OBJ_nid2sn(nid);
    return name != NULL ? name : "an unknown algorithm";
}

// MARK: - Parsing

void asv_pkcs7_free(asv_pkcs7 *pkcs7) {
    if (pkcs7 == NULL) {
        return;
    }
    if (pkcs7->certificate_der != NULL) {
        for (size_t i = 0; i < pkcs7->certificate_count; i++) {
            OPENSSL_free(pkcs7->certificate_der[i]);
        }
    }
    free(pkcs7->certificate_der);
    free(pkcs7->certificate_length);
    sk_X509_pop_free(pkcs7->supplied_signer, X509_free);
    PKCS7_free(pkcs7->pkcs7);
    free(pkcs7);
}

/// Whether `certificate` is the one `signer` names by issuer and serial number.
static int asv_pkcs7_is_signer(X509 *certificate, PKCS7_SIGNER_INFO *signer) {
    PKCS7_ISSUER_AND_SERIAL *id = signer->issuer_and_serial;
    return id != NULL && id->issuer != NULL && id->serial != NULL &&
           X509_NAME_cmp(X509_get_issuer_name(certificate), id->issuer) == 0 &&
           ASN1_INTEGER_cmp(X509_get0_serialNumber(certificate), id->serial) == 0;
}

/// The index of the certificate matching `signer`'s issuer and serial number: 1 found, 0 not found
/// or found more than once (ambiguous).
static int asv_pkcs7_find_signer(STACK_OF(X509) *certificates, PKCS7_SIGNER_INFO *signer, size_t *index) {
    int matches = 0;
    for (int i = 0; i < sk_X509_num(certificates); i++) {
        if (asv_pkcs7_is_signer(sk_X509_value(certificates, i), signer)) {
            *index = (size_t)i;
            matches++;
        }
    }
    return matches == 1 ? 1 : 0;
}

/// Skips one BER element at `*cursor` (definite or indefinite length) within `end`. 1 on success.
static int asv_ber_skip(const unsigned char **cursor, const unsigned char *end, int depth) {
    if (depth > 32 || *cursor >= end) return 0;
    long length = 0;
    int tag = 0, class = 0;
    const unsigned char *p = *cursor;
    int flags = ASN1_get_object(&p, &length, &tag, &class, end - p);
    if (flags & 0x80) return 0;
    if (flags & 0x01) {  // indefinite length: children up to the end-of-contents octets
        while (p + 2 <= end && !(p[0] == 0 && p[1] == 0)) {
            if (!asv_ber_skip(&p, end, depth + 1)) return 0;
        }
        if (p + 2 > end) return 0;
        *cursor = p + 2;
        return 1;
    }
    if (length < 0 || length > end - p) return 0;
    *cursor = p + length;
    return 1;
}

/// Enters the constructed element at `*cursor`: `*cursor` moves to its first child and `*inner_end`
/// to its end (for an indefinite length, `end`: its children are then read until they run out).
static int asv_ber_enter(const unsigned char **cursor, const unsigned char *end, const unsigned char **inner_end) {
    long length = 0;
    int tag = 0, class = 0;
    const unsigned char *p = *cursor;
    int flags = ASN1_get_object(&p, &length, &tag, &class, end - p);
    if ((flags & 0x80) || !(flags & V_ASN1_CONSTRUCTED)) return 0;
    if (!(flags & 0x01) && (length < 0 || length > end - p)) return 0;
    *inner_end = (flags & 0x01) ? end : p + length;
    *cursor = p;
    return 1;
}

/// OpenSSL's decoder reads a primitive [0] as the `certificates` field, which BER does not allow (a
/// SET OF is constructed). 1 when the field is absent or constructed, 0 when it is primitive or the
/// structure cannot be walked (d2i_PKCS7 accepted it, so that does not happen).
static int asv_pkcs7_certificates_constructed(const unsigned char *bytes, size_t length) {
    const unsigned char *p = bytes, *end = bytes + length, *inner = NULL;
    // ContentInfo SEQUENCE { contentType OID, [0] EXPLICIT SignedData SEQUENCE { ... } }
    if (!asv_ber_enter(&p, end, &inner)) return 0;
    end = inner;
    if (!asv_ber_skip(&p, end, 0)) return 0;
    if (!asv_ber_enter(&p, end, &inner)) return 0;
    end = inner;
    if (!asv_ber_enter(&p, end, &inner)) return 0;
    end = inner;
    // version, digestAlgorithms, contentInfo, then [0] certificates if present.
    for (int member = 0; member < 3; member++) {
        if (!asv_ber_skip(&p, end, 0)) return 0;
    }
    if (p >= end) return 1;
    return *p != 0x80;  // [0] primitive; [0] constructed is 0xA0
}

/// Reads the ContentInfo every receipt shares: DER or BER, no trailing bytes, signedData with
/// attached id-data content and exactly one signer. Fields App Store receipts never carry and
/// OpenSSL would accept are refused: a SignedData or SignerInfo version other than 1, a `crls`
/// field (even empty), unsigned signer attributes, a primitive `certificates` field. 1 with `*out`
/// set, 0 invalid (reason in err).
static int asv_pkcs7_read(const void *bytes, size_t length, PKCS7 **out, asv_error *err) {
    *out = NULL;
    if (bytes == NULL || length == 0) {
        asv_error_fail(err, "the receipt is empty");
        return 0;
    }
    if (length > (size_t)LONG_MAX) {
        asv_error_fail(err, "the receipt is too large (%zu bytes)", length);
        return 0;
    }
    const unsigned char *cursor = bytes;
    PKCS7 *pkcs7 = d2i_PKCS7(NULL, &cursor, (long)length);
    if (pkcs7 == NULL) {
        asv_error_fail(err, "not a PKCS#7 ContentInfo in DER or BER");
        return 0;
    }
    size_t consumed = (size_t)(cursor - (const unsigned char *)bytes);
    if (consumed != length) {
        asv_error_fail(err, "%zu trailing bytes follow the PKCS#7 ContentInfo (%zu bytes)", length - consumed,
                       consumed);
        goto invalid;
    }
    if (!PKCS7_type_is_signed(pkcs7) || pkcs7->d.sign == NULL) {
        asv_error_fail(err, "the PKCS#7 content type is %s, not signedData",
                       asv_pkcs7_algorithm_name(OBJ_obj2nid(pkcs7->type)));
        goto invalid;
    }
    PKCS7_SIGNED *signed_data = pkcs7->d.sign;
    if (signed_data->contents == NULL || !PKCS7_type_is_data(signed_data->contents)) {
        asv_error_fail(err, "the signed content type is %s, not id-data",
                       signed_data->contents == NULL ? "absent"
                                                     : asv_pkcs7_algorithm_name(OBJ_obj2nid(signed_data->contents->type)));
        goto invalid;
    }
    if (signed_data->contents->d.data == NULL) {
        asv_error_fail(err, "the signature is detached (the SignedData carries no content); a receipt carries its content");
        goto invalid;
    }
    STACK_OF(PKCS7_SIGNER_INFO) *signers = PKCS7_get_signer_info(pkcs7);
    int signer_count = signers == NULL ? 0 : sk_PKCS7_SIGNER_INFO_num(signers);
    if (signer_count != 1) {
        asv_error_fail(err, "the SignedData has %d signers; a receipt has exactly one", signer_count);
        goto invalid;
    }
    long version = ASN1_INTEGER_get(signed_data->version);
    if (version != 1) {
        asv_error_fail(err, "the SignedData is version %ld; App Store receipts are version 1", version);
        goto invalid;
    }
    if (signed_data->crl != NULL) {
        asv_error_fail(err, "the SignedData carries a crls field (%d CRLs); App Store receipts carry none",
                       sk_X509_CRL_num(signed_data->crl));
        goto invalid;
    }
    PKCS7_SIGNER_INFO *signer = sk_PKCS7_SIGNER_INFO_value(signers, 0);
    long signer_version = ASN1_INTEGER_get(signer->version);
    if (signer_version != 1) {
        asv_error_fail(err, "the SignerInfo is version %ld; App Store receipts use version 1", signer_version);
        goto invalid;
    }
    if (signer->unauth_attr != NULL) {
        asv_error_fail(err, "the SignerInfo carries unsigned attributes (%d); App Store receipts carry none",
                       sk_X509_ATTRIBUTE_num(signer->unauth_attr));
        goto invalid;
    }
    if (!asv_pkcs7_certificates_constructed(bytes, length)) {
        asv_error_fail(err, "the SignedData's certificates field [0] is primitive; BER and DER make it a constructed SET OF");
        goto invalid;
    }
    *out = pkcs7;
    return 1;

invalid:
    PKCS7_free(pkcs7);
    return 0;
}

/// Records the signer's algorithms and whether it has signed attributes.
static void asv_pkcs7_summarize_signer(asv_pkcs7 *result, PKCS7_SIGNER_INFO *signer, size_t index) {
    X509_ALGOR *digest = NULL, *signature = NULL;
    PKCS7_SIGNER_INFO_get0_algs(signer, NULL, &digest, &signature);
    const ASN1_OBJECT *digest_oid = NULL, *signature_oid = NULL;
    if (digest != NULL) {
        X509_ALGOR_get0(&digest_oid, NULL, NULL, digest);
    }
    if (signature != NULL) {
        X509_ALGOR_get0(&signature_oid, NULL, NULL, signature);
    }
    STACK_OF(X509_ATTRIBUTE) *attributes = PKCS7_get_signed_attributes(signer);
    result->signer.digest_nid = digest_oid == NULL ? NID_undef : OBJ_obj2nid(digest_oid);
    result->signer.signature_nid = signature_oid == NULL ? NID_undef : OBJ_obj2nid(signature_oid);
    result->signer.has_signed_attributes = attributes != NULL && sk_X509_ATTRIBUTE_num(attributes) > 0;
    result->signer.certificate_index = index;
}

int asv_pkcs7_parse(const void *bytes, size_t length, size_t max_certificates, asv_pkcs7 **out,
                    asv_error *err) {
    asv_error_begin(err);
    *out = NULL;
    asv_pkcs7 *result = calloc(1, sizeof(asv_pkcs7));
    if (result == NULL) {
        asv_error_fail(err, "cannot allocate the receipt");
        return -1;
    }
    int verdict = 0;
    if (!asv_pkcs7_read(bytes, length, &result->pkcs7, err)) {
        goto done;
    }
    PKCS7 *pkcs7 = result->pkcs7;
    STACK_OF(X509) *certificates = pkcs7->d.sign->cert;
    int certificate_count = certificates == NULL ? 0 : sk_X509_num(certificates);
    if (certificate_count <= 0) {
        asv_error_fail(err, "the SignedData embeds no certificate; a receipt embeds its signing chain");
        goto done;
    }
    if ((size_t)certificate_count > max_certificates) {
        asv_error_fail(err, "the SignedData embeds %d certificates; at most %zu are accepted", certificate_count,
                       max_certificates);
        goto done;
    }
    PKCS7_SIGNER_INFO *signer = sk_PKCS7_SIGNER_INFO_value(PKCS7_get_signer_info(pkcs7), 0);
    size_t signer_index = 0;
    if (!asv_pkcs7_find_signer(certificates, signer, &signer_index)) {
        asv_error_fail(err, "the signer's certificate (by issuer and serial number) is not exactly one of the embedded certificates");
        goto done;
    }
    asv_pkcs7_summarize_signer(result, signer, signer_index);
    result->signer_certificate = sk_X509_value(certificates, (int)signer_index);

    result->certificate_der = calloc((size_t)certificate_count, sizeof(unsigned char *));
    result->certificate_length = calloc((size_t)certificate_count, sizeof(size_t));
    if (result->certificate_der == NULL || result->certificate_length == NULL) {
        asv_error_fail(err, "cannot allocate the certificate list");
        verdict = -1;
        goto done;
    }
    result->certificate_count = (size_t)certificate_count;
    for (int i = 0; i < certificate_count; i++) {
        unsigned char *der = NULL;
        int der_length = i2d_X509(sk_X509_value(certificates, i), &der);
        if (der_length <= 0 || der == NULL) {
            asv_error_fail(err, "embedded certificate %d cannot be encoded", i);
            verdict = -1;
            goto done;
        }
        result->certificate_der[i] = der;
        result->certificate_length[i] = (size_t)der_length;
    }
    verdict = 1;

done:
    if (verdict == 1) {
        *out = result;
    } else {
        asv_pkcs7_free(result);
    }
    ERR_clear_error();
    return verdict;
}

int asv_pkcs7_parse_with_signer(const void *bytes, size_t length, X509 *signer_certificate, asv_pkcs7 **out,
                                asv_error *err) {
    asv_error_begin(err);
    *out = NULL;
    if (signer_certificate == NULL) {
        asv_error_fail(err, "no signer certificate was supplied");
        return -1;
    }
    asv_pkcs7 *result = calloc(1, sizeof(asv_pkcs7));
    if (result == NULL) {
        asv_error_fail(err, "cannot allocate the receipt");
        return -1;
    }
    int verdict = 0;
    if (!asv_pkcs7_read(bytes, length, &result->pkcs7, err)) {
        goto done;
    }
    STACK_OF(X509) *embedded = result->pkcs7->d.sign->cert;
    if (embedded != NULL && sk_X509_num(embedded) > 0) {
        asv_error_fail(err, "the SignedData still embeds %d certificates; the caller supplies them", sk_X509_num(embedded));
        goto done;
    }
    PKCS7_SIGNER_INFO *signer = sk_PKCS7_SIGNER_INFO_value(PKCS7_get_signer_info(result->pkcs7), 0);
    if (!asv_pkcs7_is_signer(signer_certificate, signer)) {
        asv_error_fail(err, "the signer (by issuer and serial number) is not the supplied certificate");
        goto done;
    }
    result->supplied_signer = sk_X509_new_null();
    if (result->supplied_signer == NULL || !X509_up_ref(signer_certificate)) {
        asv_error_fail(err, "cannot hold the signer certificate");
        verdict = -1;
        goto done;
    }
    if (!sk_X509_push(result->supplied_signer, signer_certificate)) {
        X509_free(signer_certificate);
        asv_error_fail(err, "cannot hold the signer certificate");
        verdict = -1;
        goto done;
    }
    asv_pkcs7_summarize_signer(result, signer, 0);
    result->signer_certificate = signer_certificate;
    verdict = 1;

done:
    if (verdict == 1) {
        *out = result;
    } else {
        asv_pkcs7_free(result);
    }
    ERR_clear_error();
    return verdict;
}

const uint8_t *asv_pkcs7_content(const asv_pkcs7 *pkcs7, size_t *length) {
    const ASN1_OCTET_STRING *content = pkcs7->pkcs7->d.sign->contents->d.data;
    int content_length = ASN1_STRING_length(content);
    *length = content_length < 0 ? 0 : (size_t)content_length;
    return ASN1_STRING_get0_data(content);
}

size_t asv_pkcs7_certificate_count(const asv_pkcs7 *pkcs7) { return pkcs7->certificate_count; }

const uint8_t *asv_pkcs7_certificate_der(const asv_pkcs7 *pkcs7, size_t index, size_t *length) {
    if (index >= pkcs7->certificate_count) {
        *length = 0;
        return NULL;
    }
    *length = pkcs7->certificate_length[index];
    return pkcs7->certificate_der[index];
}

asv_pkcs7_signer_summary asv_pkcs7_signer(const asv_pkcs7 *pkcs7) { return pkcs7->signer; }

// MARK: - Signature

int asv_pkcs7_verify_signature(const asv_pkcs7 *pkcs7, asv_error *err) {
    asv_error_begin(err);
    int digest = pkcs7->signer.digest_nid;
    if (digest != NID_sha256 && digest != NID_sha1) {
        asv_error_fail(err, "the signer's digest algorithm is %s; receipts use SHA-256 (or SHA-1 before 2023)",
                       asv_pkcs7_algorithm_name(digest));
        return 0;
    }
    int signature = pkcs7->signer.signature_nid;
    if (signature != NID_rsaEncryption && signature != NID_sha256WithRSAEncryption &&
        signature != NID_sha1WithRSAEncryption) {
        asv_error_fail(err, "the signer's signature algorithm is %s; receipts are signed with RSA (PKCS #1 v1.5)",
                       asv_pkcs7_algorithm_name(signature));
        return 0;
    }
    EVP_PKEY *key = X509_get0_pubkey(pkcs7->signer_certificate);
    if (key == NULL || EVP_PKEY_get_base_id(key) != EVP_PKEY_RSA) {
        asv_error_fail(err, "the signer's certificate does not hold an RSA key");
        return 0;
    }
    // No path validation (the caller's policy did it) and no certificates from elsewhere: only the
    // signature (and, with signed attributes, their message digest) is checked.
    // With a supplied signer (asv_pkcs7_parse_with_signer) it is the only certificate considered.
    int flags = PKCS7_NOVERIFY | PKCS7_NOCHAIN | PKCS7_BINARY;
    if (pkcs7->supplied_signer != NULL) {
        flags |= PKCS7_NOINTERN;
    }
    int verified = PKCS7_verify(pkcs7->pkcs7, pkcs7->supplied_signer, NULL, NULL, NULL, flags);
    if (verified != 1) {
        asv_error_fail(err, "the receipt's signature does not verify with the signer certificate's key");
        return 0;
    }
    ERR_clear_error();
    return 1;
}
