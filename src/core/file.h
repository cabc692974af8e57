/*
 * An open file: a regular file or block device opened buffered ("cooked") or
 * O_DIRECT ("raw") on the target in use (target.h says where its bytes live),
 * with its own aligned I/O buffer so data never passes through Lua. The calls
 * here are the target-neutral part: opening through the target, the buffer,
 * the alignment rule and the checks every I/O call shares. Timed I/O is in
 * io.h (one engine submission); no Lua.
 */
#ifndef PLATTER_CORE_FILE_H
#define PLATTER_CORE_FILE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "error.h"

enum pl_file_kind { PL_FILE_REGULAR, PL_FILE_BLOCK, PL_FILE_OTHER };
struct pl_target_ops;
enum pl_fill { PL_FILL_ZERO, PL_FILL_RANDOM };
/* How `size` reserves the space it adds before writing it (fio's fallocate=). */
enum pl_alloc {
    PL_ALLOC_NONE,
    PL_ALLOC_FALLOCATE, /* fallocate(2); nothing where the filesystem has none (fio's native) */
    PL_ALLOC_POSIX,     /* posix_fallocate(3) */
    PL_ALLOC_KEEP,      /* fallocate(2) with FALLOC_FL_KEEP_SIZE */
    PL_ALLOC_TRUNCATE,  /* ftruncate(2) to the size first */
};

struct pl_open_opts {
    int direct;        /* O_DIRECT */
    int write;         /* O_RDWR instead of O_RDONLY */
    int create;        /* O_CREAT */
    int sync;          /* O_SYNC */
    int dsync;         /* O_DSYNC */
    int sparse;        /* with size: extend with a hole instead of real data */
    uint64_t size;     /* 0 = leave the size alone; else create/extend to it */
    enum pl_fill fill; /* what the write buffer (and size filling) holds */
    uint64_t seed;     /* for PL_FILL_RANDOM */
    int destroy;       /* writing to a block device is allowed (--destroy) */
    /* with size: how the space it adds is reserved before it is written */
    enum pl_alloc alloc;
};

struct pl_file {
    const void *owner; /* set by the code that made the struct, to recognise its own */
    int fd;            /* -1 when closed */
    char *path;        /* as given (malloc'd) */
    enum pl_file_kind kind;
    int direct, writable;
    int dsync;          /* opened O_DSYNC or O_SYNC: a write returns once its data is stable */
    uint32_t align;     /* O_DIRECT offset/length rule (bytes), 1 if buffered */
    uint32_t mem_align; /* buffer alignment we use */
    int access;         /* how the whole file will be read, as last advised (f:advise):
                           0 normal, 1 sequential, 2 random (target.h's enum pl_advice);
                           the mmap engine gives its mapping the same advice */
    enum pl_fill fill;
    uint64_t seed;
    void *buf; /* aligned, buflen bytes, filled per `fill` */
    size_t buflen;
    const struct pl_target_ops *target; /* where it was opened (target.h) */
    void *tdata;                        /* the target's own state for this file */
};

/* One I/O call moves at most this many bytes (1 GiB). */
#define PL_IO_MAX (UINT64_C(1) << 30)

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
/* Fill len bytes at buf as `fill` says (random: from seed). */
void pl_file_fill_buffer(void *buf, size_t len, enum pl_fill fill, uint64_t seed);
/* Change the fill of the write buffer. */
void pl_file_set_fill(struct pl_file *f, enum pl_fill fill);

/* Size in bytes (a device's whole size); -errno on failure. */
int64_t pl_file_size(struct pl_file *f);

/*
 * For a direct file: 0 if off and len follow the alignment rule, else -EINVAL.
 * Buffered files accept anything.
 */
int pl_file_check_align(const struct pl_file *f, uint64_t off, uint64_t len);

/*
 * The checks every I/O call shares (the Lua bindings and the FFI path alike):
 * PL_CHECK_OK, or which rule the call breaks. has_off: the call names an
 * offset (pread/pwrite), which must then be aligned too.
 */
enum pl_check { PL_CHECK_OK, PL_CHECK_TOO_LONG, PL_CHECK_OFFSET, PL_CHECK_LENGTH };
enum pl_check pl_file_check_io(const struct pl_file *f, int has_off, uint64_t off, uint64_t len);

/* Target calls on f that are not timed I/O: each 0/value or -errno. */
int pl_file_truncate(struct pl_file *f, uint64_t size);
/* lseek; whence is SEEK_SET/SEEK_CUR/SEEK_END. Returns new offset or -errno. */
int64_t pl_file_seek(struct pl_file *f, int64_t off, int whence);

#endif
