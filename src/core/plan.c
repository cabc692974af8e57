/*
 * platter plan's notes (plan.h): the target in use wrapped in one that notes
 * every call and passes it on, a watch on guard.c's file system calls, the
 * table of names in shared memory, and the capture of the run's output.
 * Uses target.h, file.h (the open file), guard.h (the chokepoint).
 */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "file.h"
#include "guard.h"
#include "plan.h"
#include "safety.h"
#include "target.h"

#define MAX_ENTRIES 4096
#define LIVE (1u << 30) /* exists in the model now (made, or found on the machine) */
#define MDIR (1u << 29) /* a directory of the model */
#define GONE (PL_PLAN_REMOVE | PL_PLAN_RMDIR)
#define ROOT_WHY 512
#define MAX_ENV 64

struct shared {
    int lock;
    unsigned n, dropped; /* dropped: 1 once a name found the table full */
    uint64_t written;
    char root[ROOT_WHY];
    unsigned nenv;
    struct pl_plan_env env[MAX_ENV];
    struct pl_plan_entry e[MAX_ENTRIES];
    int outfd[MAX_ENTRIES]; /* the parent's duplicate of a text output's memory file */
};

static struct shared *S;
static const struct pl_target_ops *inner;
static struct pl_target_ops plan_ops;
static char cwd[PL_PLAN_PATH];
static pid_t parent;

static void lock(void)
{
    while (__atomic_exchange_n(&S->lock, 1, __ATOMIC_ACQUIRE))
        sched_yield();
}

static void unlock(void)
{
    __atomic_store_n(&S->lock, 0, __ATOMIC_RELEASE);
}

/* path made absolute against the starting directory, "." and ".." folded as text */
static void absolute(const char *path, char *out)
{
    char buf[2 * PL_PLAN_PATH];
    snprintf(buf, sizeof buf, "%s%s%s", path[0] == '/' ? "" : cwd, path[0] == '/' ? "" : "/", path);
    size_t k = 0;
    out[0] = '\0';
    for (char *save = NULL, *c = strtok_r(buf, "/", &save); c; c = strtok_r(NULL, "/", &save)) {
        if (strcmp(c, ".") == 0)
            continue;
        if (strcmp(c, "..") == 0) {
            while (k > 0 && out[k - 1] != '/')
                k--;
            if (k > 0)
                k--;
            out[k] = '\0';
            continue;
        }
        size_t n = strlen(c);
        if (k + 1 + n + 1 > PL_PLAN_PATH)
            break;
        out[k++] = '/';
        memcpy(out + k, c, n + 1);
        k += n;
    }
    if (k == 0)
        snprintf(out, PL_PLAN_PATH, "/");
}

/* The entry of an absolute name, made if new; -1 when the table is full. Under the lock. */
static int entry_locked(const char *abs)
{
    for (unsigned i = 0; i < S->n; i++)
        if (strcmp(S->e[i].path, abs) == 0)
            return (int)i;
    if (S->n == MAX_ENTRIES) {
        S->dropped = 1;
        return -1;
    }
    struct pl_plan_entry *e = &S->e[S->n];
    memset(e, 0, sizeof *e);
    snprintf(e->path, sizeof e->path, "%s", abs);
    e->output = -1;
    S->outfd[S->n] = -1;
    return (int)S->n++;
}

static int entry_of(const char *path)
{
    char abs[PL_PLAN_PATH];
    absolute(path, abs);
    lock();
    int i = entry_locked(abs);
    unlock();
    return i;
}

static void mark(int i, unsigned set, unsigned clear, const char *why)
{
    if (i < 0)
        return;
    lock();
    struct pl_plan_entry *e = &S->e[i];
    e->what = (e->what | set) & ~clear;
    if (why && *why && !e->why[0])
        snprintf(e->why, sizeof e->why, "%s", why);
    unlock();
}

static void need_root(const char *why)
{
    lock();
    if (!strstr(S->root, why)) {
        size_t k = strlen(S->root);
        snprintf(S->root + k, sizeof S->root - k, "%s%s", k ? "; " : "", why);
    }
    unlock();
}

static int is_dev(const char *path)
{
    return strncmp(path, "/dev/", 5) == 0;
}

/*
 * A name the model does not know yet but the machine has: a regular file is
 * made in the model with its size (sparse), so the run reads and removes it as
 * it would the real one. The machine is only looked at (stat, through the
 * chokepoint).
 */
static void mirror(const char *path, int i)
{
    if (i < 0 || (S->e[i].what & (LIVE | PL_PLAN_REMOVE)) || is_dev(path))
        return;
    struct stat st;
    char why[PL_PLAN_WHY];
    if (pl_fs_stat(path, &st, why, sizeof why) < 0 || !S_ISREG(st.st_mode))
        return;
    struct pl_file t;
    struct pl_open_opts co = {.create = 1, .size = (uint64_t)st.st_size, .sparse = 1};
    struct pl_error e;
    memset(&t, 0, sizeof t);
    t.fd = -1;
    t.target = inner;
    t.align = 1;
    t.mem_align = 4096;
    if (inner->open(&t, path, &co, &e) == 0)
        mark(i, LIVE | PL_PLAN_EXISTED, 0, NULL);
    inner->close(&t);
    if (t.fd >= 0)
        close(t.fd);
}

/*
 * A device name: what the machine has under it, only looked at (never opened).
 * The simulated disk takes any /dev/NAME; the real run needs it to exist, and
 * refuses to write to a block device in use even with --destroy (safety.h).
 */
static void real_device(const char *path, int i, int write)
{
    struct stat st;
    char why[PL_PLAN_WHY];
    if (i < 0 || strcmp(path, "/dev/null") == 0 || strcmp(path, "/dev/zero") == 0)
        return;
    int rc = pl_fs_stat(path, &st, why, sizeof why);
    if (rc == -ENOENT) {
        mark(i, PL_PLAN_ABSENT, 0, NULL);
    } else if (rc == 0 && S_ISBLK(st.st_mode) && write &&
               pl_safety_block_in_use(major(st.st_rdev), minor(st.st_rdev), why, sizeof why) < 0) {
        mark(i, PL_PLAN_BUSY, 0, why);
    }
}

/* ---- the wrapped target ---- */

static void count(struct pl_file *f, uint64_t n);

/* The entry of an open file, remembered for the last file used (per process; forgotten
   when a file opens or closes, so a reused struct and name address cannot match). */
static const struct pl_file *last_f;
static const char *last_path;
static int last_i = -1;

static int plan_close(struct pl_file *f)
{
    last_f = NULL;
    return inner->close(f);
}

/* Open path read-only on the wrapped target into t, for a look at its kind and size
   (unlook closes it, opened or not); 0 or -errno. */
static int look(struct pl_file *t, const char *path)
{
    struct pl_open_opts ro = {0};
    struct pl_error te;
    memset(t, 0, sizeof *t);
    t->fd = -1;
    t->target = inner;
    t->mem_align = 4096;
    return inner->open(t, path, &ro, &te);
}

static void unlook(struct pl_file *t)
{
    inner->close(t);
    if (t->fd >= 0)
        close(t->fd);
}

/*
 * The machine's own file at entry i (found there, not made by the plan) is
 * looked at as the real run would open or remove it (change), with the
 * sandbox's rules that depend on the machine's files: a file platter did not
 * make is not changed, nor read in $TMPDIR (guard.c). 0, or PL_FS_REFUSED
 * with why.
 */
static int machine_rules(int i, const char *path, int change, char *why, size_t n)
{
    unsigned w = i >= 0 ? S->e[i].what : 0;
    if (!(w & PL_PLAN_EXISTED) || !(w & LIVE) || (w & PL_PLAN_CREATE))
        return 0;
    return pl_fs_check(path, change, why, n);
}

static int plan_open(struct pl_file *f, const char *path, const struct pl_open_opts *o,
                     struct pl_error *e)
{
    int i = entry_of(path);
    last_f = NULL;
    mirror(path, i);
    if (machine_rules(i, path, o->write || o->size, e->msg, sizeof e->msg) == PL_FS_REFUSED) {
        e->err = EACCES;
        e->op = "open";
        mark(i, PL_PLAN_REFUSED | (o->write ? PL_PLAN_WRITE : PL_PLAN_READ), 0, e->msg);
        return PL_FS_REFUSED;
    }
    int known = i >= 0 && (S->e[i].what & LIVE);
    struct pl_open_opts oo = *o;
    oo.destroy = 1;     /* noted below instead: the plan goes on to show the rest */
    int64_t before = 0; /* a size to fill: the bytes it adds are written */
    if (o->size && !o->sparse && known) {
        struct pl_file t;
        if (look(&t, path) == 0)
            before = inner->size(&t);
        unlook(&t);
    }
    int rc = inner->open(f, path, &oo, e);
    if (rc == 0 && o->size && !o->sparse && f->kind == PL_FILE_REGULAR &&
        (int64_t)o->size > before) {
        f->path = (char *)path; /* for the entry; file.c sets its own copy next */
        count(f, o->size - (uint64_t)before);
        f->path = NULL;
    }
    if (rc == 0) {
        unsigned set = LIVE | (o->write ? PL_PLAN_WRITE : PL_PLAN_READ);
        if (f->kind == PL_FILE_BLOCK) {
            set |= PL_PLAN_BLOCK | (o->write ? PL_PLAN_DESTROY : 0);
            real_device(path, i, o->write);
        } else if (o->create && !known && f->kind == PL_FILE_REGULAR) {
            set |= PL_PLAN_CREATE;
        }
        mark(i, set, 0, NULL);
    } else if (rc == PL_FS_REFUSED) {
        mark(i, PL_PLAN_REFUSED | (o->write ? PL_PLAN_WRITE : PL_PLAN_READ), 0, e->msg);
    } else if (rc == -ENOENT) {
        mark(i, PL_PLAN_MISSING | (o->write ? PL_PLAN_WRITE : PL_PLAN_READ), 0, NULL);
    }
    return rc;
}

static int file_entry(struct pl_file *f)
{
    if (f == last_f && f->path == last_path)
        return last_i;
    last_f = f;
    last_path = f->path;
    last_i = f->path ? entry_of(f->path) : -1;
    return last_i;
}

static void count(struct pl_file *f, uint64_t n)
{
    int i = file_entry(f);
    lock();
    S->written += n;
    if (i >= 0) {
        S->e[i].written += n;
        S->e[i].what |= PL_PLAN_WRITTEN;
    }
    unlock();
}

static int64_t plan_rw(struct pl_file *f, enum pl_op op, enum pl_how how, void *buf, uint64_t n,
                       uint64_t off)
{
    int64_t r = inner->rw(f, op, how, buf, n, off);
    if (op == PL_OP_WRITE && r > 0)
        count(f, (uint64_t)r);
    return r;
}

static int64_t plan_chars(struct pl_file *f, enum pl_op op, unsigned char *buf, uint64_t n,
                          int64_t at)
{
    int64_t r = inner->chars(f, op, buf, n, at);
    if (op == PL_OP_WRITE && r > 0)
        count(f, (uint64_t)r);
    return r;
}

/* A job at depth on a target with its own queue (target.h): a write counts when it is
   queued (the target's queued writes complete whole) or when done in the call. */
static int plan_queue(void *owner, struct pl_file *f, enum pl_op op, uint64_t off, uint64_t len,
                      int data_only, void *buf, void *tag, int64_t *res)
{
    int r = inner->queue(owner, f, op, off, len, data_only, buf, tag, res);
    if (op == PL_OP_WRITE && r == 1)
        count(f, len);
    else if (op == PL_OP_WRITE && r == 0 && *res > 0)
        count(f, (uint64_t)*res);
    return r;
}

static int plan_truncate(struct pl_file *f, uint64_t size)
{
    mark(file_entry(f), PL_PLAN_TRUNCATE, 0, NULL);
    return inner->truncate ? inner->truncate(f, size) : -ENOTSUP;
}

static int plan_remove(const char *path, char *why, size_t n)
{
    int i = entry_of(path);
    mirror(path, i);
    int rc = machine_rules(i, path, 1, why, n);
    if (rc == 0)
        rc = inner->remove(path, why, n);
    if (rc == 0)
        mark(i, PL_PLAN_REMOVE, LIVE, NULL);
    else if (rc == PL_FS_REFUSED)
        mark(i, PL_PLAN_REFUSED, 0, why);
    return rc;
}

static int plan_scratch(const char *path, char *why, size_t n)
{
    int i = entry_of(path);
    mirror(path, i);
    int rc = machine_rules(i, path, 1, why, n);
    if (rc == 0)
        rc = inner->scratch(path, why, n);
    if (rc == 0)
        mark(i, PL_PLAN_SCRATCH, 0, NULL);
    else if (rc == PL_FS_REFUSED)
        mark(i, PL_PLAN_REFUSED, 0, why);
    return rc;
}

static int plan_drop(struct pl_file *f, struct pl_error *e)
{
    if (f->kind == PL_FILE_BLOCK)
        need_root("drops a block device's buffers (BLKFLSBUF)");
    return inner->drop(f, e);
}

static int64_t plan_readahead(struct pl_file *f, int64_t set_kb, struct pl_error *e)
{
    if (set_kb >= 0 && f->kind == PL_FILE_BLOCK)
        need_root("sets a block device's readahead");
    return inner->readahead(f, set_kb, e);
}

static int plan_drop_all(struct pl_error *e)
{
    need_root("drops the machine's caches (p.drop_caches)");
    return inner->drop_all(e);
}

/* ---- directories, for a target without them ---- */

/* What the plan knows of an absolute name: 1 it exists (*dir: a directory), 0 it
   does not, -1 the table does not say (ask the machine). */
static int known_name(const char *abs, int *dir)
{
    int r = -1;
    lock();
    for (unsigned i = 0; i < S->n; i++) {
        if (strcmp(S->e[i].path, abs) == 0) {
            unsigned w = S->e[i].what;
            *dir = (w & MDIR) != 0;
            r = (w & LIVE) ? 1 : (w & GONE) ? 0 : -1;
            break;
        }
    }
    unlock();
    return r;
}

/* Whether path (absolute in abs) is a directory now: the plan's, else the machine's. */
static int is_dir(const char *path, const char *abs)
{
    int dir = 0, k = known_name(abs, &dir);
    if (k >= 0)
        return k == 1 && dir;
    struct stat st;
    char why[PL_PLAN_WHY];
    return pl_fs_stat(path, &st, why, sizeof why) == 0 && S_ISDIR(st.st_mode);
}

/* A live name of the plan directly inside the directory abs (made there, not found there). */
static int child_of(const struct pl_plan_entry *e, const char *abs)
{
    size_t n = strlen(abs);
    const char *rest = e->path + (n == 1 ? 0 : n);
    return (e->what & LIVE) && strncmp(e->path, abs, n) == 0 && rest[0] == '/' && rest[1] &&
           !strchr(rest + 1, '/');
}

struct listing {
    const char *abs;
    int (*fn)(void *ud, const char *name);
    void *ud;
    int count_only, count;
};

/* a name of the machine's directory, unless the plan removed it or lists it itself */
static int machine_name(void *ud, const char *name)
{
    struct listing *l = ud;
    char abs[PL_PLAN_PATH];
    snprintf(abs, sizeof abs, "%s/%s", strcmp(l->abs, "/") == 0 ? "" : l->abs, name);
    int dir, k = known_name(abs, &dir);
    if (k == 0)
        return 0;
    l->count++;
    return l->count_only ? 0 : l->fn(l->ud, name);
}

static int list_dir(const char *path, struct listing *l, char *why, size_t n)
{
    char abs[PL_PLAN_PATH];
    absolute(path, abs);
    l->abs = abs;
    int dir = 0, k = known_name(abs, &dir);
    if (k == 0)
        return -ENOENT;
    if (k == 1 && !dir)
        return -ENOTDIR;
    int i = entry_of(path);
    if (k == -1 || (i >= 0 && (S->e[i].what & PL_PLAN_EXISTED))) { /* the machine's */
        struct stat st;
        int rc = pl_fs_stat(path, &st, why, n);
        {
            if (rc == 0 && !S_ISDIR(st.st_mode))
                rc = -ENOTDIR;
            if (rc == 0) {
                int fd = pl_fs_open(path, O_RDONLY | O_DIRECTORY, 0, why, n);
                DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
                if (fd >= 0 && !d)
                    close(fd);
                if (!d)
                    return fd < 0 ? fd : -ENOMEM;
                struct dirent *de;
                while (rc == 0 && (de = readdir(d)) != NULL)
                    if (strcmp(de->d_name, ".") != 0 && strcmp(de->d_name, "..") != 0)
                        rc = machine_name(l, de->d_name);
                closedir(d);
            }
        }
        if (rc != 0)
            return rc;
    }
    for (unsigned j = 0; j < S->n; j++) { /* then what the plan made there */
        const struct pl_plan_entry *e = &S->e[j];
        if (!child_of(e, abs) || (e->what & PL_PLAN_EXISTED))
            continue;
        l->count++;
        if (!l->count_only) {
            int rc = l->fn(l->ud, strrchr(e->path, '/') + 1);
            if (rc)
                return rc;
        }
    }
    return 0;
}

static void parent_of(const char *abs, char *out)
{
    snprintf(out, PL_PLAN_PATH, "%s", abs);
    char *slash = strrchr(out, '/');
    if (slash == out)
        out[1] = '\0';
    else if (slash)
        *slash = '\0';
}

static int plan_mkdir(const char *path, unsigned mode, char *why, size_t n)
{
    (void)mode;
    int i = entry_of(path);
    if (pl_allow_check_dot(path, why, n) == PL_FS_REFUSED) {
        mark(i, PL_PLAN_REFUSED, 0, why);
        return PL_FS_REFUSED;
    }
    char abs[PL_PLAN_PATH], parent[PL_PLAN_PATH];
    absolute(path, abs);
    parent_of(abs, parent);
    int dir = 0, k = known_name(abs, &dir);
    struct stat st;
    if (k == 1 || (k == -1 && pl_fs_stat(path, &st, why, n) == 0))
        return -EEXIST;
    if (!is_dir(parent, parent))
        return -ENOENT;
    mark(i, PL_PLAN_MKDIR | LIVE | MDIR, 0, NULL);
    return 0;
}

static int plan_rmdir(const char *path, char *why, size_t n)
{
    int i = entry_of(path);
    if (pl_allow_check_dot(path, why, n) == PL_FS_REFUSED) {
        mark(i, PL_PLAN_REFUSED, 0, why);
        return PL_FS_REFUSED;
    }
    struct listing l = {.count_only = 1};
    int rc = list_dir(path, &l, why, n);
    if (rc < 0)
        return rc;
    if (l.count)
        return -ENOTEMPTY;
    char abs[PL_PLAN_PATH];
    absolute(path, abs);
    int dir = 0;
    mark(i, PL_PLAN_RMDIR | (known_name(abs, &dir) == -1 ? PL_PLAN_EXISTED : 0), LIVE | MDIR, NULL);
    return 0;
}

static int plan_stat(const char *path, struct stat *st, char *why, size_t n)
{
    char abs[PL_PLAN_PATH];
    absolute(path, abs);
    int dir = 0, k = known_name(abs, &dir);
    if (k == -1)
        return pl_fs_stat(path, st, why, n); /* the machine's, refused as it refuses */
    if (k == 0)
        return -ENOENT;
    memset(st, 0, sizeof *st);
    st->st_nlink = 1;
    if (dir) {
        st->st_mode = S_IFDIR | 0700;
        st->st_size = 4096;
        return 0;
    }
    struct pl_file t; /* a file of the model: its size there */
    int rc = look(&t, path);
    if (rc == 0) {
        st->st_mode = (t.kind == PL_FILE_BLOCK ? S_IFBLK : S_IFREG) | 0644;
        st->st_size = (off_t)inner->size(&t);
    }
    unlook(&t);
    return rc;
}

static int plan_readdir(const char *path, int (*fn)(void *ud, const char *name), void *ud,
                        char *why, size_t n)
{
    if (pl_allow_check(path, why, n) == PL_FS_REFUSED)
        return PL_FS_REFUSED;
    struct listing l = {.fn = fn, .ud = ud};
    return list_dir(path, &l, why, n);
}

/* ---- the watch on guard.c ---- */

static void watched(const char *path, enum pl_fs_watch_kind kind, int rc, int mem, const char *why)
{
    int i = entry_of(path);
    unsigned set = kind == PL_FS_WATCH_READ ? PL_PLAN_READ : PL_PLAN_WRITE;
    if (kind == PL_FS_WATCH_OUTPUT || kind == PL_FS_WATCH_OUTPUT_NEW)
        set |= PL_PLAN_OUTPUT | (kind == PL_FS_WATCH_OUTPUT_NEW ? PL_PLAN_CREATE : 0);
    if (rc == PL_FS_REFUSED)
        set |= PL_PLAN_REFUSED;
    else if (rc == -ENOENT)
        set |= PL_PLAN_MISSING;
    else if (rc < 0)
        return;
    mark(i, set, 0, rc == PL_FS_REFUSED ? why : NULL);
    if (mem >= 0 && i >= 0 && getpid() == parent && S->outfd[i] < 0)
        S->outfd[i] = fcntl(mem, F_DUPFD_CLOEXEC, 0);
}

int pl_plan_start(void)
{
    S = mmap(NULL, sizeof *S, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (S == MAP_FAILED) {
        S = NULL;
        return -errno;
    }
    if (!getcwd(cwd, sizeof cwd))
        snprintf(cwd, sizeof cwd, "/");
    parent = getpid();
    inner = pl_target;
    plan_ops = *inner;
    plan_ops.open = plan_open;
    plan_ops.close = plan_close;
    plan_ops.rw = plan_rw;
    plan_ops.chars = plan_chars;
    plan_ops.truncate = plan_truncate;
    plan_ops.remove = plan_remove;
    plan_ops.scratch = plan_scratch;
    plan_ops.drop = plan_drop;
    plan_ops.readahead = plan_readahead;
    plan_ops.drop_all = plan_drop_all;
    if (inner->queue)
        plan_ops.queue = plan_queue;
    if (!(inner->flags & PL_TARGET_DIRS)) {
        plan_ops.flags |= PL_TARGET_DIRS;
        plan_ops.mkdir = plan_mkdir;
        plan_ops.rmdir = plan_rmdir;
        plan_ops.stat = plan_stat;
        plan_ops.readdir = plan_readdir;
    }
    pl_target = &plan_ops;
    pl_fs_set_watch(watched);
    return 0;
}

int pl_plan_on(void)
{
    return S != NULL;
}

const struct pl_plan_entry *pl_plan_entries(unsigned *n, unsigned *dropped)
{
    *n = S ? S->n : 0;
    *dropped = S ? S->dropped : 0;
    if (!S)
        return NULL;
    for (unsigned i = 0; i < S->n; i++) {
        struct stat st;
        if (S->outfd[i] >= 0 && fstat(S->outfd[i], &st) == 0)
            S->e[i].output = st.st_size;
        S->e[i].what &= ~LIVE;
    }
    return S->e;
}

uint64_t pl_plan_written(void)
{
    return S ? S->written : 0;
}

const char *pl_plan_root(void)
{
    return S ? S->root : "";
}

void pl_plan_note_env(const char *name, int granted)
{
    if (!S)
        return;
    char cut[sizeof S->env[0].name]; /* as it is kept: a long name once, not once a call */
    snprintf(cut, sizeof cut, "%s", name);
    lock();
    unsigned i = 0;
    while (i < S->nenv && strcmp(S->env[i].name, cut) != 0)
        i++;
    if (i == S->nenv && i < MAX_ENV) {
        memcpy(S->env[i].name, cut, sizeof cut);
        S->nenv++;
    }
    if (i < S->nenv)
        S->env[i].what |= granted ? PL_PLAN_ENV_READ : PL_PLAN_ENV_REFUSED;
    unlock();
}

const struct pl_plan_env *pl_plan_env(unsigned *n)
{
    *n = S ? S->nenv : 0;
    return S ? S->env : NULL;
}

/* ---- the run's output ---- */

static int capture = -1, saved_out = -1, saved_err = -1;

int pl_plan_capture_begin(void)
{
    fflush(stdout);
    fflush(stderr);
    capture = memfd_create("platter-plan-run", MFD_CLOEXEC);
    if (capture < 0)
        return -errno;
    saved_out = fcntl(1, F_DUPFD_CLOEXEC, 3);
    saved_err = fcntl(2, F_DUPFD_CLOEXEC, 3);
    if (saved_out < 0 || saved_err < 0 || dup2(capture, 1) < 0 || dup2(capture, 2) < 0)
        return -errno;
    return 0;
}

int pl_plan_capture_end(char **text, size_t *len)
{
    *text = NULL;
    *len = 0;
    if (capture < 0)
        return -EINVAL;
    fflush(stdout);
    fflush(stderr);
    dup2(saved_out, 1);
    dup2(saved_err, 2);
    close(saved_out);
    close(saved_err);
    struct stat st;
    if (fstat(capture, &st) < 0)
        return -errno;
    char *buf = malloc((size_t)st.st_size + 1);
    if (!buf)
        return -ENOMEM;
    ssize_t got = pread(capture, buf, (size_t)st.st_size, 0);
    close(capture);
    capture = -1;
    buf[got > 0 ? got : 0] = '\0';
    *text = buf;
    *len = got > 0 ? (size_t)got : 0;
    return 0;
}
