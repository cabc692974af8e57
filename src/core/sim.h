/*
 * The simulated disk (`platter --sim PRESET`): a device model driven by a
 * virtual clock, so every workload runs unchanged and prints the same output
 * every time. Models seek time by distance, rotation, zoned media rate, the
 * drive's read-ahead buffer, controller overhead, and the host's page cache
 * with readahead and write-back; CPU time is virtual too. No Lua.
 */
#ifndef PLATTER_CORE_SIM_H
#define PLATTER_CORE_SIM_H

#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "error.h"

struct pl_sim_preset {
    const char *name;
    const char *imitates;       /* what it is meant to be, for docs and f:info().model */
    const char *model;
    uint64_t capacity;          /* bytes */
    uint32_t sector;            /* logical block size */
    unsigned rpm;               /* 0: solid state (no seek, no rotation) */
    double seek_track_ms;       /* adjacent-track seek */
    double seek_avg_ms;         /* average over random pairs (sets the full-stroke time) */
    double rate_outer;          /* media rate at the start of the disk, bytes/s */
    double rate_inner;          /* ... at the end (zones: linear in between) */
    uint32_t track_buffer_kb;   /* drive read-ahead after each read; 0 = none */
    double iface_rate;          /* bytes/s from the drive's buffer to the host */
    double overhead_us;         /* controller + driver time per request */
    double ssd_read_us, ssd_write_us;   /* solid state: access time per request */
    double write_rate;          /* solid state write bytes/s (0 = media rate) */
    /* the host */
    uint64_t ram;               /* bytes, what p.ram() says */
    uint64_t page_cache;        /* bytes of page cache for buffered ("cooked") I/O */
    uint32_t readahead_kb;      /* kernel readahead on sequential buffered reads */
    double syscall_us;          /* CPU (sys) per I/O system call */
    double copy_rate;           /* bytes/s memcpy between page cache and user (sys CPU) */
    double char_ns;             /* user CPU per putc/getc */
};

/* Non-zero while a simulation runs; pl_clock_ns() then returns pl_sim_clock. */
extern int pl_sim_on;
extern uint64_t pl_sim_clock;

/* Every preset, NULL-terminated name list through pl_sim_presets[i].name. */
extern const struct pl_sim_preset pl_sim_presets[];
const struct pl_sim_preset *pl_sim_find(const char *name);

/* Start simulating the named preset. 0, or -EINVAL for an unknown name. */
int pl_sim_start(const char *preset);
const struct pl_sim_preset *pl_sim_preset_in_use(void);

/* Advance the virtual clock (sleeps in sim mode). */
void pl_sim_advance(uint64_t ns);
/* Virtual CPU seconds of this process and of its finished workers. */
void pl_sim_cpu(double *user, double *sys);
/* Add a finished worker's CPU (p.parallel) to the children's account. */
void pl_sim_add_child_cpu(double user, double sys);

/* ---- files ------------------------------------------------------------------- */

struct pl_sim_file;     /* opaque; a pl_file's `sim` member */
struct pl_open_opts;
struct pl_file;

/* Open path on the simulated disk ("/dev/..." is the whole device). 0 or -errno (*e set). */
int pl_sim_open(struct pl_file *f, const char *path, const struct pl_open_opts *o,
                struct pl_error *e);
void pl_sim_close(struct pl_file *f);
/* Remove a simulated file by path: 0 or -ENOENT. */
int pl_sim_unlink(const char *path);

enum pl_sim_op { PL_SIM_READ, PL_SIM_WRITE };
/* One I/O call of n bytes at off (advances the clock; returns bytes or -errno). */
int64_t pl_sim_io(struct pl_file *f, enum pl_sim_op op, uint64_t off, uint64_t n);
/* n putc/getc at the file position (stdio buffering modelled). */
int64_t pl_sim_chars(struct pl_file *f, enum pl_sim_op op, uint64_t n);
int pl_sim_fsync(struct pl_file *f);
int64_t pl_sim_seek(struct pl_file *f, int64_t off, int whence);
uint64_t pl_sim_pos(const struct pl_file *f);
void pl_sim_setpos(struct pl_file *f, uint64_t pos);
uint64_t pl_sim_size(const struct pl_file *f);

/* Page cache control for simulated files. */
int pl_sim_drop(struct pl_file *f);
void pl_sim_resident(struct pl_file *f, uint64_t off, uint64_t len, uint64_t *res,
                     uint64_t *total);
int64_t pl_sim_readahead(struct pl_file *f, int64_t set_kb);
void pl_sim_drop_all(void);
/* sync(2): write back every dirty page. */
void pl_sim_sync_all(void);

/* Device facts of a simulated file (f:info()) and the simulated host's RAM. */
struct pl_devinfo;
void pl_sim_info(const struct pl_file *f, struct pl_devinfo *d);
uint64_t pl_sim_ram(void);

/* The engine job.c uses for simulated files (queue depth 1). */
extern const struct pl_engine_ops pl_engine_sim;

#endif
