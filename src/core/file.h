/*
 * A benchmark target: a regular file or block device opened buffered
 * ("cooked") or O_DIRECT ("raw"), with its own aligned I/O buffer so data
 * never passes through Lua. Every I/O call is timed here, around the syscall.
 */
#ifndef PLATTER_CORE_FILE_H
#define PLATTER_CORE_FILE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "error.h"

enum pl_file_kind { PL_FILE_REGULAR, PL_FILE_BLOCK, PL_FILE_OTHER };
enum pl_fill { PL_FILL_ZERO, PL_FILL_RANDOM };

struct pl_open_opts {
    int direct;         /* O_DIRECT */
    int write;          /* O_RDWR instead of O_RDONLY */
    int create;         /* O_CREAT */
    int sync;           /* O_SYNC */
    int dsync;          /* O_DSYNC */
    int sparse;         /* with size: extend with a hole instead of real data */
    uint64_t size;      /* 0 = leave the size alone; else create/extend to it */
    enum pl_fill fill;  /* what the write buffer (and size filling) holds */
    uint64_t seed;      /* for PL_FILL_RANDOM */
    int destroy;        /* writing to a block device is allowed (--destroy) */
};

struct pl_file {
    const void *owner;      /* set by the code that made the struct, to recognise its own */
    int fd;                 /* -1 when closed */
    char *path;             /* as given (malloc'd) */
    enum pl_file_kind kind;
    int direct, writable;
    uint32_t align;         /* O_DIRECT offset/length rule (bytes), 1 if buffered */
    uint32_t mem_align;     /* buffer alignment we use */
    enum pl_fill fill;
    uint64_t seed;
    void *buf;              /* aligned, buflen bytes, filled per `fill` */
    size_t buflen;
    FILE *stdio;            /* lazily fdopen'd for putc/getc */
    int stdio_dirty;        /* stdio holds position/buffer state */
    unsigned char getc_hist[256];  /* getc results land here (defeats the optimiser) */
    struct pl_sim_file *sim;    /* non-NULL: a file on the simulated disk (sim.h) */
};

/*
 * Open path into f (f is overwritten), resolved through the sandbox's allow
 * list (guard.h). A block device is opened for writing only with o->destroy
 * and while nothing uses it; that is decided before it is opened for I/O.
 * On failure returns -errno, or PL_FS_REFUSED with the reason in e->msg (the
 * sandbox or the destroy guard said no), fills *e and leaves f closed.
 */
int pl_file_open(struct pl_file *f, const char *path, const struct pl_open_opts *o,
                 struct pl_error *e);
/* Close and free everything; returns 0 or -errno of close(2). Safe to repeat. */
int pl_file_close(struct pl_file *f);

/* Make the buffer hold at least n bytes. Returns 0 or -ENOMEM. */
int pl_file_reserve(struct pl_file *f, size_t n);
/* Copy n bytes into the file's own buffer at off (zeros when src is NULL),
   growing the buffer first and keeping what it held. 0 or -ENOMEM. */
int pl_file_stage(struct pl_file *f, uint64_t off, const struct pl_file *src, uint64_t src_off,
                  size_t n);
/* Change the fill of the write buffer. */
void pl_file_set_fill(struct pl_file *f, enum pl_fill fill);

/* Size in bytes (st_size, or BLKGETSIZE64 for a device); -errno on failure. */
int64_t pl_file_size(struct pl_file *f);

/*
 * For a direct file: 0 if off and len follow the alignment rule, else -EINVAL.
 * Buffered files accept anything.
 */
int pl_file_check_align(const struct pl_file *f, uint64_t off, uint64_t len);

/*
 * Timed I/O. Each returns bytes transferred (>= 0; short at EOF) or -errno,
 * and stores the syscall's duration in *ns. The caller records it.
 */
ssize_t pl_file_read(struct pl_file *f, size_t n, uint64_t *ns);
ssize_t pl_file_write(struct pl_file *f, size_t n, uint64_t *ns);
ssize_t pl_file_pread(struct pl_file *f, uint64_t off, size_t n, uint64_t *ns);
ssize_t pl_file_pwrite(struct pl_file *f, uint64_t off, size_t n, uint64_t *ns);
/* Write n bytes from src (another file's buffer) instead of f's own buffer. */
ssize_t pl_file_write_from(struct pl_file *f, const void *src, size_t n, uint64_t *ns);
ssize_t pl_file_pwrite_from(struct pl_file *f, const void *src, uint64_t off, size_t n,
                            uint64_t *ns);
/* ftruncate; 0 or -errno. */
int pl_file_truncate(struct pl_file *f, uint64_t size);
int pl_file_fsync(struct pl_file *f, uint64_t *ns);
int pl_file_fdatasync(struct pl_file *f, uint64_t *ns);
/* n putc()/getc() calls on a stdio stream at the current position, timed as one. */
int64_t pl_file_putc(struct pl_file *f, uint64_t n, uint64_t *ns);
int64_t pl_file_getc(struct pl_file *f, uint64_t n, uint64_t *ns);

/* lseek; whence is SEEK_SET/SEEK_CUR/SEEK_END. Returns new offset or -errno. */
int64_t pl_file_seek(struct pl_file *f, int64_t off, int whence);

#endif
