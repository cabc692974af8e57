/*
 * SHA-256 (FIPS 180-4) of a buffer in memory, for the result record's
 * script.sha256 and p.sha256. Platter's own, so that the executable does not
 * link OpenSSL's libcrypto (4.7 MB and ~3400 symbol bindings at every start)
 * for one digest of a few KiB. Not for secrets: no constant-time promise.
 */
#ifndef PLATTER_CORE_SHA256_H
#define PLATTER_CORE_SHA256_H

#include <stddef.h>
#include <stdint.h>

#define PL_SHA256_LEN 32

/* The digest of len bytes at data into out (32 bytes). */
void pl_sha256(const void *data, size_t len, uint8_t out[PL_SHA256_LEN]);

#endif
