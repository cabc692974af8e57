/*
 * The page cache and readahead: drop a file's or device's cached pages,
 * count resident pages (mincore), get/set readahead, fadvise, and the
 * system-wide drop_caches. Uses file.h; no Lua.
 */
#ifndef PLATTER_CORE_CACHE_H
#define PLATTER_CORE_CACHE_H

#include <stdint.h>

#include "error.h"
#include "file.h"
#include "target.h"

/*
 * Drop f's cached pages: fdatasync + POSIX_FADV_DONTNEED for a regular file,
 * fsync + BLKFLSBUF (then DONTNEED) for a block device. 0 or -errno (*e set).
 */
int pl_cache_drop(struct pl_file *f, struct pl_error *e);

/*
 * Pages of [off, off+len) resident in the page cache (mincore on a mapping).
 * len 0 means "to end of file". Stores resident and total page counts.
 * 0 or -errno (*e set). An empty range gives 0 / 0.
 */
int pl_cache_resident(struct pl_file *f, uint64_t off, uint64_t len, uint64_t *resident,
                      uint64_t *total, struct pl_error *e);

/*
 * Readahead in KiB. Get: for a device BLKRAGET (512-byte sectors -> KiB); for a
 * file, read_ahead_kb of the backing device from sysfs. Set (kb >= 0):
 * BLKRASET on a device (root), or the sysfs knob for a file's device.
 * Returns the value (after setting), or -errno (*e set).
 */
int64_t pl_cache_readahead(struct pl_file *f, int64_t set_kb, struct pl_error *e);

/* posix_fadvise over [off, off + len) (len 0: to the end; 0, 0: the whole file).
   0 or -errno. */
int pl_cache_advise(struct pl_file *f, enum pl_advice a, uint64_t off, uint64_t len,
                    struct pl_error *e);

/* Open the system-wide drop knob now (when root), for use after the sandbox is on. */
void pl_cache_preopen(void);

/* sync(), then write "3" to /proc/sys/vm/drop_caches. 0 or -errno (EACCES/EPERM when not root). */
int pl_cache_drop_system(struct pl_error *e);

#endif
