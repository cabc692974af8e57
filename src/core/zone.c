/*
 * Zone names, and the zone ioctls of <linux/blkzoned.h> on a block device's
 * descriptor (zone.h). The kernel counts in 512-byte sectors whatever the
 * logical block size; everything here leaves in bytes.
 */
#include <errno.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <sys/stat.h>

#include "config.h"
#include "zone.h"

#if PL_HAVE_BLKZONED
#include <linux/blkzoned.h>
#endif

const char *const pl_zone_op_names[] = {"reset", "open", "close", "finish", NULL};

const char *pl_zone_type_name(unsigned type)
{
    switch (type) {
    case PL_ZONE_CONVENTIONAL: return "conventional";
    case PL_ZONE_SEQ_REQUIRED: return "seq-write-required";
    case PL_ZONE_SEQ_PREFERRED: return "seq-write-preferred";
    default: return "unknown";
    }
}

const char *pl_zone_cond_name(unsigned cond)
{
    switch (cond) {
    case PL_ZONE_NOT_WP: return "not-wp";
    case PL_ZONE_EMPTY: return "empty";
    case PL_ZONE_IMP_OPEN: return "implicit-open";
    case PL_ZONE_EXP_OPEN: return "explicit-open";
    case PL_ZONE_CLOSED: return "closed";
    case PL_ZONE_READONLY: return "read-only";
    case PL_ZONE_FULL: return "full";
    case PL_ZONE_OFFLINE: return "offline";
    default: return "unknown";
    }
}

/* A regular file or a character device gets ENOTTY from the kernel too; say it first. */
static int not_block(int fd, struct pl_error *e, const char *op)
{
    struct stat st;
    if (fstat(fd, &st) < 0) {
        pl_error_set(e, errno, op);
        return -e->err;
    }
    if (!S_ISBLK(st.st_mode)) {
        pl_error_set(e, ENOTTY, op);
        return -ENOTTY;
    }
    return 0;
}

#if PL_HAVE_BLKZONED

#define BATCH 256u /* zones per BLKREPORTZONE call */

int pl_zone_report_fd(int fd, uint64_t from, struct pl_zone *z, unsigned max, struct pl_error *e)
{
    int rc = not_block(fd, e, "zones");
    if (rc)
        return rc;
    unsigned batch = max < BATCH ? max : BATCH;
    struct blk_zone_report *rep =
        calloc(1, sizeof *rep + (batch ? batch : 1) * sizeof(struct blk_zone));
    if (!rep) {
        pl_error_set(e, ENOMEM, "zones");
        return -ENOMEM;
    }
    unsigned got = 0;
    uint64_t sector = from >> 9;
    while (got < max) {
        rep->sector = sector;
        rep->nr_zones = max - got < batch ? max - got : batch;
        rep->flags = 0;
        if (ioctl(fd, BLKREPORTZONE, rep) < 0) {
            rc = -errno;
            pl_error_set(e, errno, "zones");
            break;
        }
        if (rep->nr_zones == 0)
            break; /* past the last zone */
        for (unsigned i = 0; i < rep->nr_zones && got < max; i++) {
            const struct blk_zone *k = &rep->zones[i];
            /* capacity is there only when the kernel says so (5.9 on) */
            uint64_t cap = (rep->flags & BLK_ZONE_REP_CAPACITY) ? k->capacity : k->len;
            z[got++] = (struct pl_zone){.start = k->start << 9,
                                        .len = k->len << 9,
                                        .capacity = cap << 9,
                                        .wp = k->wp << 9,
                                        .type = k->type,
                                        .cond = k->cond};
            sector = k->start + k->len;
        }
    }
    free(rep);
    return rc ? rc : (int)got;
}

int pl_zone_op_fd(int fd, enum pl_zone_op op, uint64_t start, uint64_t len, struct pl_error *e)
{
    static const unsigned long req[] = {BLKRESETZONE, BLKOPENZONE, BLKCLOSEZONE, BLKFINISHZONE};
    const char *name = pl_zone_op_names[op];
    int rc = not_block(fd, e, name);
    if (rc)
        return rc;
    if (!len) { /* the one zone at start */
        uint32_t zsect = 0;
        if (ioctl(fd, BLKGETZONESZ, &zsect) < 0) {
            pl_error_set(e, errno, name);
            return -e->err;
        }
        if (!zsect) {
            pl_error_set(e, ENOTTY, name);
            return -ENOTTY;
        }
        len = (uint64_t)zsect << 9;
    }
    struct blk_zone_range r = {.sector = start >> 9, .nr_sectors = len >> 9};
    if ((start | len) & 511) {
        pl_error_set(e, EINVAL, name);
        return -EINVAL;
    }
    if (ioctl(fd, req[op], &r) < 0) {
        pl_error_set(e, errno, name);
        return -e->err;
    }
    return 0;
}

#else /* headers without zoned devices: nothing here is one */

int pl_zone_report_fd(int fd, uint64_t from, struct pl_zone *z, unsigned max, struct pl_error *e)
{
    (void)from, (void)z, (void)max;
    int rc = not_block(fd, e, "zones");
    if (!rc)
        pl_error_set(e, ENOTTY, "zones");
    return rc ? rc : -ENOTTY;
}

int pl_zone_op_fd(int fd, enum pl_zone_op op, uint64_t start, uint64_t len, struct pl_error *e)
{
    (void)start, (void)len;
    int rc = not_block(fd, e, pl_zone_op_names[op]);
    if (!rc)
        pl_error_set(e, ENOTTY, pl_zone_op_names[op]);
    return rc ? rc : -ENOTTY;
}

#endif
