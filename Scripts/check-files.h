// File reading for the shim checks (shim-check.c, ocsp-shim-check.c, pkcs7-shim-check.c,
// ocsp-responder-check.c), which Scripts/memory-check.sh builds and runs under the sanitizers and
// valgrind. A file that cannot be read ends the check with status 2: the check's input is missing,
// which is not a shim failure.
#ifndef ASV_CHECK_FILES_H
#define ASV_CHECK_FILES_H

#include <stdio.h>
#include <stdlib.h>

/// The bytes of the file at `path` (the caller frees them), its size in `*length`.
static inline unsigned char *read_path(const char *path, size_t *length) {
    FILE *file = fopen(path, "rb");
    if (file == NULL) {
        perror(path);
        exit(2);
    }
    fseek(file, 0, SEEK_END);
    long size = ftell(file);
    fseek(file, 0, SEEK_SET);
    unsigned char *bytes = size < 0 ? NULL : malloc((size_t)size + 1);
    if (bytes == NULL || fread(bytes, 1, (size_t)size, file) != (size_t)size) {
        fprintf(stderr, "cannot read %s\n", path);
        exit(2);
    }
    fclose(file);
    *length = (size_t)size;
    return bytes;
}

/// The bytes of `directory/name` (the caller frees them), its size in `*length`.
static inline unsigned char *read_file(const char *directory, const char *name, size_t *length) {
    char path[4096];
    snprintf(path, sizeof(path), "%s/%s", directory, name);
    return read_path(path, length);
}

#endif
