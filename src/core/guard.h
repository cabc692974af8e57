/*
 * What keeps a run safe to stop and safe to share: the interrupt flag that
 * every loop and binding checks, the scratch files removed on every exit
 * path, and the path allow list of the sandbox (realpath-checked).
 */
#ifndef PLATTER_CORE_GUARD_H
#define PLATTER_CORE_GUARD_H

#include <signal.h>
#include <stddef.h>

/* Set by the SIGINT/SIGTERM handler: 0, or the signal number. */
extern volatile sig_atomic_t pl_interrupted;

/* Remember a scratch file to unlink at exit. 0 or -ENOMEM/-ENOSPC (table full). */
int pl_scratch_add(const char *path);
/* Forget it (it was removed or kept on purpose). */
void pl_scratch_forget(const char *path);
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
   setting; async-signal-safe. Runs at exit and on the second Ctrl-C. */
void pl_scratch_cleanup(void);

/* Turn the allow list on (sandboxed) or off (--trust); off by default. */
void pl_allow_enable(int on);
int pl_allow_enabled(void);
/*
 * Allow a path named on the command line: the path itself and, when it is a
 * directory (or tree=1), everything under it. A path that does not exist
 * is allowed by the name it will have. 0, or -errno when it cannot be
 * resolved (ignored by callers: an unresolvable word is simply not a path).
 */
int pl_allow_add(const char *path, int tree);
/*
 * 0 if the sandbox allows opening path, else -EACCES with the reason in why
 * ("/etc/passwd is outside the current directory, $TMPDIR and the paths
 * named on the command line").
 */
int pl_allow_check(const char *path, char *why, size_t len);
/* Re-check an open descriptor by what /proc/self/fd says it is. */
int pl_allow_check_fd(int fd, const char *path, char *why, size_t len);

#endif
