/*
 * What keeps a run safe to stop and safe to share: the interrupt flag that
 * every loop and binding checks, the scratch files removed on every exit
 * path, the path allow list of the sandbox and the one place where a
 * script's file system calls are resolved against it.
 */
#ifndef PLATTER_CORE_GUARD_H
#define PLATTER_CORE_GUARD_H

#include <signal.h>
#include <stddef.h>
#include <sys/stat.h>

/* Set by the SIGINT/SIGTERM handler: 0, or the signal number. */
extern volatile sig_atomic_t pl_interrupted;

/*
 * Remember a scratch file or directory to remove at exit. The parent
 * directory is resolved now (beneath an allowed root when the sandbox is on)
 * and held open, so the cleanup removes that name in that directory and
 * nothing else, whatever the path string leads to later. 0, PL_FS_REFUSED
 * (why says which rule), or -errno (-ENOSPC: the table is full).
 */
int pl_scratch_add(const char *path, char *why, size_t len);
/*
 * Remember to write `text` to `path` (a sysfs setting such as a device's
 * queue/read_ahead_kb) at exit: the value it had before platter changed it.
 * The first value registered for a path is the one restored. `ident`, when
 * not NULL, names a file whose contents identify the thing the setting
 * belongs to (a disk's diskseq, which changes when a loop device is set up
 * again); it is read now and again at exit. 0, or -ENOSPC (table full) /
 * -ENAMETOOLONG.
 */
int pl_restore_add(const char *path, const char *text, const char *ident);
/*
 * Note the value platter itself left in `path` (read back after a change).
 * At exit the old value is put back only if the setting still reads this
 * and the ident is unchanged: a setting someone else changed since, or that
 * now belongs to another device (a loop device detached and reused), is
 * not touched.
 */
void pl_restore_wrote(const char *path, const char *text);
/* Unlink every remembered scratch file, then put back every remembered
   setting; async-signal-safe. Runs at exit and on the second Ctrl-C, in
   platter's own process: a worker's entries wait for it (pl_guard_share). */
void pl_scratch_cleanup(void);
/*
 * Share the settings to put back and the scratch entries with every process
 * forked from now on (p.parallel's workers), so what a worker registers or
 * changes is put back when platter itself exits; this process becomes the one
 * that cleans up. Called once at start, before anything is registered or
 * forked. Without it (or if the mapping fails) each process keeps its own.
 */
void pl_guard_share(void);

/* ---- the sandbox's allow list and the chokepoint for file system calls ---- */

/* Turn the allow list on (sandboxed) or off (--trust); off by default. */
void pl_allow_enable(int on);
/*
 * Allow a path named on the command line. An existing directory grants its
 * tree; an existing file or device grants itself; a path that does not exist
 * yet grants that name in its (existing) parent. The root is opened now and
 * held as a descriptor; later calls resolve beneath it. 0, or -errno when it
 * cannot be resolved (callers ignore that: such a word is simply not a path).
 */
int pl_allow_add(const char *path);
/*
 * What a word of the command line would grant, resolved as pl_allow_add
 * resolves it: into real (PATH_MAX bytes) the resolved name, and *exists 0
 * for a name that does not exist yet in an existing directory. 0, -ELOOP for
 * a dangling symlink, or -errno. For `platter rerun`, which shows the grants
 * of a recorded run before it runs.
 */
int pl_allow_resolve(const char *given, char *real, int *exists);
/*
 * Why naming the resolved path real would let a sandboxed script do more with
 * it than the current directory and $TMPDIR already let it do unnamed ("a dot
 * file or in a dot directory", "not made by platter"...), or NULL. A named path
 * is exempt from the rules beneath those roots (guard.c, "what a script may
 * change"), so `platter rerun` asks before it passes on such a recorded
 * argument, as for one outside them.
 */
const char *pl_allow_named_gain(const char *real);
/*
 * The lexical check alone (no file system access), for the simulated disk,
 * whose files exist only in the model: 0, or PL_FS_REFUSED with the reason.
 */
int pl_allow_check(const char *path, char *why, size_t len);
/* The same for a path to be opened, made, written or removed: beneath a tree
   root no name below it may begin with '.' (the simulated targets' rule; the
   real one applies more, see guard.c "what a script may change"). */
int pl_allow_check_dot(const char *path, char *why, size_t len);

/* One allowed root, for the kernel layer (sandbox.c) and for messages. */
struct pl_allow_root {
    const char *path; /* resolved absolute name */
    int fd;           /* O_PATH: the directory (tree), or the parent of `name` */
    const char *name; /* NULL for a tree; else the file's name in fd */
    int exists;       /* a file root that exists (0: it may be created) */
};
/* Call fn for every root; returns how many there are. */
int pl_allow_roots(void (*fn)(void *ud, const struct pl_allow_root *r), void *ud);

/*
 * The chokepoint. Every file system operation made on behalf of a script
 * goes through one of these. With the allow list on, the path is made
 * absolute and normalised as text ("." and ".." folded), matched to an
 * allowed root, and the rest is resolved by the kernel beneath that root's
 * descriptor (openat2 RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS), so no
 * symlink or ".." can lead out and no name is looked up twice; the call then
 * acts on the descriptor it got, or with an *at() call relative to it. With
 * the allow list off they are the plain calls.
 *
 * They return >= 0 on success (a descriptor where one is made), -errno when
 * the operating system says no (the message is the caller's), or
 * PL_FS_REFUSED when the sandbox does; `why` then holds the reason, naming
 * the path.
 */
#define PL_FS_REFUSED (-4096)
#define PL_FS_NOTFILE (-4097) /* pl_fs_remove_file: not a regular file or symlink */
/* With O_PATH in pl_fs_open's flags: the file is looked at to be changed (opened
   for writing from this descriptor next), so the rules for a change apply. */
#define PL_FS_CHANGE 0x40000000

int pl_fs_open(const char *path, int flags, unsigned mode, char *why, size_t len);
/*
 * What an open of the existing file at path would decide, for reading or (change)
 * for writing or removing it, with every rule of the sandbox that depends on the
 * machine's files applied and nothing opened for I/O: 0, or PL_FS_REFUSED with
 * why. For platter plan, whose runs only look at the machine.
 */
int pl_fs_check(const char *path, int change, char *why, size_t len);
/*
 * Open a file for text output (truncated, mode 0644): in the sandbox only a
 * path named on the command line itself (an existing regular file or a new
 * name), or a log (NAME.log: letters, digits, "._-+", not a dotfile) beneath
 * an allowed directory; never a device, a FIFO or through a symlink.
 */
int pl_fs_open_output(const char *path, char *why, size_t len);
/*
 * A watch on the calls above, for platter plan (plan.h): told of every open that
 * is not a stat (read, write) and every text output, with the result (a
 * descriptor, -errno or PL_FS_REFUSED with why). While a watch is set,
 * pl_fs_open_output runs its checks but creates and truncates nothing: the
 * text goes to an anonymous memory file (mem, also the result), which the watch
 * may keep a duplicate of to learn how much was written.
 */
enum pl_fs_watch_kind {
    PL_FS_WATCH_READ,
    PL_FS_WATCH_WRITE,
    PL_FS_WATCH_OUTPUT,     /* text output to an existing file (or a refusal) */
    PL_FS_WATCH_OUTPUT_NEW, /* text output to a name that does not exist yet */
};
typedef void (*pl_fs_watch_fn)(const char *path, enum pl_fs_watch_kind kind, int rc, int mem,
                               const char *why);
void pl_fs_set_watch(pl_fs_watch_fn fn);
/* Open the file a descriptor refers to again, with other flags (same inode). */
int pl_fs_reopen(int fd, int flags);
int pl_fs_stat(const char *path, struct stat *st, char *why, size_t len);
int pl_fs_mkdir(const char *path, unsigned mode, char *why, size_t len);
int pl_fs_rmdir(const char *path, char *why, size_t len);
/* Unlink a regular file or symlink (never a directory, device or FIFO). */
int pl_fs_remove_file(const char *path, char *why, size_t len);
/*
 * Keep a script from making a directory at path, removing it or registering it
 * as scratch: the file (what: "--json", "--csv") platter writes the run's
 * record to when the script has ended. Sandboxed or not. 0, or -errno / -ENOSPC.
 */
int pl_fs_reserve(const char *path, const char *what);
/* Unlink path only while it is still the file fd refers to (undoing a create). */
void pl_fs_unlink_if_same(const char *path, int fd);

#endif
