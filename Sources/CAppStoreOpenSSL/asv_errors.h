// The shim's error discipline, shared by its .c files (not part of the public interface).
#ifndef ASV_ERRORS_H
#define ASV_ERRORS_H

#include "asv_openssl.h"

/// Starts a call: an empty OpenSSL error queue and an empty error.
void asv_error_begin(asv_error *err);

/// Records a failure: `format`, then every message on OpenSSL's error queue, which it empties.
void asv_error_fail(asv_error *err, const char *format, ...) __attribute__((format(printf, 2, 3)));

#endif
