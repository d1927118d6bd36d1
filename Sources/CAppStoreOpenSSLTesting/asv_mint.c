// Minting a test PKI: see include/asv_mint.h for the contract of each function.
#include "asv_error.h"
#include "asv_mint.h"

#include <limits.h>
#include <string.h>

#include <openssl/bio.h>
#include <openssl/bn.h>
#include <openssl/crypto.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/pkcs7.h>
#include <openssl/rsa.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>

// MARK: - Keys

EVP_PKEY *asv_mint_generate_key(int kind, asv_error *err) {
    asv_error_begin(err);
    EVP_PKEY *key = NULL;
    switch (kind) {
    case ASV_MINT_KEY_P256:
        key = EVP_PKEY_Q_keygen(NULL, NULL, "EC", "P-256");
        break;
    case ASV_MINT_KEY_RSA2048:
        key = EVP_PKEY_Q_keygen(NULL, NULL, "RSA", (size_t)2048);
        break;
    default:
        asv_error_fail(err, "unknown key kind %d (expected P-256 or RSA-2048)", kind);
        return NULL;
    }
    if (key == NULL) {
        asv_error_fail(err, "%s key generation failed", kind == ASV_MINT_KEY_P256 ? "P-256" : "RSA-2048");
    }
    return key;
}

/// The password callback: never supplies a password.
static int asv_mint_no_password(char *buffer, int size, int rwflag, void *context) {
    (void)buffer;
    (void)size;
    (void)rwflag;
    (void)context;
    return -1;
}

EVP_PKEY *asv_mint_private_key_from_pem(const void *pem, size_t length, asv_error *err) {
    asv_error_begin(err);
    if (pem == NULL || length == 0 || length > (size_t)INT_MAX) {
        asv_error_fail(err, "the key text is empty or too large (%zu bytes)", length);
        return NULL;
    }
    BIO *bio = BIO_new_mem_buf(pem, (int)length);
    if (bio == NULL) {
        asv_error_fail(err, "cannot allocate a memory BIO");
        return NULL;
    }
    EVP_PKEY *key = PEM_read_bio_PrivateKey(bio, NULL, asv_mint_no_password, NULL);
    BIO_free(bio);
    if (key == NULL) {
        asv_error_fail(err, "no unencrypted PEM private key could be read");
    }
    return key;
}

// MARK: - Certificates

/// Adds `field`=`value` (UTF-8) to `name` when `value` is not NULL. 1 or -1.
static int asv_mint_add_name_entry(X509_NAME *name, const char *field, const char *value, asv_error *err) {
    if (value == NULL) {
        return 1;
    }
    if (X509_NAME_add_entry_by_txt(name, field, MBSTRING_UTF8, (const unsigned char *)value, -1, -1, 0) != 1) {
        asv_error_fail(err, "cannot add %s=\"%s\" to the subject", field, value);
        return -1;
    }
    return 1;
}

/// Fills every field of `cert` except the extensions and the signature. 1, 0 or -1.
static int asv_mint_fill(X509 *cert, const asv_mint_certificate_request *request, asv_error *err) {
    X509_NAME *subject = X509_get_subject_name(cert);
    if (asv_mint_add_name_entry(subject, "C", request->country, err) != 1 ||
        asv_mint_add_name_entry(subject, "O", request->organization, err) != 1 ||
        asv_mint_add_name_entry(subject, "OU", request->organizational_unit, err) != 1 ||
        asv_mint_add_name_entry(subject, "CN", request->common_name, err) != 1) {
        return -1;
    }
    X509_NAME *issuer_name = request->issuer != NULL ? X509_get_subject_name(request->issuer) : subject;
    if (X509_set_version(cert, X509_VERSION_3) != 1 ||
        ASN1_INTEGER_set_int64(X509_get_serialNumber(cert), request->serial) != 1 ||
        ASN1_TIME_set(X509_getm_notBefore(cert), (time_t)request->not_before) == NULL ||
        ASN1_TIME_set(X509_getm_notAfter(cert), (time_t)request->not_after) == NULL ||
        X509_set_issuer_name(cert, issuer_name) != 1 || X509_set_pubkey(cert, request->subject_key) != 1) {
        asv_error_fail(err, "cannot set the certificate's version, serial, validity, issuer or key");
        return -1;
    }
    return 1;
}

/// Adds the request's extensions to `cert`. 1, 0 (an extension OpenSSL refused) or -1.
static int asv_mint_add_extensions(X509 *cert, const asv_mint_certificate_request *request, asv_error *err) {
    X509V3_CTX context;
    X509V3_set_ctx(&context, request->issuer != NULL ? request->issuer : cert, cert, NULL, NULL, 0);
    for (size_t i = 0; i < request->extension_count; i++) {
        const asv_mint_extension *wanted = &request->extensions[i];
        if (wanted->name == NULL || wanted->value == NULL) {
            asv_error_fail(err, "extension %zu has no name or no value", i);
            return 0;
        }
        X509_EXTENSION *extension = X509V3_EXT_nconf(NULL, &context, wanted->name, wanted->value);
        if (extension == NULL) {
            asv_error_fail(err, "OpenSSL refused the extension %s = \"%s\"", wanted->name, wanted->value);
            return 0;
        }
        int added = X509_add_ext(cert, extension, -1);
        X509_EXTENSION_free(extension);
        if (added != 1) {
            asv_error_fail(err, "cannot add the extension %s", wanted->name);
            return -1;
        }
    }
    return 1;
}

X509 *asv_mint_certificate(const asv_mint_certificate_request *request, asv_error *err) {
    asv_error_begin(err);
    if (request == NULL || request->common_name == NULL || request->subject_key == NULL) {
        asv_error_fail(err, "a certificate needs a common name and a subject key");
        return NULL;
    }
    if ((request->issuer == NULL) != (request->issuer_key == NULL)) {
        asv_error_fail(err, "give both the issuer's certificate and its key, or neither (self-signed)");
        return NULL;
    }
    if (request->serial <= 0 || request->not_after <= request->not_before) {
        asv_error_fail(err, "the serial must be positive and notAfter later than notBefore");
        return NULL;
    }
    X509 *cert = X509_new();
    if (cert == NULL) {
        asv_error_fail(err, "cannot allocate a certificate");
        return NULL;
    }
    if (asv_mint_fill(cert, request, err) != 1 || asv_mint_add_extensions(cert, request, err) != 1) {
        X509_free(cert);
        return NULL;
    }
    EVP_PKEY *signing_key = request->issuer_key != NULL ? request->issuer_key : request->subject_key;
    if (X509_sign(cert, signing_key, EVP_sha256()) <= 0) {
        asv_error_fail(err, "cannot sign the certificate \"%s\"", request->common_name);
        X509_free(cert);
        return NULL;
    }
    return cert;
}

// MARK: - Encodings

/// Copies the memory BIO's contents into a new OpenSSL buffer. 1 or -1.
static int asv_mint_take_bio(BIO *bio, uint8_t **out, size_t *out_length, asv_error *err) {
    char *data = NULL;
    long length = BIO_get_mem_data(bio, &data);
    if (length <= 0 || data == NULL) {
        asv_error_fail(err, "the encoding is empty");
        return -1;
    }
    uint8_t *copy = OPENSSL_malloc((size_t)length);
    if (copy == NULL) {
        asv_error_fail(err, "cannot allocate %ld bytes", length);
        return -1;
    }
    memcpy(copy, data, (size_t)length);
    *out = copy;
    *out_length = (size_t)length;
    return 1;
}

/// Starts an encoding: empty outputs and a new memory BIO (NULL on failure, reason in err).
static BIO *asv_mint_begin_output(uint8_t **out, size_t *out_length, asv_error *err) {
    asv_error_begin(err);
    *out = NULL;
    *out_length = 0;
    BIO *bio = BIO_new(BIO_s_mem());
    if (bio == NULL) {
        asv_error_fail(err, "cannot allocate a memory BIO");
    }
    return bio;
}

int asv_mint_certificate_der(X509 *cert, uint8_t **out, size_t *out_length, asv_error *err) {
    BIO *bio = asv_mint_begin_output(out, out_length, err);
    if (bio == NULL) {
        return -1;
    }
    int result = i2d_X509_bio(bio, cert) == 1 ? asv_mint_take_bio(bio, out, out_length, err) : -1;
    if (result != 1 && err != NULL && err->message[0] == 0) {
        asv_error_fail(err, "cannot DER-encode the certificate");
    }
    BIO_free(bio);
    return result;
}

int asv_mint_certificate_pem(X509 *cert, uint8_t **out, size_t *out_length, asv_error *err) {
    BIO *bio = asv_mint_begin_output(out, out_length, err);
    if (bio == NULL) {
        return -1;
    }
    int result = PEM_write_bio_X509(bio, cert) == 1 ? asv_mint_take_bio(bio, out, out_length, err) : -1;
    if (result != 1 && err != NULL && err->message[0] == 0) {
        asv_error_fail(err, "cannot PEM-encode the certificate");
    }
    BIO_free(bio);
    return result;
}

/// Wipes and frees a memory BIO that held private key material.
static void asv_mint_free_secret_bio(BIO *bio) {
    char *data = NULL;
    long length = BIO_get_mem_data(bio, &data);
    if (length > 0 && data != NULL) {
        OPENSSL_cleanse(data, (size_t)length);
    }
    BIO_free(bio);
}

int asv_mint_private_key_der(EVP_PKEY *key, uint8_t **out, size_t *out_length, asv_error *err) {
    BIO *bio = asv_mint_begin_output(out, out_length, err);
    if (bio == NULL) {
        return -1;
    }
    int result = i2d_PKCS8PrivateKey_bio(bio, key, NULL, NULL, 0, NULL, NULL) == 1
        ? asv_mint_take_bio(bio, out, out_length, err) : -1;
    if (result != 1 && err != NULL && err->message[0] == 0) {
        asv_error_fail(err, "cannot encode the private key as PKCS#8 DER");
    }
    asv_mint_free_secret_bio(bio);
    return result;
}

int asv_mint_private_key_pem(EVP_PKEY *key, uint8_t **out, size_t *out_length, asv_error *err) {
    BIO *bio = asv_mint_begin_output(out, out_length, err);
    if (bio == NULL) {
        return -1;
    }
    int result = PEM_write_bio_PKCS8PrivateKey(bio, key, NULL, NULL, 0, NULL, NULL) == 1
        ? asv_mint_take_bio(bio, out, out_length, err) : -1;
    if (result != 1 && err != NULL && err->message[0] == 0) {
        asv_error_fail(err, "cannot encode the private key as PKCS#8 PEM");
    }
    asv_mint_free_secret_bio(bio);
    return result;
}

void asv_mint_buffer_free(uint8_t *buffer, size_t length) {
    if (buffer != NULL) {
        OPENSSL_clear_free(buffer, length);
    }
}

// MARK: - PKCS#7

int asv_mint_pkcs7_sign(const void *payload, size_t payload_length, X509 *signer, EVP_PKEY *signer_key,
                        X509 *const *chain, size_t chain_count, uint8_t **out, size_t *out_length, asv_error *err) {
    asv_error_begin(err);
    *out = NULL;
    *out_length = 0;
    if (payload == NULL || payload_length == 0 || payload_length > (size_t)INT_MAX || signer == NULL ||
        signer_key == NULL || (chain == NULL && chain_count > 0)) {
        asv_error_fail(err, "a receipt needs a non-empty payload, a signer certificate and its key");
        return 0;
    }
    const int flags = PKCS7_BINARY | PKCS7_NOATTR | PKCS7_NOSMIMECAP | PKCS7_PARTIAL;
    int result = -1;
    BIO *content = BIO_new_mem_buf(payload, (int)payload_length);
    BIO *output = BIO_new(BIO_s_mem());
    // A partial SignedData with id-data content: the signer and certificates are added in order.
    PKCS7 *signed_data = PKCS7_sign(NULL, NULL, NULL, NULL, flags);
    if (content == NULL || output == NULL || signed_data == NULL) {
        asv_error_fail(err, "cannot allocate the SignedData");
        goto done;
    }
    // Adds the signer's certificate first (no PKCS7_NOCERTS), then the chain in the order given.
    if (PKCS7_sign_add_signer(signed_data, signer, signer_key, EVP_sha256(), flags) == NULL) {
        asv_error_fail(err, "cannot add the signer (its key must match its certificate)");
        goto done;
    }
    for (size_t i = 0; i < chain_count; i++) {
        if (chain[i] == NULL || PKCS7_add_certificate(signed_data, chain[i]) != 1) {
            asv_error_fail(err, "cannot embed certificate %zu of the chain", i + 1);
            goto done;
        }
    }
    if (PKCS7_final(signed_data, content, flags) != 1) {
        asv_error_fail(err, "cannot sign the receipt payload");
        goto done;
    }
    if (i2d_PKCS7_bio(output, signed_data) != 1) {
        asv_error_fail(err, "cannot DER-encode the SignedData");
        goto done;
    }
    result = asv_mint_take_bio(output, out, out_length, err);
done:
    PKCS7_free(signed_data);
    BIO_free(output);
    BIO_free(content);
    return result;
}
