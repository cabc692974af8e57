/*
 * Interrupt flag, scratch-file registry and the sandbox's path allow list.
 * Paths are compared after realpath(3), so ".." and symlinks cannot escape.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "guard.h"

volatile sig_atomic_t pl_interrupted;

#define MAX_SCRATCH 64
#define MAX_ALLOW   256

static char scratch[MAX_SCRATCH][PATH_MAX];
static volatile sig_atomic_t scratch_used[MAX_SCRATCH];

int pl_scratch_add(const char *path)
{
    char abs[PATH_MAX];
    if (path[0] != '/') {
        if (!getcwd(abs, sizeof abs))
            return -errno;
        if (strlen(abs) + 1 + strlen(path) >= sizeof abs)
            return -ENAMETOOLONG;
        strcat(abs, "/");
        strcat(abs, path);
    } else {
        if (strlen(path) >= sizeof abs)
            return -ENAMETOOLONG;
        strcpy(abs, path);
    }
    for (int i = 0; i < MAX_SCRATCH; i++) {
        if (!scratch_used[i]) {
            strcpy(scratch[i], abs);
            scratch_used[i] = 1;
            return 0;
        }
    }
    return -ENOSPC;
}

void pl_scratch_forget(const char *path)
{
    char abs[PATH_MAX];
    const char *want = path;
    if (path[0] != '/' && getcwd(abs, sizeof abs) &&
        strlen(abs) + 1 + strlen(path) < sizeof abs) {
        strcat(abs, "/");
        strcat(abs, path);
        want = abs;
    }
    for (int i = 0; i < MAX_SCRATCH; i++)
        if (scratch_used[i] && strcmp(scratch[i], want) == 0)
            scratch_used[i] = 0;
}

/* settings to put back at exit: (path, old text, what platter left, ident) */
#define MAX_RESTORE 16
#define RESTORE_TEXT 32
struct restore {
    char path[PATH_MAX];
    char old[RESTORE_TEXT];
    char mine[RESTORE_TEXT];        /* "" until platter wrote a value */
    char ident_path[PATH_MAX];      /* "" when there is none */
    char ident[RESTORE_TEXT];
};
static struct restore restore[MAX_RESTORE];
static volatile sig_atomic_t restore_used[MAX_RESTORE];

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
        if (restore_used[i] && strcmp(restore[i].path, path) == 0)
            return i;
    return -1;
}

int pl_restore_add(const char *path, const char *text, const char *ident)
{
    if (strlen(path) >= PATH_MAX || strlen(text) >= RESTORE_TEXT ||
        (ident != NULL && strlen(ident) >= PATH_MAX))
        return -ENAMETOOLONG;
    if (restore_find(path) >= 0)
        return 0;  /* the first value stands */
    for (int i = 0; i < MAX_RESTORE; i++) {
        if (!restore_used[i]) {
            struct restore *r = &restore[i];
            strcpy(r->path, path);
            copy_text(r->old, text);
            r->mine[0] = '\0';
            r->ident_path[0] = '\0';
            if (ident != NULL && read_small(ident, r->ident, sizeof r->ident) == 0)
                strcpy(r->ident_path, ident);
            restore_used[i] = 1;
            return 0;
        }
    }
    return -ENOSPC;
}

void pl_restore_wrote(const char *path, const char *text)
{
    int i = restore_find(path);
    if (i >= 0 && strlen(text) < RESTORE_TEXT)
        copy_text(restore[i].mine, text);
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
    /* newest slots first (files made in a scratch directory usually come after it);
       a directory goes only when it is empty */
    for (int i = MAX_SCRATCH - 1; i >= 0; i--) {
        if (scratch_used[i]) {
            if (unlink(scratch[i]) < 0 && errno == EISDIR)
                rmdir(scratch[i]);
            scratch_used[i] = 0;
        }
    }
    for (int i = 0; i < MAX_RESTORE; i++) {
        if (restore_used[i]) {
            struct restore *r = &restore[i];
            restore_used[i] = 0;
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

struct root {
    char *path;
    int tree;
};

static int allow_on;
static int roots_ready;
static struct root roots[MAX_ALLOW];
static int nroots;

/*
 * The name `path` has or will have, with every existing directory resolved.
 * A missing last component must not be a symlink (O_CREAT would follow it).
 */
static int resolve(const char *path, char *out)
{
    if (realpath(path, out))
        return 0;
    if (errno != ENOENT)
        return -errno;
    struct stat st;
    if (lstat(path, &st) == 0)  /* exists but unresolvable: a dangling symlink */
        return -ELOOP;
    char dir[PATH_MAX], base[NAME_MAX + 1];
    const char *slash = strrchr(path, '/');
    if (!slash) {
        strcpy(dir, ".");
        snprintf(base, sizeof base, "%s", path);
    } else {
        size_t dl = (size_t)(slash - path);
        if (dl >= sizeof dir)
            return -ENAMETOOLONG;
        memcpy(dir, path, dl);
        dir[dl] = '\0';
        if (dl == 0)
            strcpy(dir, "/");
        snprintf(base, sizeof base, "%s", slash + 1);
    }
    if (!base[0] || strcmp(base, ".") == 0 || strcmp(base, "..") == 0)
        return -ENOENT;
    char rdir[PATH_MAX];
    if (!realpath(dir, rdir))
        return -errno;
    size_t rl = strlen(rdir), bl = strlen(base);
    if (rl + 1 + bl >= PATH_MAX)
        return -ENAMETOOLONG;
    memcpy(out, rdir, rl);
    if (strcmp(rdir, "/") != 0)
        out[rl++] = '/';
    memcpy(out + rl, base, bl + 1);
    return 0;
}

static int add_root(const char *path, int tree)
{
    char r[PATH_MAX];
    int rc = resolve(path, r);
    if (rc)
        return rc;
    struct stat st;
    if (stat(r, &st) == 0 && S_ISDIR(st.st_mode))
        tree = 1;
    for (int i = 0; i < nroots; i++)
        if (strcmp(roots[i].path, r) == 0) {
            roots[i].tree |= tree;
            return 0;
        }
    if (nroots == MAX_ALLOW)
        return -ENOSPC;
    roots[nroots].path = strdup(r);
    if (!roots[nroots].path)
        return -ENOMEM;
    roots[nroots++].tree = tree;
    return 0;
}

static void default_roots(void)
{
    if (roots_ready)
        return;
    roots_ready = 1;
    add_root(".", 1);
    const char *tmp = getenv("TMPDIR");
    add_root(tmp && *tmp ? tmp : "/tmp", 1);
}

void pl_allow_enable(int on)
{
    allow_on = on;
    if (on)
        default_roots();
}

int pl_allow_enabled(void)
{
    return allow_on;
}

int pl_allow_add(const char *path, int tree)
{
    default_roots();
    return add_root(path, tree);
}

static int under(const char *p, const struct root *r)
{
    size_t n = strlen(r->path);
    if (strcmp(p, r->path) == 0)
        return 1;
    if (!r->tree || strncmp(p, r->path, n) != 0)
        return 0;
    return p[n] == '/' || strcmp(r->path, "/") == 0;
}

static int check_resolved(const char *shown, const char *r, char *why, size_t len)
{
    for (int i = 0; i < nroots; i++)
        if (under(r, &roots[i]))
            return 0;
    snprintf(why, len,
             "%s%s%s is outside the current directory, $TMPDIR and the paths named on the "
             "command line (run with --trust to lift the sandbox)",
             shown, strcmp(shown, r) ? " -> " : "", strcmp(shown, r) ? r : "");
    return -EACCES;
}

int pl_allow_check(const char *path, char *why, size_t len)
{
    if (!allow_on)
        return 0;
    char r[PATH_MAX];
    int rc = resolve(path, r);
    if (rc == -ELOOP) {
        snprintf(why, len, "%s is a dangling symlink (refused in the sandbox)", path);
        return -EACCES;
    }
    if (rc) {
        snprintf(why, len, "%s: %s", path, strerror(-rc));
        return rc;
    }
    return check_resolved(path, r, why, len);
}

int pl_allow_check_fd(int fd, const char *path, char *why, size_t len)
{
    if (!allow_on)
        return 0;
    char link[64], r[PATH_MAX];
    snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
    ssize_t n = readlink(link, r, sizeof r - 1);
    if (n < 0)
        return 0;  /* no /proc: the pre-open check stands alone */
    r[n] = '\0';
    return check_resolved(path, r, why, len);
}
