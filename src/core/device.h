/*
 * Facts about what a file lives on, for reports and for the alignment rule:
 * block sizes, direct-I/O alignment (statx), rotational, model, scheduler,
 * readahead, filesystem type and mount options. Reads sysfs and
 * /proc/self/mountinfo; no Lua.
 */
#ifndef PLATTER_CORE_DEVICE_H
#define PLATTER_CORE_DEVICE_H

#include <stdint.h>

struct pl_devinfo {
    char kind[8];              /* "file", "block", "other" */
    uint64_t size;             /* bytes */
    uint32_t logical_block;    /* bytes; 0 unknown */
    uint32_t physical_block;   /* bytes; 0 unknown */
    uint32_t dio_mem_align;    /* statx STATX_DIOALIGN; 0 unknown/unsupported */
    uint32_t dio_offset_align; /* ditto */
    int rotational;            /* 1, 0, or -1 unknown */
    int read_ahead_kb;         /* -1 unknown */
    char device[64];      /* kernel name of the backing block device ("vda", "loop3"), "" unknown */
    char model[128];      /* sysfs device/model, trimmed; "" unknown */
    char scheduler[64];   /* the [selected] one; "" unknown */
    char write_cache[32]; /* queue/write_cache ("write back"), "" unknown */
    char fs_type[32];     /* "ext4"...; "" for a raw device */
    char mount_point[256];
    char mount_options[256];
    uint64_t fs_size; /* the filesystem's size (statvfs f_frsize * f_blocks); 0 unknown */
    unsigned dev_major, dev_minor; /* of the backing device (st_dev or st_rdev) */
    /* zoned block devices (sysfs queue/zoned, chunk_sectors, nr_zones, max_*_zones) */
    char zoned[16];            /* "host-managed", "host-aware", "none"; "" unknown */
    uint64_t zone_size;        /* bytes; 0 unknown or not zoned */
    uint32_t nr_zones;         /* 0 unknown or not zoned */
    uint32_t max_open_zones;   /* 0: no limit (or unknown) */
    uint32_t max_active_zones; /* 0: no limit (or unknown) */
};

/*
 * Fill *d for the open fd (path is used for messages and mount lookup only).
 * Missing facts are left "unknown" rather than failing. 0 or -errno of fstat.
 */
int pl_device_info(int fd, const char *path, struct pl_devinfo *d);

/*
 * One line of /proc/diskstats: the device's kernel name and the first 11
 * counters after it, in the kernel's order (pl_diskstat_fields names them;
 * fio's diskutil reads the same ones from /sys/block/DEV/stat). Sectors are
 * 512 bytes, ticks milliseconds. 0, or -1 for a line that is not one.
 */
#define PL_DISKSTAT_NR 11
struct pl_diskstat {
    char name[64];
    uint64_t v[PL_DISKSTAT_NR];
};
extern const char *const pl_diskstat_fields[PL_DISKSTAT_NR];
int pl_diskstat_parse(const char *line, struct pl_diskstat *d);

/* sysfs directory of a block device by dev numbers, resolving partitions to the
 * whole disk's queue/. Writes into buf; 0 or -ENOENT. */
int pl_device_queue_dir(unsigned major, unsigned minor, char *buf, unsigned len);

/* Total RAM in bytes (sysconf), 0 if unknown. */
uint64_t pl_device_ram(void);

#endif
