// Helpers shared by the shim's .c files (not part of the public interface): the reading of ASN.1
// times. The error discipline (asv_error_begin, asv_error_fail) is in asv_error.h, shared with the
// Testing product's C target.
#ifndef ASV_INTERNAL_H
#define ASV_INTERNAL_H

#include <stdint.h>

#include <openssl/asn1.h>

#include "asv_error.h"

/// Seconds from 1970 to `time` (an ASN1_TIME or ASN1_GENERALIZEDTIME), measured from `epoch`
/// (ASN1_TIME_set(NULL, 0)); 0 with `*ok` cleared when `time` is NULL or cannot be read, `*ok`
/// untouched otherwise (so that one flag collects several readings).
int64_t asv_seconds_since_1970(const ASN1_TIME *time, const ASN1_TIME *epoch, int *ok);

#endif
