/*
 * Verified blocks (p.run's verify, fio's verify=): a written block starts with
 * a header naming itself (magic, length, offset, the seed of its data, the
 * checksum kind) and a checksum of the header fields and of everything after
 * the header; the rest is random data. A read checks every block in what it
 * read. Checksums: crc32c from ISA-L, md5 and sha256 from OpenSSL's
 * libcrypto, each loaded on first use (lazylib.h). No Lua.
 */
#ifndef PLATTER_CORE_VERIFY_H
#define PLATTER_CORE_VERIFY_H

#include <stddef.h>
#include <stdint.h>

enum pl_vfy_kind { PL_VFY_NONE, PL_VFY_CRC32C, PL_VFY_MD5, PL_VFY_SHA256 };

/*
 * The header, 64 bytes at the start of each block, little-endian:
 *   0  magic "PLVB" (0x42564c50 as a 32-bit number)
 *   4  kind (enum pl_vfy_kind), 1 byte; 5..7 zero
 *   8  block length in bytes, header included (32 bits)
 *  12  zero (32 bits)
 *  16  the block's offset in its file (64 bits)
 *  24  the seed its data was drawn from (64 bits)
 *  32  the checksum of bytes 0..31 and of bytes 64..length: 4 bytes for crc32c
 *      (the value little-endian), 16 for md5, 32 for sha256; zero after it
 */
#define PL_VFY_HDR 64
#define PL_VFY_MAGIC 0x42564c50u

/* "crc32c", "md5", "sha256" -> the kind; anything else (NULL too) -> PL_VFY_NONE */
enum pl_vfy_kind pl_vfy_kind_of(const char *name);
const char *pl_vfy_name(enum pl_vfy_kind k);
/* the checksum's length in bytes (0 for PL_VFY_NONE) */
size_t pl_vfy_sum_len(enum pl_vfy_kind k);

/* Load the library kind k needs, before the first block (a job's checks do it, so no timed
   I/O pays for the load): 0, or -1 with "verify: md5 needs libcrypto.so.3: <dlerror>" in
   why. pl_vfy_sum and the rest load it themselves too, and fail (-1) without it. */
int pl_vfy_load(enum pl_vfy_kind k, char *why, size_t len);

/* The checksum of a then b (either may be empty) into out (pl_vfy_sum_len bytes). 0, or
   -1 if the library failed. */
int pl_vfy_sum(enum pl_vfy_kind k, const void *a, size_t alen, const void *b, size_t blen,
               uint8_t out[32]);

/* Make buf (len >= PL_VFY_HDR bytes) one block at offset off: its header, data drawn from
   seed, the checksum. 0, or -1 if the checksum library failed. */
int pl_vfy_fill(enum pl_vfy_kind k, void *buf, uint64_t len, uint64_t off, uint64_t seed);

/* What the first bad block of a read was: where, what was wrong, expected and got (as
   text: numbers, or checksums in hex) */
struct pl_vfy_fail {
    uint64_t off;     /* the bad block's offset in its file */
    const char *what; /* "magic", "length", "offset", "kind", "crc32c", "md5", "sha256" */
    char expected[68], got[68];
};

/*
 * Check the len bytes at buf, read from offset off: blocks back to back from
 * its start, each with a header of kind k for its own offset, a length that
 * fits, and the right checksum. 0 when all are good, else -1 with *f
 * describing the first bad one (the rest of the read is not checked: a bad
 * length leaves no next header to find).
 */
int pl_vfy_check(enum pl_vfy_kind k, const void *buf, uint64_t len, uint64_t off,
                 struct pl_vfy_fail *f);

#endif
