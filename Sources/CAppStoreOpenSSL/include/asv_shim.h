// A thin shim over OpenSSL 3 for App Store signed-data verification: the umbrella header.
//
// Each topic header includes asv_error.h (the shared `asv_error` and OpenSSL's opaque types, with
// the conventions every function follows) and system headers only; none includes this one.
#ifndef ASV_SHIM_H
#define ASV_SHIM_H

// The shared failure description and OpenSSL's opaque types.
#include "asv_error.h"
// Certificates, keys, trust stores and path validation, ES256, digests (asv_openssl.c).
#include "asv_openssl.h"
// PKCS#7 SignedData for legacy app receipts (asv_pkcs7.c).
#include "asv_pkcs7.h"
// OCSP: the responder URL, requests and the check of responses (asv_ocsp.c).
#include "asv_ocsp.h"
// Signing: P-256 private keys from PEM, ECDSA-SHA256 signatures (asv_sign.c).
#include "asv_sign.h"

#endif
