/*
 * The simulated disk (`platter --sim PRESET`): a device model driven by a
 * virtual clock, so every workload runs unchanged and prints the same output
 * every time. Models seek time by distance, rotation, zoned media rate, the
 * drive's read-ahead buffer, controller overhead, and the host's page cache
 * with readahead and write-back; where a preset says so, a volatile write
 * cache, an SLC write region and physical sectors larger than the logical
 * one. CPU time is virtual too. It is the "sim"
 * target (target.h): nothing outside sim.c knows it exists. No Lua.
 */
#ifndef PLATTER_CORE_SIM_H
#define PLATTER_CORE_SIM_H

#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "error.h"

struct pl_sim_preset {
    const char *name;
    const char *imitates; /* what it is meant to be, for docs and f:info().model */
    const char *model;
    uint64_t capacity;                /* bytes */
    uint32_t sector;                  /* logical block size */
    unsigned rpm;                     /* 0: solid state (no seek, no rotation) */
    double seek_track_ms;             /* adjacent-track seek */
    double seek_avg_ms;               /* average over random pairs (sets the full-stroke time) */
    double rate_outer;                /* media rate at the start of the disk, bytes/s */
    double rate_inner;                /* ... at the end (zones: linear in between) */
    uint32_t track_buffer_kb;         /* drive read-ahead after each read; 0 = none */
    double iface_rate;                /* bytes/s from the drive's buffer to the host */
    double overhead_us;               /* controller + driver time per request */
    double track_switch_ms;           /* lost at each track boundary inside a transfer (head
                                         switch or cylinder step; the format skews each
                                         track by as much); 0 = none */
    double ssd_read_us, ssd_write_us; /* solid state: access time per request */
    unsigned channels;                /* requests the drive serves at once at queue depth > 1
                                         (flash channels/dies; 0 = 1: one at a time), at most
                                         1024 (sim.c, "The device queue") */
    double write_rate;                /* solid state write bytes/s (0 = media rate) */
    /* the host */
    uint64_t ram;           /* bytes, what p.ram() says */
    uint64_t page_cache;    /* bytes of page cache for buffered ("cooked") I/O */
    uint32_t readahead_kb;  /* kernel readahead on sequential buffered reads */
    double flush_lag_ms;    /* 0: evicted dirty pages are written at once, the process waiting;
                              else by a flusher in the background, the process waiting only
                              when the disk is this far behind or for its own next request */
    uint32_t cache_block;   /* 0: a page cache of 4 KiB pages that reads runs of missing pages as
                              one request plus readahead_kb; else a System V buffer cache of
                              blocks of this size: one disk request per missing block, and one
                              block read ahead (readahead_kb > 0) when a block follows the
                              last one read (bread/breada) */
    double syscall_us;      /* CPU (sys) per I/O system call */
    double copy_rate;       /* bytes/s memcpy between page cache and user (sys CPU) */
    double char_ns;         /* user CPU per putc/getc */
    double getc_ns;         /* user CPU per getc, if not char_ns (0) */
    double write_copy_rate; /* bytes/s of sys CPU for buffered writes, if not copy_rate (0):
                               a file system's block allocation on top of the copy */
    /* the drive's volatile write cache (the vwc probe): writes complete once in it */
    uint32_t vwc_mb;       /* its size; 0: none, a write is stable when it completes */
    int vwc_ignores_flush; /* 1: a flush returns at once, nothing written (a lying drive) */
    /* an SLC write region (the slc-cliff probe), solid state only */
    uint64_t slc_bytes; /* 0: none; else writes fill it at write_rate, then go at slc_rate */
    double slc_rate;    /* bytes/s once it is full; it also empties at this rate while idle */
    /* physical sectors (the align probe) */
    uint32_t phys_sector; /* 0: the logical sector; else a write that covers one partly pays
                             a read-modify-write, a read covers whole ones */
    /* a zoned (host-managed) disk, the "Zoned disks" section of sim.c; 0: not zoned */
    uint64_t zone_size;       /* bytes per zone (the last one may be shorter) */
    uint32_t zone_conv;       /* how many zones at the start are conventional */
    uint64_t zone_cap;        /* writable bytes of a sequential zone; 0: zone_size */
    uint32_t zone_max_open;   /* zones open at once (implicitly or explicitly); 0: no limit */
    uint32_t zone_max_active; /* zones open or closed at once; 0: no limit */
    double zone_op_ms;        /* what one zone reset, open, close or finish costs the drive */
};

/* Every preset, NULL-terminated name list through pl_sim_presets[i].name. */
extern const struct pl_sim_preset pl_sim_presets[];
const struct pl_sim_preset *pl_sim_find(const char *name);

/*
 * Start simulating the named preset: a new disk, and the clock becomes its
 * virtual clock. 0, or -EINVAL for an unknown name. The target's "start"
 * (pl_target_use("sim", name) makes it the target in use).
 */
int pl_sim_start(const char *preset);

/* The target itself is pl_target_sim (target.h). */

#endif
