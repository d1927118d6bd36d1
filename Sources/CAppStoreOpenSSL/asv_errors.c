// The shim's error discipline: see asv_internal.h.
#include "asv_internal.h"

#include <stdarg.h>
#include <stdio.h>

#include <openssl/err.h>

void asv_error_begin(asv_error *err) {
    ERR_clear_error();
    if (err != NULL) {
        err->message[0] = '\0';
        err->x509_error = 0;
        err->depth = -1;
    }
}

void asv_error_fail(asv_error *err, const char *format, ...) {
    if (err == NULL) {
        ERR_clear_error();
        return;
    }
    va_list arguments;
    va_start(arguments, format);
    int written = vsnprintf(err->message, sizeof(err->message), format, arguments);
    va_end(arguments);
    size_t used = written < 0 ? 0 : (size_t)written;
    if (used >= sizeof(err->message)) {
        used = sizeof(err->message) - 1;
    }
    unsigned long code;
    while ((code = ERR_get_error()) != 0) {
        if (used + 3 >= sizeof(err->message)) {
            continue; // keep draining the queue even when there is no room left
        }
        char line[256];
        ERR_error_string_n(code, line, sizeof(line));
        int more = snprintf(err->message + used, sizeof(err->message) - used, " (%s)", line);
        if (more > 0) {
            used += (size_t)more;
        }
        if (used >= sizeof(err->message)) {
            used = sizeof(err->message) - 1;
        }
    }
}
