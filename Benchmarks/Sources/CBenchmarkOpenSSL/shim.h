// System OpenSSL 3 (libcrypto), found by pkg-config, for the benchmark floors (CBenchmarkFloors).
#ifndef CBENCHMARKOPENSSL_SHIM_H
#define CBENCHMARKOPENSSL_SHIM_H
#include <openssl/evp.h>
#endif
