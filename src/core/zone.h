/*
 * Zoned block devices: a zone's description (start, length, capacity, write
 * pointer, type, condition), their names as results spell them, and the
 * Linux zone ioctls (BLKREPORTZONE, BLKRESETZONE, BLKOPENZONE, BLKCLOSEZONE,
 * BLKFINISHZONE) on a descriptor, for the "os" target. The simulated disk has
 * its own zones (sim.c). All in bytes, never sectors. No Lua.
 */
#ifndef PLATTER_CORE_ZONE_H
#define PLATTER_CORE_ZONE_H

#include <stdint.h>

#include "error.h"

/* The kernel's values (linux/blkzoned.h), so a report needs no translation. */
enum pl_zone_type {
    PL_ZONE_CONVENTIONAL = 1, /* no write pointer: written anywhere */
    PL_ZONE_SEQ_REQUIRED = 2, /* written only at the write pointer */
    PL_ZONE_SEQ_PREFERRED = 3 /* host-aware: anywhere, sequential is faster */
};

enum pl_zone_cond {
    PL_ZONE_NOT_WP = 0x0,
    PL_ZONE_EMPTY = 0x1,
    PL_ZONE_IMP_OPEN = 0x2,
    PL_ZONE_EXP_OPEN = 0x3,
    PL_ZONE_CLOSED = 0x4,
    PL_ZONE_READONLY = 0xD,
    PL_ZONE_FULL = 0xE,
    PL_ZONE_OFFLINE = 0xF
};

/* The zone management operations, in the order of pl_zone_op_names. */
enum pl_zone_op { PL_ZONE_RESET = 0, PL_ZONE_OPEN = 1, PL_ZONE_CLOSE = 2, PL_ZONE_FINISH = 3 };
extern const char *const pl_zone_op_names[]; /* "reset", "open", "close", "finish", NULL */

struct pl_zone {
    uint64_t start;    /* bytes from the start of the device */
    uint64_t len;      /* bytes */
    uint64_t capacity; /* writable bytes from start (at most len; ZNS may have less) */
    uint64_t wp;       /* the write pointer (absolute); meaningless in a conventional zone */
    unsigned type;     /* enum pl_zone_type */
    unsigned cond;     /* enum pl_zone_cond */
};

/* "conventional", "seq-write-required", "seq-write-preferred"; "unknown" otherwise. */
const char *pl_zone_type_name(unsigned type);
/* "not-wp", "empty", "implicit-open", "explicit-open", "closed", "read-only", "full",
   "offline"; "unknown" otherwise. */
const char *pl_zone_cond_name(unsigned cond);

/*
 * Report at most max zones of the block device fd, from the zone holding byte
 * `from`, into z. The number filled (0: from is past the end), or -errno with
 * *e set: -ENOTTY for anything that is not a zoned block device (a file, a
 * conventional disk, a kernel without zoned support).
 */
int pl_zone_report_fd(int fd, uint64_t from, struct pl_zone *z, unsigned max, struct pl_error *e);

/*
 * Do op over the zones of [start, start + len) of fd (len 0: the one zone at
 * start). 0 or -errno with *e set; the kernel's rules apply: start and len
 * zone-aligned (-EINVAL), fd opened for writing (-EBADF).
 */
int pl_zone_op_fd(int fd, enum pl_zone_op op, uint64_t start, uint64_t len, struct pl_error *e);

#endif
