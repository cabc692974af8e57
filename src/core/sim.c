/*
 * The simulated disk. State: a virtual clock, a disk (head position, the
 * drive's read-ahead buffer), a host page cache (LRU of 4 KiB pages with
 * dirty bits) and a namespace of simulated files laid out as extents on the
 * disk. Every I/O call advances the clock by what the model says it costs;
 * nothing real is read or written. Deterministic: no randomness, no real time.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "clock.h"
#include "device.h"
#include "guard.h"
#include "sim.h"
#include "file.h"
#include "target.h"
#include "zone.h"

#define PAGE 4096u           /* the page cache's block unless a preset sets cache_block */
#define MAX_FILES (1u << 24) /* file ids are the high bits of a page key (id << 40) */
#define STDIO_BUF 4096u      /* stdio's buffer: putc/getc reach the kernel this often */
#define CLOCK_ORIGIN 1000000000ull
#define SF(f) ((struct pl_sim_file *)(f)->tdata)

static uint64_t sim_clock; /* the virtual clock, ns */

/* {====================================================================
** Presets
** ===================================================================== */

/* the drive of sata-7200-wc and sata-7200-lying (one disk, two firmwares): a 7200-RPM
   2 TB SATA disk (6 Gb/s) with its 64 MiB volatile write cache on */
#define SATA_7200_2TB_WC                                                                           \
    .capacity = 2000ull * 1000 * 1000 * 1000, .sector = 512, .rpm = 7200, .seek_track_ms = 1.0,    \
    .seek_avg_ms = 8.5, .rate_outer = 200.0e6, .rate_inner = 100.0e6, .track_buffer_kb = 1024,     \
    .iface_rate = 600.0e6, .overhead_us = 40.0, .ram = 8ull << 30, .page_cache = 6ull << 30,       \
    .readahead_kb = 128, .syscall_us = 1.0, .copy_rate = 8.0e9, .char_ns = 3.0, .vwc_mb = 64

const struct pl_sim_preset pl_sim_presets[] = {
    {
        .name = "hitachi-85mb-1988",
        .imitates = "Hitachi 85 MB 5.25\" disk on an ST506 controller in an NCR Tower 32/400 "
                    "(16 MHz 68020), as measured in the 1988 block-size sweep (seed 000)",
        .model = "Hitachi 85MB ST506 (simulated)",
        .capacity = 85ull * 1000 * 1000,
        .sector = 512,
        .rpm = 3600,
        .seek_track_ms = 6.0,
        .seek_avg_ms = 28.0,
        .rate_outer = 522240.0, /* 17 sectors x 512 B x 60 rev/s */
        .rate_inner = 522240.0,
        .track_buffer_kb = 0,
        .iface_rate = 625000.0,
        .overhead_us = 1500.0,
        .track_switch_ms = 6.0, /* the track-to-track seek */
        .ram = 4ull << 20,
        .page_cache = 96ull << 10, /* 192 buffers: "buffer cache filled up" past 64 KiB */
        .cache_block = 512,
        .readahead_kb = 1,
        .syscall_us = 260.0,
        .copy_rate = 740.0e3,
        .char_ns = 9000.0,
    },
    {
        .name = "ata-5400-1999",
        .imitates = "a 1999 5400-RPM ATA disk (UDMA/33) whose media rate falls from ~15 MB/s "
                    "on the outer zones to ~9 MB/s on the inner ones (seed 002)",
        .model = "ATA 5400rpm 6.4GB (simulated)",
        .capacity = 6400ull * 1000 * 1000,
        .sector = 512,
        .rpm = 5400,
        .seek_track_ms = 1.5,
        .seek_avg_ms = 9.5,
        .rate_outer = 15.0e6,
        .rate_inner = 9.0e6,
        .track_buffer_kb = 512,
        .iface_rate = 33.0e6,
        .overhead_us = 250.0,
        .ram = 128ull << 20,
        .page_cache = 96ull << 20,
        .readahead_kb = 64,
        .syscall_us = 4.0,
        .copy_rate = 120.0e6, /* the post's hdparm -T: 114-128 MB/s */
        .char_ns = 40.0,
    },
    {
        .name = "scsi-7200-1999",
        .imitates = "an IBM 7200-RPM SCSI disk on a narrow Ultra SCSI adapter in a K6-233 with "
                    "64 MB of RAM under Linux 2.2, the machine of the Bonnie rows of seed 001",
        .model = "IBM 7200rpm SCSI 9.1GB (simulated)",
        .capacity = 9100ull * 1000 * 1000, /* the post's df: 2.9 + 5.6 GB and the rest */
        .sector = 512,
        .rpm = 7200,
        .seek_track_ms = 1.0,
        .seek_avg_ms = 9.0,
        .rate_outer = 12.5e6, /* the post's block read: 10.6 MB/s through ext2 */
        .rate_inner = 8.0e6,
        .track_buffer_kb = 512,
        .iface_rate = 20.0e6, /* narrow Ultra SCSI */
        .overhead_us = 300.0,
        .ram = 64ull << 20,
        .page_cache = 16ull << 20, /* what X, Netscape and the kernel leave of 64 MB */
        .readahead_kb = 72,        /* Linux 2.2: at most 18 pages */
        .flush_lag_ms = 1000.0,    /* bdflush writes dirty buffers behind the writer */
        .syscall_us = 3.0,
        .copy_rate = 56.0e6,       /* the post's %CPU of block reads and seeks */
        .write_copy_rate = 28.0e6, /* ... of block writes: ext2 allocates as it copies */
        .char_ns = 1050.0,         /* the post's putc: 86.9% CPU at 849 K/s */
        .getc_ns = 440.0,          /* ... getc: 81.6% at 1863 K/s */
    },
    {
        .name = "nvme",
        .imitates = "a modern NVMe SSD on a current host: ~80 us reads, ~20 us cached writes, "
                    "3 GB/s, 32 requests at once",
        .model = "NVMe SSD (simulated)",
        .capacity = 512ull << 30,
        .sector = 512,
        .rpm = 0,
        .rate_outer = 3.0e9,
        .rate_inner = 3.0e9,
        .iface_rate = 3.0e9,
        .overhead_us = 3.0,
        .ssd_read_us = 80.0,
        .ssd_write_us = 20.0,
        .channels = 32, /* the queue model: 32 requests at once */
        .write_rate = 2.0e9,
        .ram = 16ull << 30,
        .page_cache = 12ull << 30,
        .readahead_kb = 128,
        .syscall_us = 0.8,
        .copy_rate = 10.0e9,
        .char_ns = 2.0,
    },
    /* the probes' presets (issue 16): each has one feature whose answer is known */
    {
        .name = "sata-7200-wc",
        .imitates = "a 7200-RPM 2 TB SATA disk with its 64 MiB volatile write cache on: writes "
                    "complete in the cache, a flush waits for the media (the vwc probe)",
        .model = "SATA 7200rpm 2TB write cache on (simulated)",
        SATA_7200_2TB_WC,
    },
    {
        .name = "sata-7200-lying",
        .imitates = "the sata-7200-wc disk behind a bridge that acknowledges cache flushes "
                    "without writing the cache: a lying drive (the vwc probe)",
        .model = "SATA 7200rpm 2TB flushes ignored (simulated)",
        SATA_7200_2TB_WC,
        .vwc_ignores_flush = 1,
    },
    {
        .name = "nvme-qlc",
        .imitates = "a 1 TB QLC NVMe SSD with a 12 GiB SLC write region: 1.8 GB/s writes until it "
                    "is full, then 110 MB/s; it empties at that rate while idle (slc-cliff)",
        .model = "NVMe QLC SSD 1TB (simulated)",
        .capacity = 1000ull * 1000 * 1000 * 1000,
        .sector = 512,
        .rpm = 0,
        .rate_outer = 2.0e9,
        .rate_inner = 2.0e9,
        .iface_rate = 3.5e9,
        .overhead_us = 3.0,
        .ssd_read_us = 90.0,
        .ssd_write_us = 20.0,
        .write_rate = 1.8e9,
        .ram = 16ull << 30,
        .page_cache = 12ull << 30,
        .readahead_kb = 128,
        .syscall_us = 0.8,
        .copy_rate = 10.0e9,
        .char_ns = 2.0,
        .slc_bytes = 12ull << 30,
        .slc_rate = 110.0e6,
    },
    {
        .name = "sata-5400-512e",
        .imitates = "a 5400-RPM 2 TB SATA disk with 4 KiB physical sectors behind 512-byte "
                    "logical ones (Advanced Format 512e), write cache off (the align probe)",
        .model = "SATA 5400rpm 2TB 512e (simulated)",
        .capacity = 2000ull * 1000 * 1000 * 1000,
        .sector = 512,
        .rpm = 5400,
        .seek_track_ms = 2.0,
        .seek_avg_ms = 12.0,
        .rate_outer = 150.0e6,
        .rate_inner = 75.0e6,
        .track_buffer_kb = 1024,
        .iface_rate = 600.0e6,
        .overhead_us = 40.0,
        .ram = 8ull << 30,
        .page_cache = 6ull << 30,
        .readahead_kb = 128,
        .syscall_us = 1.0,
        .copy_rate = 8.0e9,
        .char_ns = 3.0,
        .phys_sector = 4096,
    },
    {
        .name = "smr-hm",
        .imitates = "a host-managed SMR disk (7200 RPM, 64 GiB): 4 conventional zones, then 252 "
                    "sequential-write-required zones of 256 MiB, at most 128 open",
        .model = "Host-managed SMR 7200rpm 64GiB (simulated)",
        .capacity = 64ull << 30,
        .sector = 4096,
        .rpm = 7200,
        .seek_track_ms = 1.0,
        .seek_avg_ms = 8.5,
        .rate_outer = 260.0e6,
        .rate_inner = 130.0e6,
        .track_buffer_kb = 1024,
        .iface_rate = 600.0e6,
        .overhead_us = 50.0,
        .ram = 16ull << 30,
        .page_cache = 12ull << 30,
        .readahead_kb = 128,
        .syscall_us = 1.0,
        .copy_rate = 10.0e9,
        .char_ns = 2.0,
        .zone_size = 256ull << 20,
        .zone_conv = 4,
        .zone_max_open = 128,
        .zone_op_ms = 2.0,
    },
    {
        .name = "zns",
        .imitates = "a ZNS NVMe SSD (64 GiB): 32 zones of 2 GiB that hold 1077 MiB each, at most "
                    "14 open and 14 active (simulated at queue depth 1)",
        .model = "ZNS NVMe SSD (simulated)",
        .capacity = 64ull << 30,
        .sector = 4096,
        .rpm = 0,
        .rate_outer = 3.0e9,
        .rate_inner = 3.0e9,
        .iface_rate = 3.0e9,
        .overhead_us = 3.0,
        .ssd_read_us = 80.0,
        .ssd_write_us = 20.0,
        .write_rate = 1.0e9,
        .ram = 16ull << 30,
        .page_cache = 12ull << 30,
        .readahead_kb = 128,
        .syscall_us = 0.8,
        .copy_rate = 10.0e9,
        .char_ns = 2.0,
        .zone_size = 2ull << 30,
        .zone_cap = 1077ull << 20,
        .zone_max_open = 14,
        .zone_max_active = 14,
        .zone_op_ms = 0.5,
    },
    {0},
};

const struct pl_sim_preset *pl_sim_find(const char *name)
{
    for (const struct pl_sim_preset *p = pl_sim_presets; p->name; p++)
        if (strcmp(p->name, name) == 0)
            return p;
    return NULL;
}

/* }==================================================================== */

/* {====================================================================
** State
** ===================================================================== */

struct node {           /* one cached page */
    uint64_t key;       /* file id << 40 | page index */
    int32_t prev, next; /* LRU list (head = most recent) */
    int32_t hnext;      /* hash chain */
    uint8_t dirty;
};

struct pl_sim_file {
    unsigned id;
    char *path;
    int block; /* the whole device */
    uint64_t size;
    uint64_t extent;   /* where the file starts on the disk */
    uint64_t pos;      /* the descriptor's position */
    uint64_t last_end; /* end of the previous read: detects sequential reads */
    uint64_t next_blk; /* buffer cache: the block after the last one read (i_lastr + 1) */
    int special;       /* 1 /dev/null, 2 /dev/zero: character devices, no disk */
    int refs;          /* open descriptors */
    int gone;          /* removed while open: freed at its last close */
    int32_t hnext;     /* the name hash's chain (a file id), live files only */
};

#define VWC_EXTENTS 1024 /* ranges the drive's write cache keeps apart (vwc_mb) */

static struct {
    const struct pl_sim_preset *p;
    double full_seek_ms;
    uint64_t head;      /* byte offset under the head */
    int streaming;      /* the last request was a read: stream_* and buf_hi hold */
    uint64_t stream_lo; /* where the current read stream started on the disk */
    uint64_t stream_t;  /* virtual time the media at stream_lo passed the head */
    uint64_t buf_lo;    /* the drive's buffer: the last read request ... */
    uint64_t buf_hi;    /* ... and what it reads ahead after it */
    uint64_t next_extent;
    double user, sys, child_user, child_sys;
    int trace;          /* PLATTER_SIM_TRACE: print every disk request */
    uint64_t sigint_at; /* PLATTER_SIM_SIGINT: the instant of a Ctrl-C, 0 = none */
    /* page cache */
    struct node *nodes;
    int32_t *buckets;
    uint32_t nbuckets, nnodes, cap_nodes, max_pages, used, ndirty;
    int32_t lru_head, lru_tail, free_list;
    /* free extents left by removed files: reused first-fit */
    struct hole {
        uint64_t start, len;
    } * holes;
    unsigned nholes, cap_holes;
    /* files: the table by id (NULL: a free id, on the free list), and a hash of
       the live names */
    struct pl_sim_file **files;
    unsigned nfiles, cap_files;
    unsigned *free_ids;
    unsigned nfree;
    int32_t *names;
    uint32_t nnames, nlive;
    uint32_t readahead_kb;
    uint32_t blk;       /* bytes per cached block: PAGE, or the preset's cache_block */
    uint64_t disk_busy; /* the flusher keeps the disk busy until then (flush_lag_ms) */
    /* the drive's volatile write cache (vwc_mb): the ranges it holds, oldest first */
    struct vwc_extent {
        uint64_t off, len;
    } vwc[VWC_EXTENTS];
    unsigned vwc_n;
    uint64_t vwc_bytes;
    /* the SLC write region (slc_bytes): the bytes in it, and when the drive went idle */
    uint64_t slc_used, slc_idle_at;
} S;

/* A Ctrl-C at a virtual instant, for tests: SIGINT is raised once, inside the
   I/O, sleep or CPU spending that moves the clock past it, as a key pressed
   then would arrive. */
static void passed(void)
{
    if (S.sigint_at && sim_clock >= S.sigint_at) {
        S.sigint_at = 0;
        raise(SIGINT);
    }
}

static void sim_advance(uint64_t ns)
{
    if (S.sigint_at > sim_clock && S.sigint_at - sim_clock < ns)
        ns = S.sigint_at - sim_clock; /* a sleep ends where the signal lands */
    sim_clock += ns;
    passed();
}

static void sim_cpu(double *user, double *sys);

static const struct pl_clock_source sim_time = {
    .name = "virtual (simulated disk)",
    .now = &sim_clock,
    .advance = sim_advance,
    .cpu = sim_cpu,
};

static void zones_start(const struct pl_sim_preset *p); /* "Zoned disks" below */

int pl_sim_start(const char *name)
{
    const struct pl_sim_preset *p = pl_sim_find(name);
    if (!p)
        return -EINVAL;
    /* a second start (the unit tests make several) drops the last disk: its cache, and
       the files no descriptor holds */
    free(S.nodes);
    free(S.buckets);
    for (unsigned i = 0; i < S.nfiles; i++) {
        if (S.files[i] && S.files[i]->refs == 0) {
            free(S.files[i]->path);
            free(S.files[i]);
        }
    }
    free(S.files);
    free(S.free_ids);
    free(S.names);
    free(S.holes);
    memset(&S, 0, sizeof S);
    S.p = p;
    /* E[sqrt(|x-y|)] over uniform pairs is 8/15: pick the full stroke that gives seek_avg */
    S.full_seek_ms = p->seek_track_ms + (p->seek_avg_ms - p->seek_track_ms) * 15.0 / 8.0;
    S.blk = p->cache_block ? p->cache_block : PAGE;
    S.max_pages = (uint32_t)(p->page_cache / S.blk);
    S.lru_head = S.lru_tail = S.free_list = -1;
    S.readahead_kb = p->readahead_kb;
    S.trace = getenv("PLATTER_SIM_TRACE") != NULL;
    const char *at = getenv("PLATTER_SIM_SIGINT"); /* seconds of virtual time */
    if (at && atof(at) > 0)
        S.sigint_at = CLOCK_ORIGIN + (uint64_t)llround(atof(at) * 1e9);
    sim_clock = CLOCK_ORIGIN;
    pl_clock_set_source(&sim_time);
    zones_start(p);
    return 0;
}

static void spend_sys(double seconds)
{
    S.sys += seconds;
    sim_clock += (uint64_t)llround(seconds * 1e9);
    passed();
}

static void spend_user(double seconds)
{
    S.user += seconds;
    sim_clock += (uint64_t)llround(seconds * 1e9);
    passed();
}

static void sim_cpu(double *user, double *sys)
{
    *user = S.user + S.child_user;
    *sys = S.sys + S.child_sys;
}

/* A worker ran from the parent's clock to `clock`: the parent goes on from there. */
static void sim_join(uint64_t clock, double user, double sys)
{
    if (clock > sim_clock)
        sim_clock = clock;
    S.child_user += user;
    S.child_sys += sys;
    passed();
}

/* }==================================================================== */

/* {====================================================================
** Physical sectors larger than the logical one (a preset's phys_sector)
** ===================================================================== */

static uint64_t disk_request(int write, uint64_t off, uint64_t n);

/* A request at dt ns from now, the clock put back after: a drive's own work */
static uint64_t request_at(uint64_t dt, int write, uint64_t off, uint64_t n)
{
    sim_clock += dt;
    uint64_t t = disk_request(write, off, n);
    sim_clock -= dt;
    return t;
}

/*
 * The media time of a request on a disk whose physical sector is larger than
 * its logical one (512e): a read covers the whole physical sectors it touches;
 * a write that covers one only partly first reads the sectors it touches and
 * then writes them back whole (a read-modify-write: on a rotating disk the
 * write waits for them to come round again).
 */
static uint64_t media_request(int write, uint64_t off, uint64_t n)
{
    uint64_t ps = S.p->phys_sector;
    if (ps <= S.p->sector || !n)
        return disk_request(write, off, n);
    uint64_t lo = off - off % ps, hi = (off + n + ps - 1) / ps * ps;
    if (!write || (lo == off && hi == off + n))
        return disk_request(write, lo, hi - lo);
    uint64_t t = disk_request(0, lo, hi - lo);
    return t + request_at(t, 1, lo, hi - lo);
}

/* }==================================================================== */

/* {====================================================================
** The drive's volatile write cache (a preset's vwc_mb)
** ===================================================================== */

/*
 * A write lands in the drive's cache and completes at the interface rate; the
 * media write comes later: on a flush (fsync, fdatasync, an O_DSYNC write,
 * sync, a cache drop), all of the cache in offset order while the process
 * waits, or when the cache is full, its oldest range to make room. A preset
 * with vwc_ignores_flush takes the flush and writes nothing (a lying drive).
 * The model has no background destaging while the drive is idle.
 */
static int vwc_holds(uint64_t off, uint64_t n)
{
    for (unsigned i = 0; i < S.vwc_n; i++)
        if (off >= S.vwc[i].off && off + n <= S.vwc[i].off + S.vwc[i].len)
            return 1;
    return 0;
}

static uint64_t device_request(int write, uint64_t off, uint64_t n)
{
    uint64_t cap = (uint64_t)S.p->vwc_mb << 20;
    if (!write || n > cap)
        return media_request(write, off, n);
    uint64_t t = 0;
    if (!vwc_holds(off, n)) {
        struct vwc_extent *last = S.vwc_n ? &S.vwc[S.vwc_n - 1] : NULL;
        uint64_t lo = 0, hi = 0;
        if (last && off <= last->off + last->len && off + n >= last->off) {
            lo = off < last->off ? off : last->off;
            hi = off + n > last->off + last->len ? off + n : last->off + last->len;
        }
        if (hi && S.vwc_bytes + (hi - lo) - last->len <= cap) { /* grows the last range */
            S.vwc_bytes += (hi - lo) - last->len;
            last->off = lo;
            last->len = hi - lo;
        } else {
            while (S.vwc_n && (S.vwc_n == VWC_EXTENTS || S.vwc_bytes + n > cap)) {
                t += request_at(t, 1, S.vwc[0].off, S.vwc[0].len); /* full: the oldest out */
                S.vwc_bytes -= S.vwc[0].len;
                memmove(S.vwc, S.vwc + 1, --S.vwc_n * sizeof S.vwc[0]);
            }
            S.vwc[S.vwc_n++] = (struct vwc_extent){off, n};
            S.vwc_bytes += n;
        }
    }
    return t + (uint64_t)llround(S.p->overhead_us * 1e3 + (double)n / S.p->iface_rate * 1e9);
}

static int by_offset(const void *a, const void *b)
{
    uint64_t x = ((const struct vwc_extent *)a)->off, y = ((const struct vwc_extent *)b)->off;
    return x < y ? -1 : x > y;
}

/* A cache flush command: the cache's ranges written in offset order (unless ignored). */
static void vwc_flush(void)
{
    if (!S.p->vwc_mb)
        return;
    if (sim_clock < S.disk_busy)
        sim_clock = S.disk_busy;
    uint64_t t = (uint64_t)llround(S.p->overhead_us * 1e3);
    if (!S.p->vwc_ignores_flush) {
        qsort(S.vwc, S.vwc_n, sizeof S.vwc[0], by_offset);
        for (unsigned i = 0; i < S.vwc_n; i++)
            t += request_at(t, 1, S.vwc[i].off, S.vwc[i].len);
        S.vwc_n = 0;
        S.vwc_bytes = 0;
    }
    sim_clock += t;
    passed();
}

/* }==================================================================== */

/* {====================================================================
** The SLC write region (a preset's slc_bytes)
** ===================================================================== */

/*
 * A solid-state write of n bytes that took t ns at the preset's write_rate,
 * with an SLC region: the bytes that still fit in the region go at that rate,
 * the rest at slc_rate. The region empties (its data is moved to the slower
 * cells) at slc_rate while the drive is idle. Returns the request's time.
 */
static double slc_request(int write, uint64_t n, double t, double rate)
{
    const struct pl_sim_preset *p = S.p;
    if (sim_clock > S.slc_idle_at) {
        double freed = (double)(sim_clock - S.slc_idle_at) * 1e-9 * p->slc_rate;
        S.slc_used = freed >= (double)S.slc_used ? 0 : S.slc_used - (uint64_t)freed;
    }
    if (write) {
        uint64_t room = p->slc_bytes - S.slc_used, fast = n < room ? n : room;
        t += (double)(n - fast) * 1e9 * (1.0 / p->slc_rate - 1.0 / rate);
        S.slc_used += fast;
    }
    S.slc_idle_at = sim_clock + (uint64_t)llround(t);
    return t;
}

/* }==================================================================== */

/* {====================================================================
** The disk
** ===================================================================== */

static double media_rate(uint64_t off)
{
    const struct pl_sim_preset *p = S.p;
    double f = p->capacity ? (double)off / (double)p->capacity : 0;
    if (f > 1)
        f = 1;
    return p->rate_outer + (p->rate_inner - p->rate_outer) * f;
}

static double rev_ns(void)
{
    return 60.0e9 / S.p->rpm;
}

static uint64_t track_bytes(uint64_t off)
{
    return (uint64_t)(media_rate(off) * rev_ns() / 1e9);
}

static double seek_ns(uint64_t from, uint64_t to)
{
    uint64_t d = from > to ? from - to : to - from;
    uint64_t tb = track_bytes(from);
    if (d < tb && from / tb == to / tb)
        return 0; /* same track */
    double frac = (double)d / (double)S.p->capacity;
    return (S.p->seek_track_ms + (S.full_seek_ms - S.p->seek_track_ms) * sqrt(frac)) * 1e6;
}

/*
 * Rotating disk reads stream: after positioning at stream_lo (at virtual time
 * stream_t) the media passes under the head at media_rate, and the drive keeps
 * reading up to buf_hi (the request's end plus its read-ahead buffer). A read
 * that starts inside that stream continues it with no seek; one past buf_hi
 * after the drive stopped waits for the platter to come round again.
 */
static uint64_t avail_at(uint64_t x)
{
    return S.stream_t + (uint64_t)((double)(x - S.stream_lo) / media_rate(S.stream_lo) * 1e9);
}

/* Where off's sector is in the revolution, as a fraction of a turn from the index: each
   track is skewed by the track switch time, so a transfer that crosses into the next
   track finds its first sector there just as the switch is done. */
static double angle_of(uint64_t off)
{
    uint64_t tb = track_bytes(off);
    double a = (double)(off % tb) / (double)tb;
    if (S.p->track_switch_ms > 0)
        a = fmod(a + (double)(off / tb) * S.p->track_switch_ms * 1e6 / rev_ns(), 1.0);
    return a;
}

static double rotation_wait(double now, uint64_t off)
{
    double rev = rev_ns();
    double wait = angle_of(off) - fmod(now, rev) / rev;
    return (wait < 0 ? wait + 1.0 : wait) * rev;
}

/* The media time of n bytes at off: the bytes at the media rate, and the track switches. */
static double transfer_ns(uint64_t off, uint64_t n)
{
    double t = (double)n / media_rate(off) * 1e9;
    if (S.p->track_switch_ms > 0 && n) {
        uint64_t tb = track_bytes(off);
        t += (double)((off + n - 1) / tb - off / tb) * S.p->track_switch_ms * 1e6;
    }
    return t;
}

/* Time the drive spends on a request of n bytes at disk offset off. */
static uint64_t disk_request(int write, uint64_t off, uint64_t n)
{
    const struct pl_sim_preset *p = S.p;
    double t = p->overhead_us * 1e3;
    uint64_t end = off + n, ra = (uint64_t)p->track_buffer_kb * 1024;
    if (!p->rpm) { /* solid state */
        double rate = write && p->write_rate > 0 ? p->write_rate : p->rate_outer;
        t += (write ? p->ssd_write_us : p->ssd_read_us) * 1e3 + (double)n / rate * 1e9;
        if (p->slc_bytes)
            t = slc_request(write, n, t, rate);
        return (uint64_t)llround(t);
    }
    double now = (double)sim_clock + t;
    /* a drive with no buffer holds nothing: every read, a reread too, waits for its sector */
    if (!write && ra && S.streaming && off >= S.buf_lo && off <= S.buf_hi) {
        double done;
        if (end <= S.buf_hi || (double)avail_at(S.buf_hi) >= now) {
            /* in the buffer, or the drive is still reading towards it: no seek */
            done = (double)avail_at(end);
            if (done < now + (double)n / p->iface_rate * 1e9)
                done = now + (double)n / p->iface_rate * 1e9;
        } else {
            /* the drive stopped at buf_hi: wait for that sector to come round again */
            double start = now + rotation_wait(now, S.buf_hi);
            S.stream_lo = S.buf_hi;
            S.stream_t = (uint64_t)start;
            done = (double)avail_at(end);
        }
        if (end + ra > S.buf_hi)
            S.buf_hi = end + ra > p->capacity ? p->capacity : end + ra;
        S.buf_lo = off;
        S.head = S.buf_hi;
        return (uint64_t)llround(done - (double)sim_clock);
    }
    t += seek_ns(S.head, off);
    now = (double)sim_clock + t;
    t += rotation_wait(now, off);
    S.streaming = !write;
    S.stream_lo = off;
    S.stream_t = sim_clock + (uint64_t)t;
    t += transfer_ns(off, n);
    S.buf_lo = off;
    S.buf_hi = write ? end : (end + ra > p->capacity ? p->capacity : end + ra);
    S.head = write ? end : S.buf_hi;
    return (uint64_t)llround(t);
}

static void disk_io(int write, uint64_t off, uint64_t n)
{
    if (sim_clock < S.disk_busy) /* the flusher is still writing: wait for the disk */
        sim_clock = S.disk_busy;
    if (S.trace)
        fprintf(stderr, "T %d %llu %llu %llu\n", write, (unsigned long long)off,
                (unsigned long long)n, (unsigned long long)sim_clock);
    sim_clock += device_request(write, off, n);
    passed();
}

/*
 * A write of evicted dirty pages by the kernel's flusher (a preset with
 * flush_lag_ms): the disk does it after what it is doing, while the process
 * goes on; the process waits only when the disk is more than flush_lag_ms
 * behind (too many dirty pages), and before its own next disk request.
 */
static void disk_flush(uint64_t off, uint64_t n)
{
    uint64_t now = sim_clock, start = S.disk_busy > now ? S.disk_busy : now;
    if (S.trace)
        fprintf(stderr, "T 1 %llu %llu %llu\n", (unsigned long long)off, (unsigned long long)n,
                (unsigned long long)start);
    sim_clock = start; /* the disk's own time line */
    S.disk_busy = start + device_request(1, off, n);
    sim_clock = now;
    uint64_t lag = (uint64_t)llround(S.p->flush_lag_ms * 1e6);
    if (S.disk_busy > sim_clock + lag)
        sim_clock = S.disk_busy - lag;
    passed();
}

/* }==================================================================== */

/* {====================================================================
** The page cache
** ===================================================================== */

static uint32_t hash(uint64_t key)
{
    key *= 0x9e3779b97f4a7c15ull;
    return (uint32_t)(key >> 32) & (S.nbuckets - 1);
}

static int32_t lookup(uint64_t key)
{
    if (!S.nbuckets)
        return -1;
    for (int32_t i = S.buckets[hash(key)]; i >= 0; i = S.nodes[i].hnext)
        if (S.nodes[i].key == key)
            return i;
    return -1;
}

static void lru_unlink(int32_t i)
{
    struct node *n = &S.nodes[i];
    if (n->prev >= 0)
        S.nodes[n->prev].next = n->next;
    else
        S.lru_head = n->next;
    if (n->next >= 0)
        S.nodes[n->next].prev = n->prev;
    else
        S.lru_tail = n->prev;
}

static void lru_push(int32_t i)
{
    struct node *n = &S.nodes[i];
    n->prev = -1;
    n->next = S.lru_head;
    if (S.lru_head >= 0)
        S.nodes[S.lru_head].prev = i;
    S.lru_head = i;
    if (S.lru_tail < 0)
        S.lru_tail = i;
}

static void hash_remove(int32_t i)
{
    int32_t *pp = &S.buckets[hash(S.nodes[i].key)];
    while (*pp != i)
        pp = &S.nodes[*pp].hnext;
    *pp = S.nodes[i].hnext;
}

static struct pl_sim_file *file_by_id(unsigned id)
{
    return id < S.nfiles ? S.files[id] : NULL;
}

static uint64_t disk_offset(const struct pl_sim_file *sf, uint64_t off)
{
    return sf->block ? off : sf->extent + off;
}

static void clean(int32_t i)
{
    S.nodes[i].dirty = 0;
    S.ndirty--;
}

static void forget(int32_t i)
{
    if (S.nodes[i].dirty)
        clean(i);
    lru_unlink(i);
    hash_remove(i);
    S.nodes[i].hnext = S.free_list;
    S.free_list = i;
    S.used--;
}

/*
 * Write back the dirty page i together with the dirty pages next to it in the
 * same file, as one request of at most 1 MiB, as the kernel's flusher does.
 */
#define WRITEBACK_PAGES 256

static void write_back(int32_t i)
{
    uint64_t key = S.nodes[i].key;
    struct pl_sim_file *sf = file_by_id((unsigned)(key >> 40));
    uint64_t page = key & ((1ull << 40) - 1), lo = page, hi = page;
    clean(i);
    int32_t k;
    while (lo > 0 && hi - lo + 1 < WRITEBACK_PAGES && (k = lookup(key - (page - lo) - 1)) >= 0 &&
           S.nodes[k].dirty) {
        clean(k);
        lo--;
    }
    while (hi - lo + 1 < WRITEBACK_PAGES && (k = lookup(key + (hi - page) + 1)) >= 0 &&
           S.nodes[k].dirty) {
        clean(k);
        hi++;
    }
    if (sf && S.p->flush_lag_ms > 0)
        disk_flush(disk_offset(sf, lo * S.blk), (hi - lo + 1) * S.blk);
    else if (sf)
        disk_io(1, disk_offset(sf, lo * S.blk), (hi - lo + 1) * S.blk);
}

static int grow_cache(void)
{
    uint32_t cap = S.cap_nodes ? S.cap_nodes * 2 : 1024;
    if (cap > S.max_pages + 1)
        cap = S.max_pages + 1;
    struct node *nn = realloc(S.nodes, cap * sizeof *nn);
    if (!nn)
        return -ENOMEM;
    S.nodes = nn;
    S.cap_nodes = cap;
    uint32_t nb = 1;
    while (nb < cap * 2)
        nb <<= 1;
    if (nb != S.nbuckets) { /* rehash every live node */
        int32_t *b = malloc(nb * sizeof *b);
        if (!b)
            return -ENOMEM;
        free(S.buckets);
        S.buckets = b;
        S.nbuckets = nb;
        for (uint32_t k = 0; k < nb; k++)
            b[k] = -1;
        for (int32_t i = S.lru_head; i >= 0; i = S.nodes[i].next) {
            uint32_t h = hash(S.nodes[i].key);
            S.nodes[i].hnext = b[h];
            b[h] = i;
        }
    }
    return 0;
}

/* Put a page in the cache (most recent), evicting the oldest when full. */
static void insert(uint64_t key, int dirty)
{
    if (!S.max_pages)
        return;
    int32_t i = lookup(key);
    if (i >= 0) {
        lru_unlink(i);
        lru_push(i);
        if (dirty && !S.nodes[i].dirty) {
            S.nodes[i].dirty = 1;
            S.ndirty++;
        }
        return;
    }
    if (S.used >= S.max_pages) {
        int32_t old = S.lru_tail;
        if (S.nodes[old].dirty)
            write_back(old);
        forget(old);
    }
    if (S.free_list >= 0) {
        i = S.free_list;
        S.free_list = S.nodes[i].hnext;
    } else {
        if (S.nnodes == S.cap_nodes && grow_cache() < 0)
            return;
        i = (int32_t)S.nnodes++;
    }
    S.nodes[i].key = key;
    S.nodes[i].dirty = (uint8_t)dirty;
    if (dirty)
        S.ndirty++;
    uint32_t h = hash(key);
    S.nodes[i].hnext = S.buckets[h];
    S.buckets[h] = i;
    lru_push(i);
    S.used++;
}

static uint64_t key_of(const struct pl_sim_file *sf, uint64_t page)
{
    return (uint64_t)sf->id << 40 | page;
}

/* Write back a file's dirty pages in offset order, coalesced into runs. */
static void flush_file(struct pl_sim_file *sf)
{
    if (!S.ndirty)
        return;
    uint64_t pages = (sf->size + S.blk - 1) / S.blk;
    uint64_t run_start = 0, run_len = 0;
    for (uint64_t pg = 0; pg <= pages; pg++) {
        int32_t i = pg < pages ? lookup(key_of(sf, pg)) : -1;
        if (i >= 0 && S.nodes[i].dirty) {
            if (!run_len)
                run_start = pg;
            run_len++;
            S.nodes[i].dirty = 0;
            S.ndirty--;
            continue;
        }
        if (run_len)
            disk_io(1, disk_offset(sf, run_start * S.blk), run_len * S.blk);
        run_len = 0;
    }
}

/* }==================================================================== */

/* {====================================================================
** Zoned disks: a preset with zone_size is host-managed. Its first zone_conv
** zones are conventional, the rest sequential-write-required, each with a
** write pointer: a write to such a zone must start at the pointer and end
** within the zone's capacity, else it fails with EIO, as the kernel's zone
** write checks and the drives answer; a zone at capacity is full. Writing an
** empty or closed zone opens it implicitly; beyond zone_max_open the least
** recently opened implicitly open zone is closed (ZBC), and when every open
** zone was opened explicitly the write fails with ETOOMANYREFS (the kernel's
** BLK_STS_ZONE_OPEN_RESOURCE). Open and closed zones are active; beyond
** zone_max_active a write to an empty zone fails with EOVERFLOW (the
** kernel's BLK_STS_ZONE_ACTIVE_RESOURCE), as on ZNS drives; zone_cap below
** zone_size is a ZNS zone capacity. Reset, open, close and finish act as the
** BLK*ZONE ioctls do. Files on the disk are a filesystem's business: only
** the block device has zones.
** ===================================================================== */

static struct {
    struct pl_zone *z; /* every zone of the disk, in order */
    uint64_t *opened;  /* per zone: when it was opened (an open count), for the LRU close */
    unsigned n, nopen, nactive;
    uint64_t opens;
    uint64_t wend, wend_t; /* where and when the last direct write to the device ended */
} Z;

/* The process waits ms for the drive (after what the flusher gave it). */
static void zone_wait(double ms)
{
    if (sim_clock < S.disk_busy)
        sim_clock = S.disk_busy;
    sim_clock += (uint64_t)llround(ms * 1e6);
    passed();
}

static void zones_start(const struct pl_sim_preset *p)
{
    free(Z.z);
    free(Z.opened);
    memset(&Z, 0, sizeof Z);
    if (!p->zone_size)
        return;
    unsigned n = (unsigned)((p->capacity + p->zone_size - 1) / p->zone_size);
    Z.z = calloc(n, sizeof *Z.z);
    Z.opened = calloc(n, sizeof *Z.opened);
    if (!Z.z || !Z.opened)
        return; /* no zones: the disk reports none (zoned() is 0) */
    Z.n = n;
    for (unsigned i = 0; i < n; i++) {
        struct pl_zone *z = &Z.z[i];
        z->start = (uint64_t)i * p->zone_size;
        z->len = z->start + p->zone_size > p->capacity ? p->capacity - z->start : p->zone_size;
        z->capacity = p->zone_cap && p->zone_cap < z->len ? p->zone_cap : z->len;
        if (i < p->zone_conv) {
            z->type = PL_ZONE_CONVENTIONAL;
            z->cond = PL_ZONE_NOT_WP;
            z->wp = z->start + z->len;
        } else {
            z->type = PL_ZONE_SEQ_REQUIRED;
            z->cond = PL_ZONE_EMPTY;
            z->wp = z->start;
        }
    }
}

/* the sim file sf is a zoned device */
static int zoned(const struct pl_sim_file *sf)
{
    return sf->block && Z.n > 0;
}

static int is_open(const struct pl_zone *z)
{
    return z->cond == PL_ZONE_IMP_OPEN || z->cond == PL_ZONE_EXP_OPEN;
}

static int is_active(unsigned cond)
{
    return cond == PL_ZONE_IMP_OPEN || cond == PL_ZONE_EXP_OPEN || cond == PL_ZONE_CLOSED;
}

/* Zone i goes to cond: the counts of open and active zones follow. */
static void zone_leave_open(unsigned i, unsigned cond)
{
    if (is_open(&Z.z[i]))
        Z.nopen--;
    Z.nactive -= is_active(Z.z[i].cond);
    Z.nactive += is_active(cond);
    Z.z[i].cond = cond;
}

/* Open zone i (explicitly or not), closing the oldest implicitly open zone when the
   limit is reached. 0, -EOVERFLOW when an empty zone would pass the active limit, or
   -ETOOMANYREFS when every open zone was opened explicitly. */
static int zone_open(unsigned i, int explicit)
{
    struct pl_zone *z = &Z.z[i];
    if (is_open(z)) {
        if (explicit)
            z->cond = PL_ZONE_EXP_OPEN;
        return 0;
    }
    if (!is_active(z->cond) && S.p->zone_max_active && Z.nactive >= S.p->zone_max_active)
        return -EOVERFLOW;
    if (S.p->zone_max_open && Z.nopen >= S.p->zone_max_open) {
        unsigned old = Z.n;
        for (unsigned k = 0; k < Z.n; k++)
            if (Z.z[k].cond == PL_ZONE_IMP_OPEN && (old == Z.n || Z.opened[k] < Z.opened[old]))
                old = k;
        if (old == Z.n)
            return -ETOOMANYREFS;
        zone_leave_open(old, PL_ZONE_CLOSED);
    }
    zone_leave_open(i, explicit ? PL_ZONE_EXP_OPEN : PL_ZONE_IMP_OPEN);
    Z.opened[i] = ++Z.opens;
    Z.nopen++;
    return 0;
}

/*
 * A direct write that continues the last one within a revolution streams: the
 * drive's write buffer takes it while the media is still writing, so it costs
 * the controller overhead and its media time at the zone's rate, with no seek
 * and no wait for the platter (as zoned drives fill a zone). 1 when it did, so
 * sim_io does not cost it again; 0 for any other write.
 */
static int zone_stream(const struct pl_file *f, uint64_t off, uint64_t n)
{
    int go = f->direct && S.p->rpm && off == Z.wend && S.head == off && !S.streaming &&
             sim_clock <= Z.wend_t + (uint64_t)rev_ns();
    if (go) {
        if (sim_clock < S.disk_busy)
            sim_clock = S.disk_busy;
        if (S.trace)
            fprintf(stderr, "T 1 %llu %llu %llu\n", (unsigned long long)off, (unsigned long long)n,
                    (unsigned long long)sim_clock);
        sim_clock += (uint64_t)llround(S.p->overhead_us * 1e3 + transfer_ns(off, n));
        S.buf_lo = off;
        S.buf_hi = S.head = off + n;
        passed();
    } else if (f->direct) {
        disk_io(1, off, n);
    }
    Z.wend = off + n;
    Z.wend_t = sim_clock;
    return f->direct;
}

/* A write of n bytes at off to the device: the zones' rule, then their write pointers,
   then (direct) its cost. 1: costed here, 0: sim_io costs it, or -errno; a write that
   breaks the rule in any zone it touches moves nothing. */
static int zone_write(const struct pl_file *f, uint64_t off, uint64_t n)
{
    uint64_t zs = S.p->zone_size, end = off + n;
    for (uint64_t a = off; a < end;) {
        const struct pl_zone *z = &Z.z[a / zs];
        uint64_t to = end < z->start + z->len ? end : z->start + z->len;
        if (z->type == PL_ZONE_SEQ_REQUIRED &&
            (z->cond == PL_ZONE_FULL || z->cond == PL_ZONE_READONLY || z->cond == PL_ZONE_OFFLINE ||
             a != z->wp || to > z->start + z->capacity))
            return -EIO;
        a = to;
    }
    for (uint64_t a = off; a < end;) {
        unsigned i = (unsigned)(a / zs);
        struct pl_zone *z = &Z.z[i];
        uint64_t to = end < z->start + z->len ? end : z->start + z->len;
        if (z->type == PL_ZONE_SEQ_REQUIRED) {
            int rc = zone_open(i, 0);
            if (rc)
                return rc;
            z->wp = to;
            if (z->wp == z->start + z->capacity)
                zone_leave_open(i, PL_ZONE_FULL);
        }
        a = to;
    }
    return zone_stream(f, off, n);
}

static int sim_zones(struct pl_file *f, uint64_t from, struct pl_zone *z, unsigned max,
                     struct pl_error *e)
{
    spend_sys(S.p->syscall_us * 1e-6);
    if (!zoned(SF(f))) {
        pl_error_set(e, ENOTTY, "zones");
        return -ENOTTY;
    }
    unsigned i = from < S.p->capacity ? (unsigned)(from / S.p->zone_size) : Z.n, got = 0;
    for (; i < Z.n && got < max; i++)
        z[got++] = Z.z[i];
    zone_wait(S.p->overhead_us * 1e-3);
    return (int)got;
}

/* Reset, open, close or finish the zones of [start, start + len), as the BLK*ZONE ioctls:
   zone-aligned or EINVAL, a descriptor open for writing or EBADF, a conventional zone
   EIO (a reset of the whole device skips them, as the kernel's reset-all does). */
static int sim_zone_op(struct pl_file *f, int op, uint64_t start, uint64_t len, struct pl_error *e)
{
    const char *name = pl_zone_op_names[op];
    uint64_t zs = S.p->zone_size, cap = S.p->capacity;
    spend_sys(S.p->syscall_us * 1e-6);
    if (!zoned(SF(f))) {
        pl_error_set(e, ENOTTY, name);
        return -ENOTTY;
    }
    if (!f->writable) {
        pl_error_set(e, EBADF, name);
        return -EBADF;
    }
    if (!len && start < cap)
        len = Z.z[start / zs].len;
    if (start % zs || start >= cap || len > cap - start ||
        ((start + len) % zs && start + len != cap)) {
        pl_error_set(e, EINVAL, name);
        return -EINVAL;
    }
    int all = op == PL_ZONE_RESET && start == 0 && len == cap;
    unsigned lo = (unsigned)(start / zs), hi = (unsigned)((start + len - 1) / zs);
    for (unsigned i = lo; i <= hi; i++) {
        unsigned c = Z.z[i].cond;
        if ((Z.z[i].type == PL_ZONE_CONVENTIONAL && !all) || c == PL_ZONE_READONLY ||
            c == PL_ZONE_OFFLINE) {
            pl_error_set(e, EIO, name);
            return -EIO;
        }
    }
    int rc = 0;
    for (unsigned i = lo; i <= hi && !rc; i++) {
        struct pl_zone *z = &Z.z[i];
        if (z->type == PL_ZONE_CONVENTIONAL)
            continue;
        if (op == PL_ZONE_RESET) {
            zone_leave_open(i, PL_ZONE_EMPTY);
            z->wp = z->start;
        } else if (op == PL_ZONE_FINISH) {
            zone_leave_open(i, PL_ZONE_FULL);
            z->wp = z->start + z->capacity;
        } else if (op == PL_ZONE_CLOSE && is_open(z)) {
            zone_leave_open(i, z->wp == z->start ? PL_ZONE_EMPTY : PL_ZONE_CLOSED);
        } else if (op == PL_ZONE_OPEN && z->cond != PL_ZONE_FULL) {
            rc = zone_open(i, 1);
        }
        if (!all)
            zone_wait(S.p->zone_op_ms);
    }
    if (all)
        zone_wait(S.p->zone_op_ms);
    if (rc)
        pl_error_set(e, -rc, name);
    return rc;
}

/* The zoned facts of f:info(). */
static void zones_info(struct pl_devinfo *d)
{
    const struct pl_sim_preset *p = S.p;
    snprintf(d->zoned, sizeof d->zoned, "%s", Z.n ? "host-managed" : "none");
    if (!Z.n)
        return;
    d->zone_size = p->zone_size;
    d->nr_zones = Z.n;
    d->max_open_zones = p->zone_max_open;
    d->max_active_zones = p->zone_max_active;
}

/* }==================================================================== */

/* {====================================================================
** Files
** ===================================================================== */

/* FNV-1a of a path, the slot of its chain in S.names */
static uint32_t name_slot(const char *path, uint32_t nnames)
{
    uint32_t h = 2166136261u;
    for (const unsigned char *c = (const unsigned char *)path; *c; c++)
        h = (h ^ *c) * 16777619u;
    return h & (nnames - 1);
}

static struct pl_sim_file *find_file(const char *path)
{
    if (!S.nnames)
        return NULL;
    for (int32_t i = S.names[name_slot(path, S.nnames)]; i >= 0; i = S.files[i]->hnext)
        if (strcmp(S.files[i]->path, path) == 0)
            return S.files[i];
    return NULL;
}

static void name_insert(struct pl_sim_file *sf)
{
    uint32_t h = name_slot(sf->path, S.nnames);
    sf->hnext = S.names[h];
    S.names[h] = (int32_t)sf->id;
}

static void name_remove(struct pl_sim_file *sf)
{
    int32_t *pp = &S.names[name_slot(sf->path, S.nnames)];
    while (*pp != (int32_t)sf->id)
        pp = &S.files[*pp]->hnext;
    *pp = sf->hnext;
    S.nlive--;
}

/* Give a new file an id, grow the tables as needed and hash its name: 0 or -errno. */
static int file_add(struct pl_sim_file *sf)
{
    if (S.nlive + 1 > S.nnames) { /* at most one live name per slot on average */
        uint32_t n = S.nnames ? S.nnames * 2 : 1024;
        int32_t *names = malloc(n * sizeof *names);
        if (!names)
            return -ENOMEM;
        free(S.names);
        S.names = names;
        S.nnames = n;
        for (uint32_t h = 0; h < n; h++)
            names[h] = -1;
        for (unsigned i = 0; i < S.nfiles; i++)
            if (S.files[i] && !S.files[i]->gone)
                name_insert(S.files[i]);
    }
    if (S.nfree) {
        sf->id = S.free_ids[--S.nfree];
    } else {
        if (S.nfiles == MAX_FILES)
            return -EMFILE;
        if (S.nfiles == S.cap_files) {
            unsigned cap = S.cap_files ? S.cap_files * 2 : 1024;
            struct pl_sim_file **files = realloc(S.files, cap * sizeof *files);
            unsigned *free_ids = realloc(S.free_ids, cap * sizeof *free_ids);
            if (files)
                S.files = files;
            if (free_ids)
                S.free_ids = free_ids;
            if (!files || !free_ids)
                return -ENOMEM;
            S.cap_files = cap;
        }
        sf->id = S.nfiles++;
    }
    S.files[sf->id] = sf;
    name_insert(sf);
    S.nlive++;
    return 0;
}

/* Drop a removed file whose last descriptor is closed: its pages, its id. */
static void file_free(struct pl_sim_file *sf)
{
    uint64_t pages = (sf->size + S.blk - 1) / S.blk;
    for (uint64_t pg = 0; pg < pages && S.used; pg++) {
        int32_t i = lookup(key_of(sf, pg));
        if (i >= 0)
            forget(i); /* written after the unlink: never reaches the disk */
    }
    S.files[sf->id] = NULL;
    S.free_ids[S.nfree++] = sf->id;
    free(sf->path);
    free(sf);
}

/* Note a removed file's room on the disk for reuse (first fit). */
static void hole_add(uint64_t start, uint64_t len)
{
    if (S.nholes == S.cap_holes) {
        unsigned cap = S.cap_holes ? S.cap_holes * 2 : 64;
        struct hole *h = realloc(S.holes, cap * sizeof *h);
        if (!h)
            return; /* the room is lost, nothing else */
        S.holes = h;
        S.cap_holes = cap;
    }
    S.holes[S.nholes++] = (struct hole){start, len};
}

/* Give a file room for `size` bytes on the disk (extents never shrink). */
static int place(struct pl_sim_file *sf, uint64_t size)
{
    if (sf->block || size <= sf->size)
        return 0;
    uint64_t need = (size + (1u << 20) - 1) & ~(uint64_t)((1u << 20) - 1);
    uint64_t have = (sf->size + (1u << 20) - 1) & ~(uint64_t)((1u << 20) - 1);
    if (sf->extent + have == S.next_extent && sf->size) {
        if (sf->extent + need > S.p->capacity)
            return -ENOSPC;
        S.next_extent = sf->extent + need;
    } else if (need > have || !sf->size) {
        unsigned h;
        for (h = 0; h < S.nholes && S.holes[h].len < need; h++)
            ;
        if (h < S.nholes) { /* room left by a removed file */
            sf->extent = S.holes[h].start;
            S.holes[h].start += need;
            S.holes[h].len -= need;
            if (!S.holes[h].len)
                S.holes[h] = S.holes[--S.nholes];
        } else {
            if (S.next_extent + need > S.p->capacity)
                return -ENOSPC;
            sf->extent = S.next_extent;
            S.next_extent += need;
        }
    }
    sf->size = size;
    return 0;
}

/* Simulated files are names only: the allow list's rule applies to the name. */
static int sim_open(struct pl_file *f, const char *path, const struct pl_open_opts *o,
                    struct pl_error *e)
{
    e->op = "open";
    if (pl_allow_check_dot(path, e->msg, sizeof e->msg) == PL_FS_REFUSED) {
        e->err = EACCES;
        return PL_FS_REFUSED;
    }
    struct pl_sim_file *sf = find_file(path);
    int special = strcmp(path, "/dev/null") == 0 ? 1 : strcmp(path, "/dev/zero") == 0 ? 2 : 0;
    int block = !special && strncmp(path, "/dev/", 5) == 0;
    if (block && o->write && !o->destroy) {
        e->err = EACCES;
        snprintf(e->msg, sizeof e->msg,
                 "%s is a block device: opening it for writing would "
                 "destroy its contents; pass --destroy to allow it",
                 path);
        return PL_FS_REFUSED;
    }
    if (!sf) {
        if (!block && !special && !o->create) {
            e->err = ENOENT;
            return -ENOENT;
        }
        sf = calloc(1, sizeof *sf);
        if (!sf || !(sf->path = strdup(path))) {
            free(sf);
            e->err = ENOMEM;
            return -ENOMEM;
        }
        sf->block = block;
        sf->special = special;
        sf->size = block ? S.p->capacity : 0;
        int rc = file_add(sf);
        if (rc) {
            free(sf->path);
            free(sf);
            e->err = -rc;
            return rc;
        }
    }
    spend_sys(S.p->syscall_us * 1e-6);
    if (o->size && !block && !special) {
        uint64_t old = sf->size;
        int rc = place(sf, o->size);
        if (rc) {
            e->err = -rc;
            e->op = "size";
            return rc;
        }
        if (!o->sparse && o->size > old) /* written through the cache, then flushed */
            disk_io(1, disk_offset(sf, old), o->size - old);
    }
    f->fd = open("/dev/null", O_RDONLY | O_CLOEXEC); /* a real descriptor keeps fd checks valid */
    if (f->fd < 0) {
        e->err = errno;
        return -errno;
    }
    f->kind = block ? PL_FILE_BLOCK : special ? PL_FILE_OTHER : PL_FILE_REGULAR;
    f->align = o->direct ? S.p->sector : 1;
    f->tdata = sf;
    sf->refs++;
    sf->pos = 0;
    return 0;
}

static int sim_close(struct pl_file *f)
{
    struct pl_sim_file *sf = SF(f);
    if (sf) {
        sf->refs--;
        f->tdata = NULL;
        /* the last close of a removed file of this disk (not of one a new
           pl_sim_start left to its descriptors) */
        if (sf->gone && sf->refs == 0 && sf->id < S.nfiles && S.files[sf->id] == sf)
            file_free(sf);
    }
    return 0;
}

/* Remove a simulated file by name: 0, -ENOENT, or PL_FS_REFUSED (why). */
static int sim_remove(const char *path, char *why, size_t n)
{
    if (pl_allow_check_dot(path, why, n) == PL_FS_REFUSED)
        return PL_FS_REFUSED;
    struct pl_sim_file *sf = find_file(path);
    if (!sf || sf->block || sf->special)
        return -ENOENT;
    uint64_t pages = (sf->size + S.blk - 1) / S.blk;
    for (uint64_t pg = 0; pg < pages && S.used; pg++) {
        int32_t i = lookup(key_of(sf, pg));
        if (i >= 0)
            forget(i); /* an unlinked file's dirty pages are never written */
    }
    spend_sys(S.p->syscall_us * 1e-6);
    uint64_t len = (sf->size + (1u << 20) - 1) & ~(uint64_t)((1u << 20) - 1);
    if (len && sf->extent + len == S.next_extent)
        S.next_extent = sf->extent; /* the last extent: give it back */
    else if (len)
        hole_add(sf->extent, len);
    name_remove(sf); /* gone from the namespace; open files keep working */
    if (sf->refs == 0)
        file_free(sf);
    else
        sf->gone = 1;
    return 0;
}

/* The model's files go with the process: a scratch name needs only the allow list. */
static int sim_scratch(const char *path, char *why, size_t n)
{
    return pl_allow_check_dot(path, why, n) == PL_FS_REFUSED ? PL_FS_REFUSED : 0;
}

static int64_t sim_size(struct pl_file *f)
{
    return (int64_t)SF(f)->size;
}

static int64_t sim_seek(struct pl_file *f, int64_t off, int whence)
{
    struct pl_sim_file *sf = SF(f);
    int64_t base = whence == SEEK_CUR   ? (int64_t)sf->pos
                   : whence == SEEK_END ? (int64_t)sf->size
                                        : 0;
    if (base + off < 0)
        return -EINVAL;
    sf->pos = (uint64_t)(base + off);
    spend_sys(S.p->syscall_us * 1e-6 / 4); /* lseek is cheap, not free */
    return (int64_t)sf->pos;
}

/*
 * A read through a System V buffer cache (the preset's cache_block): block by
 * block, bread of each one, a disk request per missing block; a block that
 * follows the last one read (i_lastr + 1) goes through breada, which also reads
 * the next block if it is not cached.
 */
static void bread_blocks(struct pl_sim_file *sf, uint64_t off, uint64_t n)
{
    uint64_t nblk = (sf->size + S.blk - 1) / S.blk;
    for (uint64_t b = off / S.blk; b <= (off + n - 1) / S.blk; b++) {
        int ahead = b == sf->next_blk && S.readahead_kb > 0 && b + 1 < nblk;
        if (lookup(key_of(sf, b)) < 0)
            disk_io(0, disk_offset(sf, b * S.blk), S.blk);
        insert(key_of(sf, b), 0);
        if (ahead && lookup(key_of(sf, b + 1)) < 0) {
            disk_io(0, disk_offset(sf, (b + 1) * S.blk), S.blk);
            insert(key_of(sf, b + 1), 0);
        }
        sf->next_blk = b + 1;
    }
    spend_sys((double)n / S.p->copy_rate);
    sf->last_end = off + n;
}

/* A buffered read: cache hits are copies; misses become disk requests with readahead. */
static void cooked_read(struct pl_sim_file *sf, uint64_t off, uint64_t n)
{
    if (S.p->cache_block) {
        bread_blocks(sf, off, n);
        return;
    }
    uint64_t first = off / S.blk, last = (off + n - 1) / S.blk;
    int sequential = off == sf->last_end || off == 0;
    uint64_t ra_pages = sequential ? (uint64_t)S.readahead_kb * 1024 / S.blk : 0;
    uint64_t file_pages = (sf->size + S.blk - 1) / S.blk;
    uint64_t pg = first;
    while (pg <= last) {
        if (lookup(key_of(sf, pg)) >= 0) {
            insert(key_of(sf, pg), 0);
            pg++;
            continue;
        }
        uint64_t end = pg; /* the run of missing pages, plus readahead */
        while (end + 1 <= last && lookup(key_of(sf, end + 1)) < 0)
            end++;
        uint64_t ra_end = end + ra_pages;
        if (ra_end >= file_pages)
            ra_end = file_pages ? file_pages - 1 : 0;
        if (ra_end < end)
            ra_end = end;
        disk_io(0, disk_offset(sf, pg * S.blk), (ra_end - pg + 1) * S.blk);
        for (uint64_t k = pg; k <= ra_end; k++)
            insert(key_of(sf, k), 0);
        pg = end + 1;
    }
    spend_sys((double)n / S.p->copy_rate);
    sf->last_end = off + n;
}

static void cooked_write(struct pl_sim_file *sf, uint64_t off, uint64_t n)
{
    uint64_t first = off / S.blk, last = (off + n - 1) / S.blk;
    for (uint64_t pg = first; pg <= last; pg++) {
        /* a partial page not in the cache has to be read first */
        int partial =
            (pg == first && off % S.blk) || (pg == last && (off + n) % S.blk && off + n < sf->size);
        if (partial && lookup(key_of(sf, pg)) < 0 && pg * S.blk < sf->size)
            disk_io(0, disk_offset(sf, pg * S.blk), S.blk);
        insert(key_of(sf, pg), 1);
    }
    spend_sys((double)n / (S.p->write_copy_rate > 0 ? S.p->write_copy_rate : S.p->copy_rate));
}

static int64_t sim_io(struct pl_file *f, enum pl_op op, uint64_t off, uint64_t n)
{
    struct pl_sim_file *sf = SF(f);
    spend_sys(S.p->syscall_us * 1e-6);
    if (sf->special) { /* /dev/null reads nothing, /dev/zero reads zeros; writes vanish */
        if (op == PL_OP_WRITE || sf->special == 2)
            spend_sys((double)n / S.p->copy_rate);
        return op == PL_OP_READ && sf->special == 1 ? 0 : (int64_t)n;
    }
    if (op == PL_OP_READ) {
        if (off >= sf->size)
            return 0;
        if (n > sf->size - off)
            n = sf->size - off;
    } else if (!f->writable) {
        return -EBADF;
    } else if (off + n > sf->size) {
        if (sf->block && off >= sf->size)
            return -ENOSPC;
        if (sf->block) {
            n = sf->size - off; /* a short write at the end of the device */
        } else {
            int rc = place(sf, off + n);
            if (rc)
                return rc;
        }
    }
    if (!n)
        return 0;
    if (op == PL_OP_WRITE && zoned(sf)) {
        int rc = zone_write(f, off, n);
        if (rc)
            return rc < 0 ? rc : (int64_t)n;
    }
    if (f->direct) {
        disk_io(op == PL_OP_WRITE, disk_offset(sf, off), n);
        sf->last_end = off + n;
    } else if (op == PL_OP_READ) {
        cooked_read(sf, off, n);
    } else {
        cooked_write(sf, off, n);
    }
    if (op == PL_OP_WRITE && f->dsync) { /* O_DSYNC, O_SYNC: stable before it returns */
        if (!f->direct)
            flush_file(sf); /* the file's dirty pages, this write's among them */
        vwc_flush();
    }
    return (int64_t)n;
}

/* A transfer: at off, or (PL_AT_POS) at the position, which then advances. A seek
   before it is part of the request the model costs (no lseek of its own). */
static int64_t sim_rw(struct pl_file *f, enum pl_op op, enum pl_how how, void *buf, uint64_t n,
                      uint64_t off)
{
    (void)buf;
    struct pl_sim_file *sf = SF(f);
    if (how == PL_AT_POS)
        off = sf->pos;
    int64_t r = sim_io(f, op, off, n);
    if (how == PL_AT_POS && r > 0)
        sf->pos = off + (uint64_t)r;
    return r;
}

/* n putc/getc at the position (at >= 0: from there), stdio's buffering modelled. */
static int64_t sim_chars(struct pl_file *f, enum pl_op op, unsigned char *buf, uint64_t n,
                         int64_t at)
{
    (void)buf;
    struct pl_sim_file *sf = SF(f);
    if (op == PL_OP_WRITE && !f->writable)
        return -EBADF;
    if (at >= 0)
        sf->pos = (uint64_t)at;
    uint64_t done = 0;
    while (done < n) { /* stdio fills or drains its buffer once per STDIO_BUF bytes */
        uint64_t in_buf = STDIO_BUF - sf->pos % STDIO_BUF;
        uint64_t k = n - done < in_buf ? n - done : in_buf;
        if (op == PL_OP_READ && sf->pos >= sf->size)
            break;
        if (op == PL_OP_READ && k > sf->size - sf->pos)
            k = sf->size - sf->pos;
        if (sf->pos % STDIO_BUF == 0 || done == 0) {
            uint64_t chunk = op == PL_OP_READ ? STDIO_BUF - sf->pos % STDIO_BUF : k;
            int64_t r = sim_io(f, op, sf->pos, chunk);
            if (r < 0)
                return done ? (int64_t)done : r;
        }
        double per = op == PL_OP_READ && S.p->getc_ns > 0 ? S.p->getc_ns : S.p->char_ns;
        spend_user((double)k * per * 1e-9);
        sf->pos += k;
        done += k;
        if (pl_interrupted)
            break; /* a Ctrl-C cuts a long f:putc(n) at a buffer's end, as io.c does */
    }
    return (int64_t)done;
}

/* fsync and fdatasync alike: the model writes the file's dirty pages back. */
static int sim_sync(struct pl_file *f, int data_only)
{
    (void)data_only;
    spend_sys(S.p->syscall_us * 1e-6);
    flush_file(SF(f));
    vwc_flush();
    return 0;
}

static int sim_drop(struct pl_file *f, struct pl_error *e)
{
    (void)e;
    struct pl_sim_file *sf = SF(f);
    flush_file(sf);
    vwc_flush();
    uint64_t pages = (sf->size + S.blk - 1) / S.blk;
    for (uint64_t pg = 0; pg < pages && S.used; pg++) {
        int32_t i = lookup(key_of(sf, pg));
        if (i >= 0)
            forget(i);
    }
    S.streaming = 0; /* BLKFLSBUF and friends: nothing buffered is trusted */
    spend_sys(S.p->syscall_us * 1e-6);
    return 0;
}

static int sim_resident(struct pl_file *f, uint64_t off, uint64_t len, uint64_t *res,
                        uint64_t *total, struct pl_error *e)
{
    (void)e;
    struct pl_sim_file *sf = SF(f);
    *res = *total = 0;
    if (off >= sf->size)
        return 0;
    if (!len || len > sf->size - off)
        len = sf->size - off;
    for (uint64_t pg = off / S.blk; pg <= (off + len - 1) / S.blk; pg++) {
        (*total)++;
        if (lookup(key_of(sf, pg)) >= 0)
            (*res)++;
    }
    return 0;
}

static int64_t sim_readahead(struct pl_file *f, int64_t set_kb, struct pl_error *e)
{
    (void)f;
    (void)e;
    if (set_kb >= 0)
        S.readahead_kb = (uint32_t)set_kb;
    return S.readahead_kb;
}

/* The model's readahead follows sequential access by itself, so only
   DONTNEED does something: the range's clean pages leave the cache (dirty
   ones stay, as the kernel only starts their writeback). One system call. */
static int sim_advise(struct pl_file *f, int advice, uint64_t off, uint64_t len, struct pl_error *e)
{
    (void)e;
    if (advice != PL_ADV_DONTNEED)
        return 0;
    struct pl_sim_file *sf = SF(f);
    spend_sys(S.p->syscall_us * 1e-6);
    if (off >= sf->size || !S.used)
        return 0;
    if (!len || len > sf->size - off)
        len = sf->size - off;
    for (uint64_t pg = off / S.blk; pg <= (off + len - 1) / S.blk && S.used; pg++) {
        int32_t i = lookup(key_of(sf, pg));
        if (i >= 0 && !S.nodes[i].dirty)
            forget(i);
    }
    S.streaming = 0;
    return 0;
}

static void sim_sync_all(void)
{
    spend_sys(S.p->syscall_us * 1e-6);
    for (unsigned i = 0; i < S.nfiles; i++)
        if (S.files[i])
            flush_file(S.files[i]);
    vwc_flush();
}

static int sim_drop_all(struct pl_error *e)
{
    (void)e;
    for (unsigned i = 0; i < S.nfiles; i++)
        if (S.files[i])
            flush_file(S.files[i]);
    vwc_flush();
    while (S.lru_head >= 0)
        forget(S.lru_head);
    S.streaming = 0;
    return 0;
}

/* }==================================================================== */

/* {====================================================================
** The device queue: queue depth > 1 (target.h's queue, complete, next_done)
** =====================================================================
**
** A drive that serves `channels` requests at once (the preset's; 0 or 1:
** one at a time, as every rotating preset does) behind one queue, in arrival
** order. A request that comes when a channel is free starts at once, else
** when the first channel frees; it takes the time the model gives it at
** depth 1 (disk_request, at the instant it starts). On solid state the bytes
** of every request also cross one shared path at the device's rate (reads at
** rate_outer, writes at write_rate), one request at a time, so throughput
** stops at the preset's rate however many channels there are. So IOPS grows
** with the depth up to the channels and then stays, while latency grows with
** the queue (Little's law). A direct transfer of a file or the device is
** queued; buffered I/O, fsync and /dev/null or /dev/zero are done in the
** submitting call, as at depth 1 (io_submit copies buffered data itself).
** Each submission costs a system call. Integer virtual ns only: it repeats.
*/

#define MAX_CHANNELS 1024

struct qent {
    void *owner, *tag;
    int64_t res;
    uint64_t done; /* when it finishes, ns */
};

static struct {
    struct qent *q; /* in flight, in the order they finish (ties: submission order) */
    unsigned n, cap;
    uint64_t chan_free[MAX_CHANNELS]; /* when each channel is next free */
    uint64_t path_free;               /* solid state: when the shared path is free */
} Q;

static unsigned q_channels(void)
{
    unsigned c = S.p->channels ? S.p->channels : 1;
    return c > MAX_CHANNELS ? MAX_CHANNELS : c;
}

static int q_add(void *owner, void *tag, int64_t res, uint64_t done)
{
    if (Q.n == Q.cap) {
        unsigned cap = Q.cap ? Q.cap * 2 : 64;
        struct qent *q = realloc(Q.q, cap * sizeof *q);
        if (!q)
            return -ENOMEM;
        Q.q = q;
        Q.cap = cap;
    }
    unsigned at = Q.n;
    while (at > 0 && Q.q[at - 1].done > done)
        at--;
    memmove(Q.q + at + 1, Q.q + at, (Q.n - at) * sizeof *Q.q);
    Q.q[at] = (struct qent){.owner = owner, .tag = tag, .res = res, .done = done};
    Q.n++;
    return 0;
}

static int sim_queue(void *owner, struct pl_file *f, enum pl_op op, uint64_t off, uint64_t n,
                     int data_only, void *buf, void *tag, int64_t *res)
{
    struct pl_sim_file *sf = SF(f);
    if (op == PL_OP_FSYNC) {
        *res = sim_sync(f, data_only);
        return 0;
    }
    /* done in the call, as at depth 1: buffered I/O, /dev/null and /dev/zero, and the
       writes of a drive whose volatile write cache (or an O_DSYNC file's flush) orders
       them one after another */
    if (!f->direct || sf->special || (op == PL_OP_WRITE && (S.p->vwc_mb || f->dsync))) {
        *res = sim_rw(f, op, PL_AT_OFFSET, buf, n, off);
        return 0;
    }
    spend_sys(S.p->syscall_us * 1e-6);
    if (op == PL_OP_READ) {
        n = off >= sf->size ? 0 : n > sf->size - off ? sf->size - off : n;
    } else if (!f->writable) {
        *res = -EBADF;
        return 0;
    } else if (off + n > sf->size) {
        if (sf->block && off >= sf->size) {
            *res = -ENOSPC;
            return 0;
        }
        if (sf->block) {
            n = sf->size - off;
        } else {
            int rc = place(sf, off + n);
            if (rc) {
                *res = rc;
                return 0;
            }
        }
    }
    if (!n) {
        *res = 0;
        return 0;
    }
    if (op == PL_OP_WRITE && zoned(sf)) { /* the write pointer's rules, as sim_io */
        int rc = zone_write(f, off, n);
        if (rc) {
            *res = rc < 0 ? rc : (int64_t)n;
            return 0;
        }
    }
    if (Q.n == 0) { /* nothing in flight: every channel is free (also after a new start) */
        memset(Q.chan_free, 0, sizeof Q.chan_free);
        Q.path_free = 0;
    }
    unsigned c = 0, nc = q_channels();
    for (unsigned i = 1; i < nc; i++)
        if (Q.chan_free[i] < Q.chan_free[c])
            c = i;
    int write = op == PL_OP_WRITE;
    uint64_t now = sim_clock, start = Q.chan_free[c] > now ? Q.chan_free[c] : now;
    if (start < S.disk_busy) /* the flusher is still writing */
        start = S.disk_busy;
    uint64_t doff = disk_offset(sf, off);
    if (S.trace)
        fprintf(stderr, "T %d %llu %llu %llu\n", write, (unsigned long long)doff,
                (unsigned long long)n, (unsigned long long)start);
    sim_clock = start; /* the drive's own time line, as disk_flush's */
    uint64_t done = start + media_request(write, doff, n); /* physical sectors too */
    sim_clock = now;
    if (!S.p->rpm) {
        double rate = write && S.p->write_rate > 0 ? S.p->write_rate : S.p->rate_outer;
        uint64_t pass = (uint64_t)llround((double)n / rate * 1e9);
        if (Q.path_free + pass > done)
            done = Q.path_free + pass;
        Q.path_free = done;
    }
    int rc = q_add(owner, tag, (int64_t)n, done);
    if (rc)
        return rc;
    Q.chan_free[c] = done;
    if (op == PL_OP_READ)
        sf->last_end = off + n;
    return 1;
}

static int sim_complete(void *owner, unsigned min, struct pl_target_done *out, unsigned max)
{
    if (min) { /* wait until min of owner's have finished (or its last one) */
        uint64_t until = 0;
        unsigned k = 0;
        for (unsigned i = 0; i < Q.n && k < min; i++)
            if (Q.q[i].owner == owner) {
                until = Q.q[i].done;
                k++;
            }
        if (until > sim_clock)
            sim_advance(until - sim_clock); /* a Ctrl-C at a virtual instant may cut it */
    }
    unsigned got = 0, keep = 0;
    for (unsigned i = 0; i < Q.n; i++) {
        struct qent *q = &Q.q[i];
        if (q->owner == owner && q->done <= sim_clock && got < max)
            out[got++] = (struct pl_target_done){.tag = q->tag, .res = q->res};
        else
            Q.q[keep++] = *q;
    }
    Q.n = keep;
    return (int)got;
}

static uint64_t sim_next_done(void *owner)
{
    for (unsigned i = 0; i < Q.n; i++)
        if (Q.q[i].owner == owner)
            return Q.q[i].done;
    return 0;
}

/* }==================================================================== */

/* {====================================================================
** Device facts, and the target
** ===================================================================== */

static int sim_info(struct pl_file *f, struct pl_devinfo *d)
{
    const struct pl_sim_preset *p = S.p;
    memset(d, 0, sizeof *d);
    snprintf(d->kind, sizeof d->kind, "%s",
             SF(f)->block     ? "block"
             : SF(f)->special ? "other"
                              : "file");
    d->size = SF(f)->size;
    d->logical_block = d->physical_block = p->sector;
    if (p->phys_sector > p->sector)
        d->physical_block = p->phys_sector; /* 512e: as sysfs says physical_block_size */
    d->dio_mem_align = d->dio_offset_align = p->sector;
    d->rotational = p->rpm > 0;
    d->read_ahead_kb = (int)S.readahead_kb;
    snprintf(d->device, sizeof d->device, "sim0");
    snprintf(d->model, sizeof d->model, "%s", p->model);
    snprintf(d->scheduler, sizeof d->scheduler, "none");
    /* sysfs's write_cache: "write back" for a drive with a volatile cache (the kernel
       then sends it flushes), else "write through" */
    snprintf(d->write_cache, sizeof d->write_cache, "%s",
             p->vwc_mb ? "write back" : "write through");
    zones_info(d);
    if (!SF(f)->block && !SF(f)->special) {
        snprintf(d->fs_type, sizeof d->fs_type, "simfs");
        snprintf(d->mount_point, sizeof d->mount_point, "/");
        snprintf(d->mount_options, sizeof d->mount_options, "rw");
        d->fs_size = p->capacity;
    }
    return 0;
}

static uint64_t sim_ram(void)
{
    return S.p ? S.p->ram : 0;
}

static void sim_list(FILE *out)
{
    for (const struct pl_sim_preset *p = pl_sim_presets; p->name; p++)
        fprintf(out, "%-20s %s\n", p->name, p->imitates);
}

const struct pl_target_ops pl_target_sim = {
    .name = "sim",
    .flags = PL_TARGET_SERIAL | PL_TARGET_VIRTUAL,
    .no_dirs = "under --sim (the simulated disk has no directories)",
    .pid = 4242, /* names such as Bonnie.<pid> are the same in every run */
    .hostname = "sim",
    .start = pl_sim_start,
    .list = sim_list,
    .open = sim_open,
    .close = sim_close,
    .size = sim_size,
    .rw = sim_rw,
    .sync = sim_sync,
    .chars = sim_chars,
    .seek = sim_seek,
    .drop = sim_drop,
    .resident = sim_resident,
    .readahead = sim_readahead,
    .advise = sim_advise,
    .drop_all = sim_drop_all,
    .sync_all = sim_sync_all,
    .info = sim_info,
    .ram = sim_ram,
    .remove = sim_remove,
    .scratch = sim_scratch,
    .join = sim_join,
    .queue = sim_queue, /* the device queue (its section above) */
    .complete = sim_complete,
    .next_done = sim_next_done,
    .zones = sim_zones,
    .zone_op = sim_zone_op,
};
