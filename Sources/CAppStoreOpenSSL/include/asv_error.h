// What every header of the shim shares: the failure description `asv_error` and OpenSSL's opaque
// types. Each topic header (asv_openssl.h, asv_pkcs7.h, asv_ocsp.h, asv_sign.h) includes this one
// and system headers only; asv_shim.h includes them all.
//
// The conventions of every function of the shim: it clears OpenSSL's error queue when it starts,
// frees every object it allocates on every path, and on failure writes what OpenSSL said into an
// `asv_error` so the message reaches the Swift error. The queue is always empty when a function
// returns, so one call's failure never leaks into the next call's message.
//
// Return convention: 1 = yes / success, 0 = no / a definite "invalid" verdict (the reason is in
// `err`), -1 = OpenSSL failed internally (allocation, ...; the reason is in `err`).
#ifndef ASV_ERROR_H
#define ASV_ERROR_H

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

/// For the C files of the shim and of the Testing product's C target (CAppStoreOpenSSLTesting);
/// Swift never calls them. Starts a call: an empty OpenSSL error queue and an empty error.
void asv_error_begin(asv_error *err);

/// Records a failure: `format`, then every message on OpenSSL's error queue, which it empties.
/// Variadic, so Swift does not import it.
void asv_error_fail(asv_error *err, const char *format, ...) __attribute__((format(printf, 2, 3)));

#ifdef __cplusplus
}
#endif

#endif
