/*
 * Where the result writer puts --json and --csv: platter's own state, set
 * from the command line before any script runs and never reachable from
 * one. A sandboxed run cannot open those paths itself (the kernel layer
 * grants only the script's roots), so a small keeper process, forked before
 * the sandbox is applied, writes them on the writer's behalf; it takes the
 * text and nothing else, and the paths are the ones it was started with.
 */
#ifndef PLATTER_CORE_RECORD_H
#define PLATTER_CORE_RECORD_H

#include <stddef.h>

enum pl_record_kind { PL_RECORD_JSON, PL_RECORD_CSV, PL_RECORD_KINDS };

/* What a request to the keeper does: write the file now, or hold the record as far
   as the run got (the head starts it again, each part is added after what came
   before, the tail replaces the last tail) for a run that ends without writing it. */
enum pl_record_op {
    PL_RECORD_WRITE,
    PL_RECORD_HEAD,
    PL_RECORD_PART,
    PL_RECORD_TAIL,
    PL_RECORD_END
};

/* Set the paths (NULL: not written). Made absolute now: the keeper and the
   writer agree on them whatever happens later. 0 or -errno. */
int pl_record_paths(const char *json, const char *csv);
/* Can a result file be written at path? A file is replaced through a
   temporary file beside it (beside the file a symlink names), so its directory
   must exist and be writable; a character device, a pipe or a descriptor
   (/dev/stdout) is written to in place; a directory, a block device or a
   socket is refused. 0 or -errno, with *why set when strerror would not say
   why (checked before a run). */
int pl_record_writable(const char *path, const char **why);
/* Fork the keeper (before the sandbox; a trusted run starts one too, to hold the
   record). 0 or -errno. */
int pl_record_start_keeper(void);
/* The path of a kind, as given (for messages), or NULL. */
const char *pl_record_path(enum pl_record_kind k);
/*
 * Replace the file of kind k with text, atomically (a temporary file beside
 * it, then a rename), or write it to the device, pipe or descriptor named:
 * through the keeper when there is one, else directly. 0 or -errno.
 */
int pl_record_write(enum pl_record_kind k, const char *text, size_t len);
/*
 * Give the keeper a piece of kind k's record as far as the run got (op: HEAD,
 * PART or TAIL). Should platter end without a pl_record_write of k (a second
 * Ctrl-C exits at once; a kill), the keeper writes head, parts and tail, in
 * that order, once platter and its workers have exited. Not answered; without
 * a keeper, nothing is held. 0 or -errno.
 */
int pl_record_hold(enum pl_record_op op, enum pl_record_kind k, const char *text, size_t len);
/*
 * platter is about to exit at once (the second Ctrl-C): the keeper writes what it
 * holds now, and this waits (at most 5 s) until it has, so the files are there
 * when the shell gets its prompt back. Async-signal-safe; does nothing in a
 * worker, or while a request is under way (the keeper writes at the close then).
 */
void pl_record_end_now(void);
/* Is a keeper holding the record (a --json or --csv path, and the keeper started)?
   Async-signal-safe. */
int pl_record_keeping(void);

#endif
