/*
 * platter plan: a run's effects, noted at the chokepoints instead of guessed.
 * The plan wraps the target in use (target.h) in one that passes every call
 * on and notes each name opened, created, written (bytes), truncated,
 * removed or marked scratch, each directory made or removed, and what would
 * need --destroy or root. A target without directories (the simulated disk)
 * gets them from the plan: a directory made is a name in the table, a lookup
 * the table does not answer goes to the machine (stat and readdir only); it
 * watches guard.c's file system calls (text outputs, reads of job files)
 * the same way. The notes live in shared memory, so p.parallel's forked
 * workers add to the same table. It also holds the run's output (stdout and
 * stderr, captured into a memory file) until the plan is printed. No Lua.
 */
#ifndef PLATTER_CORE_PLAN_H
#define PLATTER_CORE_PLAN_H

#include <stddef.h>
#include <stdint.h>

/* What happened to a name (bits of pl_plan_entry.what). */
enum pl_plan_what {
    PL_PLAN_READ = 1u << 0,     /* opened for reading only */
    PL_PLAN_WRITE = 1u << 1,    /* opened for writing (and reading) */
    PL_PLAN_CREATE = 1u << 2,   /* made: did not exist before */
    PL_PLAN_WRITTEN = 1u << 3,  /* bytes were written to it */
    PL_PLAN_TRUNCATE = 1u << 4, /* f:truncate was asked */
    PL_PLAN_REMOVE = 1u << 5,   /* removed by name */
    PL_PLAN_SCRATCH = 1u << 6,  /* removed at exit (p.scratch) */
    PL_PLAN_BLOCK = 1u << 7,    /* a block device */
    PL_PLAN_DESTROY = 1u << 8,  /* a block device opened for writing: needs --destroy */
    PL_PLAN_OUTPUT = 1u << 9,   /* text output (p.output_file) */
    PL_PLAN_REFUSED = 1u << 10, /* a call on it was refused (sandbox, destroy guard) */
    PL_PLAN_MISSING = 1u << 11, /* an open failed: no such file */
    PL_PLAN_EXISTED = 1u << 12, /* existed before the run (on the machine) */
    PL_PLAN_ABSENT = 1u << 13,  /* a device the machine does not have */
    PL_PLAN_BUSY = 1u << 14,    /* a block device in use (mounted, swap, held): why says so */
    PL_PLAN_MKDIR = 1u << 15,   /* made as a directory */
    PL_PLAN_RMDIR = 1u << 16,   /* removed as a directory */
};

#define PL_PLAN_PATH 512
#define PL_PLAN_WHY 256

struct pl_plan_entry {
    char path[PL_PLAN_PATH]; /* absolute where it could be made so */
    unsigned what;           /* enum pl_plan_what bits */
    uint64_t written;        /* bytes written through the target */
    int64_t output;          /* text output: bytes, known at the end (-1: none) */
    char why[PL_PLAN_WHY];   /* the first refusal's reason */
};

/*
 * Start: wrap the target in use and watch the chokepoint. Call before the
 * script (and any fork). 0 or -errno.
 */
int pl_plan_start(void);
/* 1 once pl_plan_start succeeded. */
int pl_plan_on(void);

/* The entries so far (count in *n); *dropped is 1 when some names found the
   table full and are not listed. The text outputs' sizes are filled in by this call. */
const struct pl_plan_entry *pl_plan_entries(unsigned *n, unsigned *dropped);
/* Bytes written in all (listed or not). */
uint64_t pl_plan_written(void);
/* Why root would be needed ("" if not). */
const char *pl_plan_root(void);

/* A variable the script asked for with p.getenv (bits of pl_plan_env.what). */
enum { PL_PLAN_ENV_READ = 1, PL_PLAN_ENV_REFUSED = 2 };
struct pl_plan_env {
    char name[64]; /* a longer name is cut here */
    unsigned what; /* PL_PLAN_ENV_READ: granted and read; _REFUSED: the sandbox refused it */
};
/* Note that the script asked for the variable name, and whether it got it (the
   first 64 names; each once). */
void pl_plan_note_env(const char *name, int granted);
/* The variables noted so far (count in *n), in the order first asked for. */
const struct pl_plan_env *pl_plan_env(unsigned *n);

/* Send stdout and stderr into a memory file until pl_plan_capture_end. 0 or -errno. */
int pl_plan_capture_begin(void);
/* Put stdout and stderr back; *text (malloc'd, caller frees) and *len get
   what was written meanwhile. 0 or -errno. */
int pl_plan_capture_end(char **text, size_t *len);

#endif
