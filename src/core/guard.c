/*
 * Interrupt flag, scratch-file registry, settings restored at exit, and the
 * sandbox's allow list with the file system calls resolved beneath it.
 *
 * No path string is trusted twice: an allowed root is opened once, when it
 * is granted, and every later path is resolved by the kernel beneath that
 * descriptor (openat2 with RESOLVE_BENEATH), then acted on through the
 * descriptor it gave. Scratch entries are (directory descriptor, name).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/xattr.h>
#include <time.h>
#include <unistd.h>

#include <linux/openat2.h>

#include "guard.h"

static void scratch_cleanup(void);

#define PL_FS_LINK (-4098) /* open_beneath_how with nolinks met a symlink */

volatile sig_atomic_t pl_interrupted;

/* settings to put back at exit: (path, old text, what platter left, ident) */
#define MAX_RESTORE 16
#define RESTORE_TEXT 32
struct restore {
    char path[PATH_MAX];
    char old[RESTORE_TEXT];
    char mine[RESTORE_TEXT];   /* "" until platter wrote a value */
    char ident_path[PATH_MAX]; /* "" when there is none */
    char ident[RESTORE_TEXT];
};

/*
 * A scratch entry a worker (p.parallel: a forked process) registered. The worker
 * ends before platter does, and its directory descriptor with it, so the entry
 * is kept where platter's own process finds it at exit: by the directory's
 * name and identity (device, inode), looked up again then without following a
 * symlink and used only if it is still that directory.
 */
#define MAX_SHARED_SCRATCH 256
struct shared_scratch {
    dev_t dev;
    ino_t ino;
    char dir[PATH_MAX];
    char name[NAME_MAX + 1];
};

/*
 * What platter's own process and its workers share (a MAP_SHARED mapping made
 * before any worker is forked, pl_guard_share): the settings to put back, so a
 * readahead a worker changed is put back at platter's exit, and the workers'
 * scratch entries. The process that made it (owner) does the cleanup; without
 * one (no mapping) each process cleans up its own, as before workers existed.
 * A slot is claimed with an atomic compare-and-swap: 0 free, 1 being filled,
 * 2 set.
 */
struct shared {
    pid_t owner;
    int restore_used[MAX_RESTORE];
    struct restore restore[MAX_RESTORE];
    int scratch_state[MAX_SHARED_SCRATCH];
    struct shared_scratch scratch[MAX_SHARED_SCRATCH];
};
static struct shared unshared, *sh = &unshared;

enum { SLOT_FREE, SLOT_FILLING, SLOT_SET };

static int slot_claim(int *state)
{
    int free_ = SLOT_FREE;
    return __atomic_compare_exchange_n(state, &free_, SLOT_FILLING, 0, __ATOMIC_ACQ_REL,
                                       __ATOMIC_ACQUIRE);
}

static void slot_set(int *state, int v)
{
    __atomic_store_n(state, v, __ATOMIC_RELEASE);
}

static int slot_is_set(int *state)
{
    return __atomic_load_n(state, __ATOMIC_ACQUIRE) == SLOT_SET;
}

/* This process cleans up at exit: platter's own, or any when nothing is shared. */
static int cleans_up(void)
{
    return sh->owner == 0 || sh->owner == getpid();
}

void pl_guard_share(void)
{
    if (sh != &unshared)
        return;
    struct shared *m =
        mmap(NULL, sizeof *m, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (m == MAP_FAILED)
        return; /* workers' settings and scratch entries are then their own */
    for (int i = 0; i < MAX_RESTORE; i++)
        if (unshared.restore_used[i]) {
            m->restore[i] = unshared.restore[i];
            m->restore_used[i] = unshared.restore_used[i];
        }
    m->owner = getpid();
    sh = m;
}

/* Read a small text file into buf (NUL-terminated, trailing blanks cut);
   async-signal-safe. 0 or -1. */
static int read_small(const char *path, char *buf, size_t len)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    ssize_t n;

    if (fd < 0)
        return -1;
    n = read(fd, buf, len - 1);
    close(fd);
    if (n < 0)
        return -1;
    while (n > 0 && (buf[n - 1] == '\n' || buf[n - 1] == ' '))
        n--;
    buf[n] = '\0';
    return 0;
}

/* Copy text without its trailing newline (texts are compared that way). */
static void copy_text(char *dst, const char *src)
{
    size_t n = strlen(src);
    while (n > 0 && (src[n - 1] == '\n' || src[n - 1] == ' '))
        n--;
    memcpy(dst, src, n);
    dst[n] = '\0';
}

static int restore_find(const char *path)
{
    for (int i = 0; i < MAX_RESTORE; i++)
        if (slot_is_set(&sh->restore_used[i]) && strcmp(sh->restore[i].path, path) == 0)
            return i;
    return -1;
}

int pl_restore_add(const char *path, const char *text, const char *ident)
{
    if (strlen(path) >= PATH_MAX || strlen(text) >= RESTORE_TEXT ||
        (ident != NULL && strlen(ident) >= PATH_MAX))
        return -ENAMETOOLONG;
    if (restore_find(path) >= 0)
        return 0; /* the first value stands */
    for (int i = 0; i < MAX_RESTORE; i++) {
        if (slot_claim(&sh->restore_used[i])) {
            struct restore *r = &sh->restore[i];
            strcpy(r->path, path);
            copy_text(r->old, text);
            r->mine[0] = '\0';
            r->ident_path[0] = '\0';
            if (ident != NULL && read_small(ident, r->ident, sizeof r->ident) == 0)
                strcpy(r->ident_path, ident);
            slot_set(&sh->restore_used[i], SLOT_SET);
            return 0;
        }
    }
    return -ENOSPC;
}

void pl_restore_wrote(const char *path, const char *text)
{
    int i = restore_find(path);
    if (i >= 0 && strlen(text) < RESTORE_TEXT)
        copy_text(sh->restore[i].mine, text);
}

/* Still ours to put back: the same device, and the value platter left. */
static int restore_still_ours(const struct restore *r)
{
    char now[RESTORE_TEXT];

    if (r->ident_path[0] != '\0' &&
        (read_small(r->ident_path, now, sizeof now) < 0 || strcmp(now, r->ident) != 0))
        return 0;
    if (r->mine[0] != '\0' &&
        (read_small(r->path, now, sizeof now) < 0 || strcmp(now, r->mine) != 0))
        return 0;
    return 1;
}

void pl_scratch_cleanup(void)
{
    if (!cleans_up())
        return; /* a worker: platter's own process puts everything back */
    scratch_cleanup();
    for (int i = 0; i < MAX_RESTORE; i++) {
        if (slot_is_set(&sh->restore_used[i])) {
            struct restore *r = &sh->restore[i];
            slot_set(&sh->restore_used[i], SLOT_FREE);
            if (!restore_still_ours(r))
                continue;
            int fd = open(r->path, O_WRONLY | O_CLOEXEC);
            if (fd >= 0) {
                char line[RESTORE_TEXT + 1];
                size_t n = strlen(r->old);
                memcpy(line, r->old, n);
                line[n++] = '\n';
                ssize_t w = write(fd, line, n);
                (void)w;
                close(fd);
            }
        }
    }
}

/* ---- allow list ---------------------------------------------------------- */

#define MAX_ALLOW 256

struct root {
    char *name[2]; /* resolved absolute name; the name as given, normalised */
    int fd;        /* O_PATH: the tree, or the parent directory of `base` */
    int tree;
    int exists; /* file roots: the file existed when it was granted */
    int shared; /* $TMPDIR, unless also the current directory or named: see rule 4 */
    char base[NAME_MAX + 1];
};

static int allow_on;
static int roots_ready;
static int ndefault; /* roots[0 .. ndefault-1]: the current directory and $TMPDIR */
static struct root roots[MAX_ALLOW];
static int nroots;
static char cwd0[PATH_MAX]; /* relative paths are relative to where platter started */

/*
 * The absolute, normalised text of path: made absolute against the starting
 * directory, "." and empty components dropped, ".." folded into its parent
 * (at "/" it stays "/"). Pure text: no file system access, so nothing can
 * change between this and the lookup, which the kernel then does beneath a
 * root's descriptor, refusing any symlink that leads out.
 */
static int normalize(const char *path, char *out)
{
    char buf[2 * PATH_MAX + 2];
    if (!path[0])
        return -ENOENT;
    if (strlen(path) >= PATH_MAX)
        return -ENAMETOOLONG;
    if (path[0] == '/')
        snprintf(buf, sizeof buf, "%s", path);
    else
        snprintf(buf, sizeof buf, "%s/%s", cwd0, path);
    size_t n = 0;
    out[0] = '\0';
    for (char *save = NULL, *c = strtok_r(buf, "/", &save); c; c = strtok_r(NULL, "/", &save)) {
        if (strcmp(c, ".") == 0)
            continue;
        if (strcmp(c, "..") == 0) {
            while (n > 0 && out[n - 1] != '/')
                n--;
            if (n > 0)
                n--;
            out[n] = '\0';
            continue;
        }
        size_t cl = strlen(c);
        if (n + 1 + cl >= PATH_MAX)
            return -ENAMETOOLONG;
        out[n++] = '/';
        memcpy(out + n, c, cl);
        n += cl;
        out[n] = '\0';
    }
    if (n == 0)
        strcpy(out, "/");
    return 0;
}

/* Is p the root's name, or (tree) below it? Returns the length matched, or 0. */
static size_t match(const char *p, const char *name, int tree)
{
    size_t n = strlen(name);
    if (strcmp(p, name) == 0)
        return n;
    if (!tree || strncmp(p, name, n) != 0)
        return 0;
    if (strcmp(name, "/") == 0)
        return 1;
    return p[n] == '/' ? n : 0;
}

/*
 * The refusal of a path outside every root. Where the path really leads is
 * looked up for the message only (realpath), never for the decision.
 */
static void refuse_outside(const char *path, const char *norm, char *why, size_t len)
{
    char real[PATH_MAX], dir[PATH_MAX], note[PATH_MAX + 64] = "";
    const char *shown = realpath(path, real) ? real : norm;
    int differs = strcmp(path, shown) != 0;
    /* a path named on the command line whose directory does not exist granted
       nothing: say why, with the errno text, instead of only "outside" */
    const char *slash = strrchr(norm, '/');
    if (shown == norm && slash && slash > norm) {
        memcpy(dir, norm, (size_t)(slash - norm));
        dir[slash - norm] = '\0';
        if (!realpath(dir, real))
            snprintf(note, sizeof note, "its directory %s: %s; ", dir, strerror(errno));
    }
    snprintf(why, len,
             "%s%s%s is outside the current directory, $TMPDIR and the paths named on the "
             "command line (%srun with --trust to lift the sandbox)",
             path, differs ? " -> " : "", differs ? shown : "", note);
}

/*
 * The root that covers the normalised path p and the rest of it relative to
 * the root's descriptor ("." for the tree itself; a file root's own name).
 * follow: the call follows a last symlink (open, stat), so a file granted by
 * name is taken before a tree it lies in; else (remove, mkdir, rmdir) the
 * tree is, so that a named symlink in the current directory is removed
 * itself, not what it points to.
 */
static const struct root *find_root_in(const char *p, int follow, const char **rest, int count)
{
    const struct root *best = NULL, *file = NULL;
    size_t best_n = 0;
    for (int i = 0; i < count; i++) {
        const struct root *r = &roots[i];
        for (int k = 0; k < 2; k++) {
            if (!r->name[k])
                continue;
            size_t n = match(p, r->name[k], r->tree);
            if (!n)
                continue;
            if (!r->tree)
                file = file ? file : r;
            else if (n > best_n || !best) {
                best = r;
                best_n = n;
            }
        }
    }
    if (file && (follow || !best)) {
        *rest = file->base;
        return file;
    }
    if (best) {
        const char *t = p + best_n;
        while (*t == '/')
            t++;
        *rest = *t ? t : ".";
    }
    return best;
}

/* The same among every root (find_root_in's count: the first count roots only). */
static const struct root *find_root(const char *p, int follow, const char **rest)
{
    return find_root_in(p, follow, rest, nroots);
}

/* Where the kernel has no openat2 (before 5.6): a walk one name at a time from
   dirfd that refuses every symlink and "..", which is stricter than openat2. */
static int walk_open(int dirfd, const char *rest, int flags, unsigned mode)
{
    char buf[PATH_MAX];
    snprintf(buf, sizeof buf, "%s", rest);
    int cur = dirfd;
    char *save = NULL, *c = strtok_r(buf, "/", &save);
    if (!c || strcmp(rest, ".") == 0) {
        int fd = openat(dirfd, ".", flags, mode);
        return fd < 0 ? -errno : fd;
    }
    while (c) {
        char *next = strtok_r(NULL, "/", &save);
        int fd = -1, err = EXDEV;
        if (strcmp(c, "..") != 0) {
            fd = openat(cur, c,
                        next ? O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC : flags | O_NOFOLLOW,
                        mode);
            err = errno;
        }
        if (cur != dirfd)
            close(cur);
        if (fd < 0)
            return err == ELOOP || err == EXDEV ? -EXDEV : -err;
        cur = fd;
        c = next;
    }
    return cur;
}

/* The /proc path of a descriptor: how an O_PATH one is reopened or has its
   extended attributes read (it has no calls of its own for those). */
static const char *fd_path(int fd, char buf[static 32])
{
    snprintf(buf, 32, "/proc/self/fd/%d", fd);
    return buf;
}

/* nolinks: follow no symlink at all, not even one that stays beneath the root
   (a change beneath a tree: see "what a script may change" below) */
static int open_beneath_how(const struct root *r, const char *rest, int flags, unsigned mode,
                            int nolinks)
{
    static int no_openat2;
    struct open_how how;
    memset(&how, 0, sizeof how);
    how.flags = (unsigned)(flags | O_CLOEXEC);
    how.mode = (flags & (O_CREAT | O_TMPFILE)) ? mode : 0;
    how.resolve = RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS;
    if (!r->tree || nolinks)
        how.resolve |= RESOLVE_NO_SYMLINKS; /* a granted file is that inode, not a link */
    for (int tries = 0; !no_openat2 && tries < 8; tries++) {
        long fd = syscall(SYS_openat2, r->fd, rest, &how, sizeof how);
        if (fd >= 0)
            return (int)fd;
        if (errno == ENOSYS) {
            no_openat2 = 1;
            break;
        }
        if (errno == EAGAIN) /* a rename raced the lookup: look again */
            continue;
        if (errno == ELOOP && !r->tree)
            return -EXDEV;
        if (errno == ELOOP && nolinks)
            return PL_FS_LINK;
        return -errno;
    }
    if (!no_openat2)
        return -EAGAIN;
    int fd = walk_open(r->fd, rest, flags | O_CLOEXEC, mode);
    return fd == -EXDEV && nolinks && r->tree ? PL_FS_LINK : fd;
}

static int open_beneath(const struct root *r, const char *rest, int flags, unsigned mode)
{
    return open_beneath_how(r, rest, flags, mode, 0);
}

/* realpath of path's directory, plus its last name (for messages). */
static int parent_real(const char *path, char *out)
{
    char dir[PATH_MAX], rdir[PATH_MAX];
    const char *slash = strrchr(path, '/');
    if (!slash || strlen(path) >= PATH_MAX)
        return -1;
    memcpy(dir, path, (size_t)(slash - path));
    dir[slash - path] = '\0';
    if (!realpath(dir[0] ? dir : "/", rdir))
        return -1;
    size_t dl = strcmp(rdir, "/") ? strlen(rdir) : 0, bl = strlen(slash + 1);
    if (dl + 1 + bl >= PATH_MAX)
        return -1;
    memcpy(out, rdir, dl);
    out[dl] = '/';
    memcpy(out + dl + 1, slash + 1, bl + 1);
    return 0;
}

/* The reason for a lookup the kernel refused because it led out of the root
   (again, where it leads is looked up for the message only). */
static void refuse_escape(const char *path, const struct root *r, char *why, size_t len)
{
    char real[PATH_MAX];
    struct stat st;
    if (!r->tree)
        snprintf(why, len,
                 "%s is no longer the file named on the command line (it is a "
                 "symlink now; refused in the sandbox)",
                 path);
    else if (realpath(path, real))
        refuse_outside(path, real, why, len);
    else if (lstat(path, &st) < 0 && parent_real(path, real) == 0)
        refuse_outside(path, real, why, len); /* a new name in a directory outside */
    else if (lstat(path, &st) == 0 && S_ISLNK(st.st_mode))
        snprintf(why, len,
                 "%s is a dangling symlink leading outside %s (refused in the "
                 "sandbox)",
                 path, r->name[0]);
    else
        snprintf(why, len,
                 "%s leads outside %s through a symlink or '..' (refused in the "
                 "sandbox)",
                 path, r->name[0]);
}

/* ---- what a script may change beneath a tree root ------------------------ */

/*
 * A script chooses the bytes it writes (f:write copies what a read brought in,
 * f:stage gathers single bytes), so where it may write decides what it can do
 * to the person who runs it. Beneath a tree root (the current directory,
 * $TMPDIR, a directory named on the command line) a change -- a file made,
 * opened for writing, truncated, removed or registered as scratch, a
 * directory made or removed -- is refused when
 *
 *   1. the lookup would follow a symlink (so the text of the path is where the
 *      change lands);
 *   2. a name below the root begins with '.': a dot file or anything in a dot
 *      directory (shell start-up files, ~/.ssh, .git, ~/.config) is never made
 *      or changed;
 *   3. it changes a file that exists and that platter did not make: one that
 *      carries no mark (PL_MARK, its inode number) and lies in no directory
 *      that does or that this process made. A user's Makefile, ~/bin tool or
 *      the file a dot file links to stay as they are.
 *
 * Rule 2 holds for reading too (contents or a listing, not a stat): credentials
 * live in dot files (~/.ssh, ~/.aws, .git/config, .env), and what a script reads
 * can end up in the output or the record a user posts. A read through a symlink
 * is refused when the file it reaches is one (read_through_link).
 *
 *   4. Beneath $TMPDIR (a shared root: not also the current directory or a
 *      directory named on the command line) rule 3 holds for reading too:
 *      contents and listings only of what platter made. Other programs and
 *      users keep their files there, credentials among them (Kerberos's
 *      /tmp/krb5cc_UID), and the person running platter never chose them.
 *
 * A path named on the command line itself is a file root, not beneath a tree,
 * and none of this applies to it. Files and directories platter makes beneath
 * a tree are marked, except those inside a directory it made (the directory's
 * mark covers them, so bonnie++'s timed creates pay nothing for it); so is a
 * named file it makes, which a later run may then change unnamed.
 */
#define PL_MARK "user.platter"
/* resolve()'s flag for an O_PATH look that stands for a read (pl_fs_check) */
#define PL_FS_LOOK 0x20000000

/* directories this process made beneath each tree (by root and rest): the
   marked ones, so what is made beneath them needs no mark of its own; and
   files it made that could not be marked (mark_made) */
struct made_dir {
    const struct root *r;
    char *rest;
};
static struct made_dir *made;
static int nmade, made_cap;

static int under_made(const struct root *r, const char *rest)
{
    for (int i = 0; i < nmade; i++) {
        size_t n = strlen(made[i].rest);
        if (made[i].r == r && strncmp(rest, made[i].rest, n) == 0 &&
            (rest[n] == '/' || rest[n] == '\0'))
            return 1;
    }
    return 0;
}

/* A name of rest (normalised: no "." or ".." parts) that begins with '.'. */
static int dot_name(const char *rest)
{
    if (strcmp(rest, ".") == 0)
        return 0;
    for (const char *c = rest; c; c = strchr(c, '/')) {
        if (*c == '/')
            c++;
        if (*c == '.')
            return 1;
    }
    return 0;
}

/* The descriptor's file carries platter's mark for its own inode. An O_PATH
   descriptor has no xattr calls of its own: read through /proc then. */
static int marked(int fd)
{
    struct stat st;
    char want[32], got[32];
    if (fstat(fd, &st) < 0 || S_ISLNK(st.st_mode))
        return 0;
    int n = snprintf(want, sizeof want, "%llu", (unsigned long long)st.st_ino);
    char link[32];
    ssize_t g = fgetxattr(fd, PL_MARK, got, sizeof got);
    if (g < 0 && errno == EBADF)
        g = getxattr(fd_path(fd, link), PL_MARK, got, sizeof got);
    return g == n && memcmp(got, want, (size_t)n) == 0;
}

/* Give the descriptor's file platter's mark: 0, or -1 where the file system
   keeps no user xattrs. */
static int set_mark(int fd)
{
    struct stat st;
    char v[32], link[32];
    if (fstat(fd, &st) < 0)
        return -1;
    int n = snprintf(v, sizeof v, "%llu", (unsigned long long)st.st_ino);
    int rc = fsetxattr(fd, PL_MARK, v, (size_t)n, 0);
    if (rc < 0 && errno == EBADF)
        rc = setxattr(fd_path(fd, link), PL_MARK, v, (size_t)n, 0);
    return rc;
}

/* Remember rest beneath r as a directory whose tree is platter's. */
static void remember(const struct root *r, const char *rest)
{
    if (nmade == made_cap) {
        int cap = made_cap ? 2 * made_cap : 16;
        struct made_dir *m = realloc(made, (size_t)cap * sizeof *m);
        if (!m)
            return;
        made = m;
        made_cap = cap;
    }
    char *copy = strdup(rest);
    if (copy) {
        made[nmade].r = r;
        made[nmade++].rest = copy;
    }
}

/*
 * A directory above rest (below the root) is platter's: one this process made,
 * or one that carries the mark, which is then remembered, so that a worker or
 * an MPI rank creating many files in a directory another process made looks
 * it up once.
 */
static int above_platters(const struct root *r, const char *rest)
{
    if (under_made(r, rest))
        return 1;
    char dir[PATH_MAX];
    snprintf(dir, sizeof dir, "%s", rest);
    for (char *s = strrchr(dir, '/'); s; s = strrchr(dir, '/')) {
        *s = '\0';
        int d = open_beneath_how(r, dir, O_PATH | O_DIRECTORY, 0, 1);
        if (d < 0)
            return 0;
        int m = marked(d);
        close(d);
        if (m) {
            remember(r, dir);
            return 1;
        }
    }
    return 0;
}

/* Mark what was just made at rest (fd: it, any kind of descriptor), unless a
   directory above it is platter's; a directory made is remembered, and so is
   a file that could not be marked: on a file system without user xattrs what
   platter made is its own for this process only. */
static void mark_made(const struct root *r, const char *rest, int fd, int dir)
{
    if (above_platters(r, rest))
        return;
    int rc = set_mark(fd);
    if (dir || rc < 0)
        remember(r, rest);
}

/* The file at rest beneath tree r (fd: it) is platter's: see above. */
static int platters(const struct root *r, const char *rest, int fd)
{
    return under_made(r, rest) || marked(fd) || above_platters(r, rest);
}

/*
 * platters(), allowing for a file another platter process made an instant ago:
 * it is made, then marked (two calls), so a worker or MPI rank that opens the
 * same new file (IOR's shared file) can find it unmarked in between. A file
 * whose inode changed within the last second is looked at again, every
 * millisecond for up to 50 ms; one that stays unmarked is still refused, and an
 * older one (a user's Makefile) at once.
 */
static int platters_settled(const struct root *r, const char *rest, int fd)
{
    for (int tries = 0;; tries++) {
        if (platters(r, rest, fd))
            return 1;
        struct stat st;
        struct timespec now, ms = {0, 1000000};
        if (tries == 50 || fstat(fd, &st) < 0 || clock_gettime(CLOCK_REALTIME, &now) < 0 ||
            now.tv_sec - st.st_ctim.tv_sec > 1)
            return 0;
        nanosleep(&ms, NULL);
    }
}

/* A refusal beneath tree r: of a change, rule 1 (link), 2 (dot) or 3 (theirs); of a
   read, rule 2 or 4 (theirs, in $TMPDIR; 5: a listing of $TMPDIR itself). */
static int refuse(const char *path, const struct root *r, int rule, char *why, size_t len)
{
    /* path, then the root (rule 5's path is the root) */
    static const char *const what[] = {
        [1] = "%s: a sandboxed script does not make, write or remove anything through a "
              "symlink beneath %s",
        [2] = "%s is a dot file or lies in a dot directory beneath %s: a sandboxed script "
              "does not read, make, write or remove those",
        [3] = "%s was not made by platter: beneath %s a sandboxed script writes and removes "
              "only files platter made",
        [4] = "%s was not made by platter: beneath %s ($TMPDIR, shared with other programs) "
              "a sandboxed script reads only what platter made",
        [5] = "%s is $TMPDIR, shared with other programs: a sandboxed script does not list it",
    };
    int n = snprintf(why, len, what[rule], path, r->name[0]);
    if (n >= 0 && (size_t)n < len)
        snprintf(why + n, len - (size_t)n, " (name %s on the command line, or run with --trust)",
                 rule == 1 ? "the file it leads to" : "it");
    return PL_FS_REFUSED;
}

/*
 * A change met a symlink (rule 1). Looked up again following links beneath the
 * root, for the answer the path would have had: one that leads out is refused
 * as such, a dangling one is missing (-ENOENT), a last-name link with
 * O_NOFOLLOW is -ELOOP; any other is refused by rule 1.
 */
static int refuse_link(const char *path, const struct root *r, const char *rest, int flags,
                       char *why, size_t len)
{
    int fd = open_beneath(r, rest, O_PATH | (flags & (O_NOFOLLOW | O_DIRECTORY)), 0);
    if (fd == -EXDEV) {
        refuse_escape(path, r, why, len);
        return PL_FS_REFUSED;
    }
    if (fd == -ENOENT || fd == -ELOOP)
        return fd;
    struct stat st;
    int last = fd >= 0 && (flags & O_NOFOLLOW) && fstat(fd, &st) == 0 && S_ISLNK(st.st_mode);
    if (fd >= 0)
        close(fd);
    return last ? -ELOOP : refuse(path, r, 1, why, len);
}

/*
 * A read beneath tree r met a symlink: opened following links beneath the
 * root, and refused by rule 2 when where it leads is a dot file or lies in a
 * dot directory (a "data" link to .ssh/id_rsa), or by rule 4 when it is not
 * platter's beneath $TMPDIR. Where it leads is read from the descriptor
 * itself; a root that moved since it was granted refuses.
 */
static int read_through_link(const char *path, const struct root *r, const char *rest, int flags,
                             char *why, size_t len)
{
    int fd = open_beneath(r, rest, flags, 0);
    if (fd < 0)
        return fd;
    char link[32], real[PATH_MAX];
    ssize_t n = readlink(fd_path(fd, link), real, sizeof real - 1);
    size_t rl = strlen(r->name[0]);
    int rule = 1;
    if (n > 0) {
        real[n] = '\0';
        const char *below = NULL;
        if (strcmp(r->name[0], "/") == 0)
            below = real + 1;
        else if (strncmp(real, r->name[0], rl) == 0 && real[rl] == '/')
            below = real + rl + 1;
        if (below && !dot_name(below) && (!r->shared || platters(r, below, fd)))
            return fd;
        if (below)
            rule = dot_name(below) ? 2 : 4;
    }
    close(fd);
    return refuse(path, r, rule, why, len);
}

/*
 * Resolve path beneath its root. want_parent: give the directory holding the
 * last name (held open: *dirfd, to close) and that name; else open the path
 * itself with flags. change: the call makes, writes or removes (for an open it
 * is read from flags: a write mode, O_CREAT, O_TRUNC or PL_FS_CHANGE), and the
 * rules above apply beneath a tree; *rp and restbuf (when given) say where the
 * path lies. Returns a descriptor / 0, -errno, or PL_FS_REFUSED.
 */
static int resolve(const char *path, int follow, int want_parent, int change, int flags,
                   unsigned mode, int *dirfd, char *name, const struct root **rp, char *restbuf,
                   char *why, size_t len)
{
    char p[PATH_MAX];
    int rc = normalize(path, p);
    if (rc < 0) {
        snprintf(why, len, "%s: %s", path, strerror(-rc));
        return PL_FS_REFUSED;
    }
    const char *rest;
    const struct root *r = find_root(p, follow, &rest);
    if (!r) {
        refuse_outside(path, p, why, len);
        return PL_FS_REFUSED;
    }
    if (rp)
        *rp = r;
    if (restbuf)
        strcpy(restbuf, rest);
    if (!want_parent) {
        change = change || (flags & O_ACCMODE) != O_RDONLY ||
                 (flags & (O_CREAT | O_TRUNC | PL_FS_CHANGE));
        /* contents or a listing (PL_FS_LOOK: pl_fs_check's O_PATH look that stands for one) */
        int look = !change && (!(flags & O_PATH) || (flags & PL_FS_LOOK));
        flags &= ~(PL_FS_CHANGE | PL_FS_LOOK);
        change = change && r->tree;
        look = look && r->tree;
        if ((change || look) && dot_name(rest))
            return refuse(path, r, 2, why, len);
        if (look) {
            rc = open_beneath_how(r, rest, flags, mode, 1);
            if (rc == PL_FS_LINK) /* through a symlink: where it leads decides */
                rc = read_through_link(path, r, rest, flags, why, len);
            else if (rc >= 0 && r->shared && !platters_settled(r, rest, rc)) {
                close(rc);
                return refuse(path, r, strcmp(rest, ".") ? 4 : 5, why, len);
            }
        } else if (change && (flags & (O_CREAT | O_EXCL)) == O_CREAT) {
            /* made new, or opened as it is: which one decides whether to mark */
            rc = open_beneath_how(r, rest, flags | O_EXCL, mode, 1);
            if (rc == -EEXIST) {
                flags &= ~O_CREAT;
                rc = open_beneath_how(r, rest, flags, mode, 1);
            } else {
                flags |= O_EXCL;
            }
        } else {
            rc = open_beneath_how(r, rest, flags, mode, change);
        }
        if (rc == -EXDEV) {
            refuse_escape(path, r, why, len);
            return PL_FS_REFUSED;
        }
        if (rc == PL_FS_LINK)
            return refuse_link(path, r, rest, flags, why, len);
        if (!r->tree && rc >= 0 && (flags & (O_CREAT | O_EXCL)) == (O_CREAT | O_EXCL))
            (void)set_mark(rc); /* a named new file: made by platter all the same */
        if (!change || rc < 0)
            return rc;
        if ((flags & (O_CREAT | O_EXCL)) == (O_CREAT | O_EXCL)) {
            mark_made(r, rest, rc, 0); /* made just now */
            return rc;
        }
        struct stat st;
        if (fstat(rc, &st) == 0 && !S_ISDIR(st.st_mode) && !S_ISBLK(st.st_mode) &&
            !S_ISCHR(st.st_mode) && !platters_settled(r, rest, rc)) {
            close(rc);
            return refuse(path, r, 3, why, len);
        }
        return rc;
    }
    if (!r->tree) { /* a granted file: its own directory, held since it was granted */
        rc = fcntl(r->fd, F_DUPFD_CLOEXEC, 0);
        if (rc < 0)
            return -errno;
        *dirfd = rc;
        strcpy(name, r->base);
        return 0;
    }
    if (strcmp(rest, ".") == 0) {
        snprintf(why, len,
                 "%s is an allowed root itself: platter does not make, remove or "
                 "track it in the sandbox",
                 path);
        return PL_FS_REFUSED;
    }
    const char *frest;
    const struct root *fr = find_root(p, 1, &frest);
    if (fr && !fr->tree) { /* named on the command line itself: exempt, as for an open */
        change = 0;
        if (rp)
            *rp = fr;
    }
    if (change && dot_name(rest))
        return refuse(path, r, 2, why, len);
    const char *slash = strrchr(rest, '/');
    char dir[PATH_MAX];
    if (slash) {
        memcpy(dir, rest, (size_t)(slash - rest));
        dir[slash - rest] = '\0';
    } else {
        strcpy(dir, ".");
    }
    const char *last = slash ? slash + 1 : rest;
    if (strlen(last) > NAME_MAX)
        return -ENAMETOOLONG;
    rc = open_beneath_how(r, dir, O_PATH | O_DIRECTORY, 0, change);
    if (rc == -EXDEV) {
        refuse_escape(path, r, why, len);
        return PL_FS_REFUSED;
    }
    if (rc == PL_FS_LINK)
        return refuse_link(path, r, dir, O_DIRECTORY, why, len);
    if (rc < 0)
        return rc;
    *dirfd = rc;
    strcpy(name, last);
    return 0;
}

static int parent_at(const char *path, int change, int *dirfd, char *name, const struct root **rp,
                     char *rest, char *why, size_t len);

/*
 * The files this run's record goes to (--json, --csv), by their directory's
 * identity and name: platter writes them when the script has ended, so the
 * script does not make a directory there, remove them or register them as
 * scratch (each would lose the record, silently for scratch).
 */
#define MAX_RESERVED 4
static struct reserved {
    dev_t dev;
    ino_t ino;
    char name[NAME_MAX + 1];
    char what[16];
} reserved[MAX_RESERVED];
static int nreserved;

int pl_fs_reserve(const char *path, const char *what)
{
    char dir[PATH_MAX];
    const char *slash = strrchr(path, '/');
    const char *last = slash ? slash + 1 : path;
    if (nreserved == MAX_RESERVED || !*last || strlen(last) > NAME_MAX ||
        strlen(what) >= sizeof reserved[0].what)
        return -ENOSPC;
    if (!slash)
        strcpy(dir, ".");
    else
        snprintf(dir, sizeof dir, "%.*s", slash == path ? 1 : (int)(slash - path), path);
    struct stat st;
    if (stat(dir, &st) < 0)
        return -errno;
    struct reserved *e = &reserved[nreserved++];
    e->dev = st.st_dev;
    e->ino = st.st_ino;
    strcpy(e->name, last);
    strcpy(e->what, what);
    return 0;
}

/* name in dirfd is one of the record's files: refused, why says so. */
static int refuse_reserved(const char *path, int dirfd, const char *name, char *why, size_t len)
{
    struct stat st;
    if (!nreserved || fstat(dirfd, &st) < 0)
        return 0;
    for (int i = 0; i < nreserved; i++)
        if (reserved[i].dev == st.st_dev && reserved[i].ino == st.st_ino &&
            strcmp(reserved[i].name, name) == 0) {
            snprintf(why, len,
                     "%s is where platter writes this run's %s record when the script ends: "
                     "a script does not make, remove or register it as scratch",
                     path, reserved[i].what);
            return PL_FS_REFUSED;
        }
    return 0;
}

/* The parent directory of path and its last name, for the *at() calls. With the
   allow list off: the directory as the path names it. A change is refused on the
   record's files (pl_fs_reserve). */
static int parent_of(const char *path, int change, int *dirfd, char *name, const struct root **rp,
                     char *rest, char *why, size_t len)
{
    int rc = parent_at(path, change, dirfd, name, rp, rest, why, len);
    if (rc == 0 && change && (rc = refuse_reserved(path, *dirfd, name, why, len)) < 0)
        close(*dirfd);
    return rc;
}

static int parent_at(const char *path, int change, int *dirfd, char *name, const struct root **rp,
                     char *rest, char *why, size_t len)
{
    if (rp)
        *rp = NULL;
    if (allow_on)
        return resolve(path, 0, 1, change, 0, 0, dirfd, name, rp, rest, why, len);
    char dir[PATH_MAX], trimmed[PATH_MAX];
    size_t pl = strlen(path);
    if (pl >= PATH_MAX)
        return -ENAMETOOLONG;
    while (pl > 1 && path[pl - 1] == '/')
        pl--;
    memcpy(trimmed, path, pl);
    trimmed[pl] = '\0';
    path = trimmed;
    const char *slash = strrchr(path, '/');
    if (slash) {
        size_t dl = (size_t)(slash - path);
        memcpy(dir, path, dl ? dl : 1);
        dir[dl ? dl : 1] = '\0';
    } else {
        strcpy(dir, ".");
    }
    const char *last = slash ? slash + 1 : path;
    if (!*last || strlen(last) > NAME_MAX)
        return !*last ? -EINVAL : -ENAMETOOLONG;
    int fd = open(dir, O_PATH | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0)
        return -errno;
    *dirfd = fd;
    strcpy(name, last);
    return 0;
}

static void default_roots(void);

int pl_allow_resolve(const char *given, char *real, int *exists)
{
    char norm[PATH_MAX];
    default_roots(); /* cwd0, for a relative name */
    if (normalize(given, norm) < 0)
        return -EINVAL;
    if (realpath(given, real)) {
        *exists = 1;
        return 0;
    }
    /* not there yet: its name in an existing parent, and not a dangling symlink */
    struct stat st;
    if (errno != ENOENT)
        return -errno;
    if (lstat(given, &st) == 0)
        return -ELOOP;
    char *slash = strrchr(norm, '/');
    char pdir[PATH_MAX];
    memcpy(pdir, norm, (size_t)(slash - norm));
    pdir[slash - norm] = '\0';
    if (!pdir[0])
        strcpy(pdir, "/");
    if (!slash[1])
        return -ENOENT;
    if (strlen(slash + 1) > NAME_MAX)
        return -ENAMETOOLONG;
    if (!realpath(pdir, real))
        return -errno;
    size_t rl = strlen(real);
    if (rl + 2 + strlen(slash + 1) >= PATH_MAX)
        return -ENAMETOOLONG;
    snprintf(real + rl, PATH_MAX - rl, "%s%s", rl > 1 ? "/" : "", slash + 1);
    *exists = 0;
    return 0;
}

const char *pl_allow_named_gain(const char *real)
{
    char p[PATH_MAX];
    const char *rest;
    default_roots();
    if (normalize(real, p) < 0)
        return "not a path";
    const struct root *r = find_root_in(p, 1, &rest, ndefault); /* the current directory, $TMPDIR */
    if (!r)
        return "outside the current directory and $TMPDIR";
    if (strcmp(rest, ".") == 0) /* the root itself: naming $TMPDIR lifts rule 4 */
        return r->shared ? "$TMPDIR itself, shared with other programs" : NULL;
    if (dot_name(rest)) /* rule 2 */
        return "a dot file or in a dot directory";
    /* a symlink anywhere on the way, even before a name that does not exist yet, is PL_FS_LINK */
    int fd = open_beneath_how(r, rest, O_PATH, 0, 1);
    if (fd == -ENOENT) /* a new name: made, and then platter's */
        return NULL;
    if (fd < 0) /* rule 1, or not to be looked at */
        return fd == PL_FS_LINK ? "reached through a symlink" : strerror(-fd);
    struct stat st;
    /* rule 3 (4 in $TMPDIR); a directory beneath the current directory keeps the rules in its tree */
    int ok = fstat(fd, &st) == 0 && ((S_ISDIR(st.st_mode) && !r->shared) || platters(r, rest, fd));
    close(fd);
    return ok ? NULL : "not made by platter";
}

static int add_root(const char *given, int tree, int shared)
{
    char real[PATH_MAX], base[NAME_MAX + 1];
    int exists, fd;
    int rc = pl_allow_resolve(given, real, &exists);
    if (rc < 0)
        return rc;
    if (exists) {
        struct stat st;
        if (stat(real, &st) < 0)
            return -errno;
        tree = tree || S_ISDIR(st.st_mode);
    } else {
        tree = 0;
    }
    for (int i = 0; i < nroots; i++)
        if (strcmp(roots[i].name[0], real) == 0 && roots[i].tree == tree) {
            roots[i].shared = roots[i].shared && shared; /* chosen as well: not only shared */
            return 0;
        }
    if (nroots == MAX_ALLOW)
        return -ENOSPC;
    if (tree) {
        fd = open(real, O_PATH | O_DIRECTORY | O_CLOEXEC);
        base[0] = '\0';
    } else {
        char *slash = strrchr(real, '/');
        snprintf(base, sizeof base, "%s", slash + 1);
        *slash = '\0';
        fd = open(real[0] ? real : "/", O_PATH | O_DIRECTORY | O_CLOEXEC);
        *slash = '/';
    }
    if (fd < 0)
        return -errno;
    char norm[PATH_MAX];
    if (normalize(given, norm) < 0)
        strcpy(norm, real);
    struct root *r = &roots[nroots];
    r->name[0] = strdup(real);
    r->name[1] = strcmp(norm, real) ? strdup(norm) : NULL;
    if (!r->name[0]) {
        close(fd);
        free(r->name[1]);
        return -ENOMEM;
    }
    r->fd = fd;
    r->tree = tree;
    r->exists = exists;
    r->shared = shared;
    strcpy(r->base, base);
    nroots++;
    return 0;
}

static void default_roots(void)
{
    if (roots_ready)
        return;
    roots_ready = 1;
    if (!getcwd(cwd0, sizeof cwd0))
        strcpy(cwd0, "/nonexistent");
    add_root(".", 1, 0);
    const char *tmp = getenv("TMPDIR");
    add_root(tmp && *tmp ? tmp : "/tmp", 1, 1);
    ndefault = nroots;
}

void pl_allow_enable(int on)
{
    allow_on = on;
    if (on)
        default_roots();
}

int pl_allow_add(const char *path)
{
    default_roots();
    return add_root(path, 0, 0);
}

int pl_allow_roots(void (*fn)(void *ud, const struct pl_allow_root *r), void *ud)
{
    for (int i = 0; i < nroots; i++) {
        struct pl_allow_root a = {roots[i].name[0], roots[i].fd,
                                  roots[i].tree ? NULL : roots[i].base, roots[i].exists};
        fn(ud, &a);
    }
    return nroots;
}

int pl_allow_check(const char *path, char *why, size_t len)
{
    char p[PATH_MAX];
    const char *rest;
    if (!allow_on)
        return 0;
    int rc = normalize(path, p);
    if (rc < 0) {
        snprintf(why, len, "%s: %s", path, strerror(-rc));
        return PL_FS_REFUSED;
    }
    if (!find_root(p, 1, &rest)) {
        refuse_outside(path, p, why, len);
        return PL_FS_REFUSED;
    }
    return 0;
}

int pl_allow_check_dot(const char *path, char *why, size_t len)
{
    char p[PATH_MAX];
    const char *rest;
    if (pl_allow_check(path, why, len) == PL_FS_REFUSED)
        return PL_FS_REFUSED;
    if (!allow_on || normalize(path, p) < 0)
        return 0;
    const struct root *r = find_root(p, 1, &rest);
    if (r && r->tree && dot_name(rest))
        return refuse(path, r, 2, why, len);
    return 0;
}

/* ---- the chokepoint ------------------------------------------------------ */

static pl_fs_watch_fn watch;

void pl_fs_set_watch(pl_fs_watch_fn fn)
{
    watch = fn;
}

static int open_plain(const char *path, int flags, unsigned mode, char *why, size_t len)
{
    if (!allow_on) {
        int fd = open(path, (flags & ~PL_FS_CHANGE) | O_CLOEXEC, mode);
        return fd < 0 ? -errno : fd;
    }
    return resolve(path, 1, 0, 0, flags, mode, NULL, NULL, NULL, NULL, why, len);
}

int pl_fs_check(const char *path, int change, char *why, size_t len)
{
    if (!allow_on)
        return 0;
    int fd = resolve(path, 1, 0, change, O_PATH | (change ? PL_FS_CHANGE : PL_FS_LOOK), 0, NULL,
                     NULL, NULL, NULL, why, len);
    if (fd >= 0)
        close(fd);
    return fd == PL_FS_REFUSED ? PL_FS_REFUSED : 0;
}

int pl_fs_open(const char *path, int flags, unsigned mode, char *why, size_t len)
{
    int fd = open_plain(path, flags, mode, why, len);
    if (watch && (flags & O_PATH) == 0) /* a stat is not an open */
        watch(path, (flags & O_ACCMODE) == O_RDONLY ? PL_FS_WATCH_READ : PL_FS_WATCH_WRITE, fd, -1,
              why);
    return fd;
}

/*
 * Text output (a report a workload writes, such as fio's --output): only to a
 * file named on the command line itself, an existing regular file or a new
 * name, never to any other path under a root. A script chooses the text, so
 * it must not be able to plant a file the user did not name (a shell start-up
 * file in the current directory, say).
 */
/* A name that only a log can have: NAME.log, NAME not empty and not starting
   with '.', made of letters, digits and "._-+" (fio's NAME_bw.1.log). */
static int log_name(const char *p)
{
    const char *base = strrchr(p, '/');
    base = base ? base + 1 : p;
    size_t n = strlen(base);
    if (n < 5 || base[0] == '.' || strcmp(base + n - 4, ".log") != 0)
        return 0;
    for (const char *c = base; *c; c++)
        if (!((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') || (*c >= '0' && *c <= '9') ||
              strchr("._-+", *c)))
            return 0;
    return 1;
}

/*
 * With a watch (platter plan), every check runs as it would, but the file is only
 * looked at (O_PATH): what would be written goes to an anonymous memory file,
 * handed to the watch, and nothing is created or truncated.
 */
static int output_dry(const char *path, int fd, char *why, size_t len)
{
    if (fd < 0 && fd != -ENOENT) {
        watch(path, PL_FS_WATCH_OUTPUT, fd, -1, why);
        return fd;
    }
    if (fd >= 0) {
        struct stat st;
        int regular = fstat(fd, &st) == 0 && S_ISREG(st.st_mode);
        close(fd);
        if (!regular) {
            snprintf(why, len, "%s is not a regular file (text output goes only to one)", path);
            watch(path, PL_FS_WATCH_OUTPUT, PL_FS_REFUSED, -1, why);
            return PL_FS_REFUSED;
        }
    }
    int mem = memfd_create("platter-plan-output", MFD_CLOEXEC);
    if (mem < 0)
        return -errno;
    watch(path, fd >= 0 ? PL_FS_WATCH_OUTPUT : PL_FS_WATCH_OUTPUT_NEW, mem, mem, why);
    return mem;
}

int pl_fs_open_output(const char *path, char *why, size_t len)
{
    int flags = O_WRONLY | O_CREAT | O_NOCTTY | O_NONBLOCK | O_CLOEXEC, fd;
    if (watch)
        flags = O_PATH | O_CLOEXEC;
    if (!allow_on) {
        fd = open(path, flags, 0644);
        if (fd < 0)
            fd = -errno;
        if (watch)
            return output_dry(path, fd, why, len);
        if (fd < 0)
            return fd;
    } else {
        char p[PATH_MAX];
        int rc = normalize(path, p);
        if (rc < 0) {
            snprintf(why, len, "%s: %s", path, strerror(-rc));
            return PL_FS_REFUSED;
        }
        const struct root *r = NULL;
        for (int i = 0; i < nroots && !r; i++)
            for (int k = 0; k < 2 && !r; k++)
                if (!roots[i].tree && roots[i].name[k] && strcmp(p, roots[i].name[k]) == 0)
                    r = &roots[i];
        if (!r && log_name(p)) { /* a log file (fio's NAME_bw.1.log): anywhere beneath a root */
            const char *rest;
            const struct root *t = find_root(p, 0, &rest);
            if (t && t->tree && strcmp(rest, ".") != 0) {
                /* a change beneath a tree: made new (and marked), or one platter made */
                int rule = dot_name(rest) ? 2 : 0;
                fd = -EEXIST;
                if (!rule && !watch) {
                    fd = open_beneath_how(t, rest, flags | O_EXCL | O_NOFOLLOW, 0644, 1);
                    if (fd >= 0)
                        mark_made(t, rest, fd, 0);
                }
                if (!rule && fd == -EEXIST) {
                    fd = open_beneath_how(t, rest, (flags & ~O_CREAT) | O_NOFOLLOW, 0, 1);
                    if (fd >= 0 && !platters(t, rest, fd)) {
                        close(fd);
                        rule = 3;
                    }
                }
                if (fd == PL_FS_LINK)
                    fd = refuse_link(path, t, rest, O_NOFOLLOW, why, len);
                if (fd == PL_FS_REFUSED) {
                    if (watch)
                        watch(path, PL_FS_WATCH_OUTPUT, PL_FS_REFUSED, -1, why);
                    return PL_FS_REFUSED;
                }
                if (rule || fd == -EXDEV) {
                    if (rule)
                        refuse(path, t, rule, why, len);
                    else
                        refuse_escape(path, t, why, len);
                    if (watch)
                        watch(path, PL_FS_WATCH_OUTPUT, PL_FS_REFUSED, -1, why);
                    return PL_FS_REFUSED;
                }
                if (watch)
                    return output_dry(path, fd, why, len);
                if (fd < 0)
                    return fd;
                goto opened;
            }
        }
        if (!r) {
            snprintf(why, len,
                     "%s is not a file named on the command line: a script writes text "
                     "only to a file named there, or to a NAME.log file under the allowed "
                     "directories (run with --trust to lift the sandbox)",
                     path);
            if (watch)
                watch(path, PL_FS_WATCH_OUTPUT, PL_FS_REFUSED, -1, why);
            return PL_FS_REFUSED;
        }
        fd = open_beneath(r, r->base, flags, 0644);
        if (fd == -EXDEV) {
            refuse_escape(path, r, why, len);
            if (watch)
                watch(path, PL_FS_WATCH_OUTPUT, PL_FS_REFUSED, -1, why);
            return PL_FS_REFUSED;
        }
        if (watch)
            return output_dry(path, fd, why, len);
        if (fd < 0)
            return fd;
    }
opened:;
    struct stat st;
    if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
        close(fd);
        snprintf(why, len, "%s is not a regular file (text output goes only to one)", path);
        return PL_FS_REFUSED;
    }
    if (ftruncate(fd, 0) < 0 || fcntl(fd, F_SETFL, 0) < 0) {
        int err = errno;
        close(fd);
        return -err;
    }
    return fd;
}

int pl_fs_reopen(int fd, int flags)
{
    char link[32];
    int nfd = open(fd_path(fd, link), (flags & ~(O_CREAT | O_EXCL | O_TRUNC)) | O_CLOEXEC);
    return nfd < 0 ? -errno : nfd;
}

int pl_fs_stat(const char *path, struct stat *st, char *why, size_t len)
{
    int fd = pl_fs_open(path, O_PATH, 0, why, len);
    if (fd < 0)
        return fd;
    int rc = fstat(fd, st) < 0 ? -errno : 0;
    close(fd);
    return rc;
}

int pl_fs_mkdir(const char *path, unsigned mode, char *why, size_t len)
{
    char name[NAME_MAX + 1], rest[PATH_MAX];
    const struct root *r;
    int dirfd, rc = parent_of(path, 1, &dirfd, name, &r, rest, why, len);
    if (rc < 0)
        return rc;
    rc = mkdirat(dirfd, name, mode) < 0 ? -errno : 0;
    if (rc == 0 && r && r->tree) {
        int d = openat(dirfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        if (d >= 0) {
            mark_made(r, rest, d, 1);
            close(d);
        }
    }
    close(dirfd);
    return rc;
}

static void scratch_forget(int dirfd, const char *name);

int pl_fs_rmdir(const char *path, char *why, size_t len)
{
    char name[NAME_MAX + 1];
    int dirfd, rc = parent_of(path, 1, &dirfd, name, NULL, NULL, why, len);
    if (rc < 0)
        return rc;
    rc = unlinkat(dirfd, name, AT_REMOVEDIR) < 0 ? -errno : 0;
    if (rc == 0)
        scratch_forget(dirfd, name);
    close(dirfd);
    return rc;
}

/* Rule 3 for an entry about to be removed or registered as scratch: name in
   dirfd, at rest beneath tree r (r NULL: not beneath a tree). 0, or refused. */
static int may_remove(const char *path, const struct root *r, const char *rest, int dirfd,
                      const char *name, char *why, size_t len)
{
    if (!r || !r->tree || under_made(r, rest))
        return 0;
    int fd = openat(dirfd, name, O_PATH | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0)
        return 0; /* nothing there (yet): the call itself says what it finds */
    int ok = platters(r, rest, fd);
    close(fd);
    return ok ? 0 : refuse(path, r, 3, why, len);
}

int pl_fs_remove_file(const char *path, char *why, size_t len)
{
    char name[NAME_MAX + 1], rest[PATH_MAX];
    const struct root *r;
    struct stat st;
    int dirfd, rc = parent_of(path, 1, &dirfd, name, &r, rest, why, len);
    if (rc < 0)
        return rc;
    if (fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW) == 0 && !S_ISREG(st.st_mode) &&
        !S_ISLNK(st.st_mode)) {
        close(dirfd);
        snprintf(why, len, "%s is not a regular file (platter removes only files)", path);
        return PL_FS_NOTFILE;
    }
    rc = may_remove(path, r, rest, dirfd, name, why, len);
    if (rc < 0) {
        close(dirfd);
        return rc;
    }
    rc = unlinkat(dirfd, name, 0) < 0 ? -errno : 0;
    if (rc == 0)
        scratch_forget(dirfd, name);
    close(dirfd);
    return rc;
}

void pl_fs_unlink_if_same(const char *path, int fd)
{
    char name[NAME_MAX + 1], why[512];
    struct stat a, b;
    int dirfd;
    if (fstat(fd, &a) < 0 || parent_of(path, 0, &dirfd, name, NULL, NULL, why, sizeof why) < 0)
        return;
    if (fstatat(dirfd, name, &b, AT_SYMLINK_NOFOLLOW) == 0 && a.st_dev == b.st_dev &&
        a.st_ino == b.st_ino)
        unlinkat(dirfd, name, 0);
    close(dirfd);
}

/* ---- scratch entries: (directory descriptor, name) ---------------------- */

#define MAX_SCRATCH 64

struct scratch {
    int dirfd;
    dev_t dev;
    ino_t ino;
    char name[NAME_MAX + 1];
};
static struct scratch scratch[MAX_SCRATCH];
static volatile sig_atomic_t scratch_used[MAX_SCRATCH];

/* A worker's entry: its directory by name (what the descriptor leads to now) and
   identity. 0, or -ENOSPC / -errno. */
static int scratch_share(int dirfd, const struct stat *st, const char *name)
{
    char link[32], dir[PATH_MAX];
    ssize_t n = readlink(fd_path(dirfd, link), dir, sizeof dir - 1);
    if (n < 0)
        return -errno;
    if (n == 0 || dir[0] != '/' || (size_t)n >= sizeof dir - 1)
        return -ENAMETOOLONG;
    dir[n] = '\0';
    for (int i = 0; i < MAX_SHARED_SCRATCH; i++) {
        if (slot_claim(&sh->scratch_state[i])) {
            struct shared_scratch *e = &sh->scratch[i];
            e->dev = st->st_dev;
            e->ino = st->st_ino;
            memcpy(e->dir, dir, (size_t)n + 1);
            strcpy(e->name, name);
            slot_set(&sh->scratch_state[i], SLOT_SET);
            return 0;
        }
    }
    return -ENOSPC;
}

int pl_scratch_add(const char *path, char *why, size_t len)
{
    char name[NAME_MAX + 1], rest[PATH_MAX];
    const struct root *r;
    struct stat st;
    int dirfd, rc = parent_of(path, 1, &dirfd, name, &r, rest, why, len);
    if (rc < 0)
        return rc;
    rc = may_remove(path, r, rest, dirfd, name, why, len);
    if (rc < 0) {
        close(dirfd);
        return rc;
    }
    if (fstat(dirfd, &st) < 0) {
        rc = -errno;
        close(dirfd);
        return rc;
    }
    if (!cleans_up()) { /* a worker: kept for platter's own process */
        rc = scratch_share(dirfd, &st, name);
        close(dirfd);
        return rc;
    }
    for (int i = 0; i < MAX_SCRATCH; i++) {
        if (!scratch_used[i]) {
            scratch[i].dirfd = dirfd;
            scratch[i].dev = st.st_dev;
            scratch[i].ino = st.st_ino;
            strcpy(scratch[i].name, name);
            scratch_used[i] = 1;
            return 0;
        }
    }
    close(dirfd);
    return -ENOSPC;
}

/* The entry was removed on purpose: forget it (matched by directory and name). */
static void scratch_forget(int dirfd, const char *name)
{
    struct stat st;
    if (fstat(dirfd, &st) < 0)
        return;
    for (int i = 0; i < MAX_SCRATCH; i++)
        if (scratch_used[i] && scratch[i].dev == st.st_dev && scratch[i].ino == st.st_ino &&
            strcmp(scratch[i].name, name) == 0) {
            scratch_used[i] = 0;
            close(scratch[i].dirfd);
        }
    for (int i = 0; i < MAX_SHARED_SCRATCH; i++) {
        struct shared_scratch *e = &sh->scratch[i];
        if (slot_is_set(&sh->scratch_state[i]) && e->dev == st.st_dev && e->ino == st.st_ino &&
            strcmp(e->name, name) == 0)
            slot_set(&sh->scratch_state[i], SLOT_FREE);
    }
}

/* Newest first (files made in a scratch directory usually come after it), the
   workers' first (their files are made in what this process made before it forked
   them); a directory goes only when it is empty. Async-signal-safe. */
static void scratch_cleanup(void)
{
    /* the workers' entries: each directory looked up again, no symlink followed, and
       used only while it is the one the worker registered in */
    struct open_how how = {.flags = O_PATH | O_DIRECTORY | O_CLOEXEC,
                           .resolve = RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS};
    for (int i = MAX_SHARED_SCRATCH - 1; i >= 0; i--) {
        if (!slot_is_set(&sh->scratch_state[i]))
            continue;
        struct shared_scratch *e = &sh->scratch[i];
        slot_set(&sh->scratch_state[i], SLOT_FREE);
        int fd = (int)syscall(SYS_openat2, AT_FDCWD, e->dir, &how, sizeof how);
        struct stat st;
        if (fd < 0)
            continue;
        if (fstat(fd, &st) == 0 && st.st_dev == e->dev && st.st_ino == e->ino &&
            unlinkat(fd, e->name, 0) < 0 && errno == EISDIR)
            unlinkat(fd, e->name, AT_REMOVEDIR);
        close(fd);
    }
    for (int i = MAX_SCRATCH - 1; i >= 0; i--) {
        if (scratch_used[i]) {
            scratch_used[i] = 0;
            if (unlinkat(scratch[i].dirfd, scratch[i].name, 0) < 0 && errno == EISDIR)
                unlinkat(scratch[i].dirfd, scratch[i].name, AT_REMOVEDIR);
            close(scratch[i].dirfd);
        }
    }
}
