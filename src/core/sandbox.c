/*
 * Landlock and seccomp, through their kernel interfaces and libseccomp.
 *
 * Landlock: one ruleset that handles every file system right this kernel
 * knows (and TCP bind/connect, and signals and abstract sockets outside the
 * process's own domain), with rules for the allowed roots, the read-only
 * trees and the readahead setting of each root's disk. Its rights are
 * checked when a path is opened, never per read or write.
 *
 * seccomp: everything is allowed but calls no workload needs (running
 * programs, tracing, mounting, loading kernel code...), which fail with
 * EPERM. The rules look at the call number only, so the kernel's action
 * cache answers the allowed calls without running the filter.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <linux/landlock.h>
#include <seccomp.h>

#include "config.h"
#include "device.h"
#include "guard.h"
#include "lazylib.h"
#include "sandbox.h"
#if PL_HAVE_URING
#include "ringbroker.h"
#endif

/* Rights and fields newer than the kernel headers Debian 12 builds with. */
#define LL_FS_TRUNCATE (1ULL << 14) /* ABI 3 */
#define LL_NET_BIND_TCP (1ULL << 0) /* ABI 4 */
#define LL_NET_CONNECT_TCP (1ULL << 1)
#define LL_SCOPE_ABSTRACT_UNIX (1ULL << 0) /* ABI 6 */
#define LL_SCOPE_SIGNAL (1ULL << 1)

struct ll_ruleset_attr {
    uint64_t handled_access_fs;
    uint64_t handled_access_net;
    uint64_t scoped;
};

struct ll_path_beneath {
    uint64_t allowed_access;
    int32_t parent_fd;
} __attribute__((packed));

#define FS_READ (LANDLOCK_ACCESS_FS_READ_FILE | LANDLOCK_ACCESS_FS_READ_DIR)
#define FS_FILE_RW (LANDLOCK_ACCESS_FS_READ_FILE | LANDLOCK_ACCESS_FS_WRITE_FILE)

static const char *mode = "off";

const char *pl_sandbox_mode(void)
{
    return mode;
}

static int landlock_abi(void)
{
    long v = syscall(SYS_landlock_create_ruleset, NULL, 0, LANDLOCK_CREATE_RULESET_VERSION);
    return v < 0 ? -errno : (int)v;
}

void pl_sandbox_support(char *buf, size_t len)
{
    int abi = landlock_abi();
    int sec = prctl(PR_GET_SECCOMP, 0, 0, 0, 0) >= 0;
    if (abi > 0)
        snprintf(buf, len, "Landlock ABI %d, %s", abi, sec ? "seccomp filter" : "no seccomp");
    else
        snprintf(buf, len, "no Landlock (%s), %s",
                 abi == -EOPNOTSUPP ? "disabled at boot" : "not in this kernel",
                 sec ? "seccomp filter" : "no seccomp");
}

struct rules {
    int fd;
    uint64_t fs_all; /* every right the ruleset handles */
    int destroy;
    int err; /* first failure, -errno */
};

static void add_rule(struct rules *r, int fd, uint64_t access)
{
    struct ll_path_beneath pb = {access & r->fs_all, fd};
    if (pb.allowed_access &&
        syscall(SYS_landlock_add_rule, r->fd, LANDLOCK_RULE_PATH_BENEATH, &pb, 0) < 0 &&
        r->err == 0)
        r->err = -errno;
}

static void add_path(struct rules *r, const char *path, uint64_t access)
{
    int fd = open(path, O_PATH | O_CLOEXEC);
    if (fd < 0)
        return; /* not on this machine: nothing to grant */
    struct stat st;
    if (fstat(fd, &st) == 0 && !S_ISDIR(st.st_mode))
        access &= LL_FS_TRUNCATE | FS_FILE_RW | LANDLOCK_ACCESS_FS_EXECUTE;
    add_rule(r, fd, access);
    close(fd);
}

/* The readahead setting of the disk a root lives on (or is), which f:readahead
   may change and the exit puts back. */
static void add_readahead(struct rules *r, dev_t dev)
{
    char q[PATH_MAX], knob[PATH_MAX + 32];
    if (pl_device_queue_dir(major(dev), minor(dev), q, sizeof q) < 0)
        return;
    snprintf(knob, sizeof knob, "%s/read_ahead_kb", q);
    add_path(r, knob, FS_FILE_RW);
}

static void add_root(void *ud, const struct pl_allow_root *a)
{
    struct rules *r = ud;
    uint64_t tree = FS_READ | LANDLOCK_ACCESS_FS_WRITE_FILE | LL_FS_TRUNCATE |
                    LANDLOCK_ACCESS_FS_REMOVE_DIR | LANDLOCK_ACCESS_FS_REMOVE_FILE |
                    LANDLOCK_ACCESS_FS_MAKE_DIR | LANDLOCK_ACCESS_FS_MAKE_REG |
                    LANDLOCK_ACCESS_FS_MAKE_SYM | LANDLOCK_ACCESS_FS_REFER;
    struct stat st;
    if (!a->name) { /* a directory: its tree */
        add_rule(r, a->fd, tree);
        if (fstat(a->fd, &st) == 0)
            add_readahead(r, st.st_dev);
        return;
    }
    if (!a->exists) {
        /*
         * A name that does not exist yet: Landlock can only name what exists,
         * so the kernel layer grants making and using regular files in its
         * directory; platter's own check still allows only that one name.
         */
        add_rule(r, a->fd,
                 FS_FILE_RW | LL_FS_TRUNCATE | LANDLOCK_ACCESS_FS_MAKE_REG |
                     LANDLOCK_ACCESS_FS_REMOVE_FILE);
        if (fstat(a->fd, &st) == 0)
            add_readahead(r, st.st_dev);
        return;
    }
    int fd = openat(a->fd, a->name, O_PATH | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0 || fstat(fd, &st) < 0) {
        if (fd >= 0)
            close(fd);
        return;
    }
    uint64_t access = LANDLOCK_ACCESS_FS_READ_FILE;
    if (!S_ISBLK(st.st_mode) || r->destroy) /* a device is written only with --destroy */
        access |= LANDLOCK_ACCESS_FS_WRITE_FILE | LL_FS_TRUNCATE;
    add_rule(r, fd, access);
    add_readahead(r, S_ISBLK(st.st_mode) ? st.st_rdev : st.st_dev);
    close(fd);
    /* a named regular file may be removed (a scratch file left by an earlier run):
       Landlock grants that on the directory only (platter's check names the file) */
    if (S_ISREG(st.st_mode))
        add_rule(r, a->fd, LANDLOCK_ACCESS_FS_REMOVE_FILE);
}

/* A library platter loads on first use (lazylib.h): that one file, to read and map. */
static void add_lazy_file(void *ud, const char *path)
{
    add_path(ud, path, LANDLOCK_ACCESS_FS_READ_FILE);
}

static int apply_landlock(const struct pl_sandbox_opts *o, char *why, size_t len)
{
    int abi = landlock_abi();
    if (abi <= 0) {
        snprintf(why, len, "Landlock is %s",
                 abi == -EOPNOTSUPP ? "disabled at boot" : "not available in this kernel");
        return 0;
    }
    struct ll_ruleset_attr attr = {0};
    attr.handled_access_fs = (LANDLOCK_ACCESS_FS_MAKE_SYM << 1) - 1; /* ABI 1 */
    if (abi >= 2)
        attr.handled_access_fs |= LANDLOCK_ACCESS_FS_REFER;
    if (abi >= 3)
        attr.handled_access_fs |= LL_FS_TRUNCATE;
    if (abi >= 4)
        attr.handled_access_net = LL_NET_BIND_TCP | LL_NET_CONNECT_TCP;
    if (abi >= 6)
        attr.scoped = LL_SCOPE_ABSTRACT_UNIX | LL_SCOPE_SIGNAL;
    size_t size = abi >= 6 ? 24 : abi >= 4 ? 16 : 8;
    struct rules r = {-1, attr.handled_access_fs, o->destroy, 0};
    r.fd = (int)syscall(SYS_landlock_create_ruleset, &attr, size, 0);
    if (r.fd < 0) {
        int err = errno;
        snprintf(why, len, "Landlock: cannot make a ruleset: %s", strerror(err));
        return -err;
    }
    pl_allow_roots(add_root, &r);
    add_path(&r, "/proc", FS_READ);
    add_path(&r, "/sys", FS_READ);
    add_path(&r, "/dev/null", FS_FILE_RW);    /* the simulated disk's placeholder */
    add_path(&r, "/etc/localtime", FS_READ);  /* os.date */
    add_path(&r, "/etc/os-release", FS_READ); /* the result record's environment */
    add_path(&r, "/usr/share/zoneinfo", FS_READ);
    pl_lazy_files(add_lazy_file, &r);
    for (int i = 0; o->read_only && o->read_only[i]; i++)
        add_path(&r, o->read_only[i], FS_READ);
    if (r.err == 0 && prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0)
        r.err = -errno;
    if (r.err == 0 && syscall(SYS_landlock_restrict_self, r.fd, 0) < 0)
        r.err = -errno;
    close(r.fd);
    if (r.err) {
        snprintf(why, len, "Landlock: %s", strerror(-r.err));
        return r.err;
    }
    return 1;
}

#include "sandbox_calls.h"

static int apply_seccomp(char *why, size_t len, int no_rings)
{
    scmp_filter_ctx ctx = seccomp_init(SCMP_ACT_ALLOW);
    /* every thread, not just this one: an MPI run has Open MPI's (docs/sandbox.md) */
    if (ctx && seccomp_attr_set(ctx, SCMP_FLTATR_CTL_TSYNC, 1) != 0) {
        seccomp_release(ctx);
        ctx = NULL;
    }
    if (!ctx) {
        snprintf(why, len, "seccomp: cannot make a filter");
        return 0;
    }
    int rc = pl_refuse_calls(ctx);
    /* Every ring comes from the broker, restricted (ringbroker.c): none set up here, and
       pidfd_getfd is how a ring gets here from it. Landlock confines pidfd_getfd to the
       processes of this domain (platter's workers and the broker); without the broker it
       has no use, and is refused. */
    if (rc == 0)
        rc = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EPERM),
                              no_rings ? SCMP_SYS(io_uring_setup) : SCMP_SYS(pidfd_getfd), 0);
    if (rc == 0)
        rc = seccomp_load(ctx);
    seccomp_release(ctx);
    if (rc == -EINVAL || rc == -ENOSYS || rc == -EOPNOTSUPP) {
        snprintf(why, len, "seccomp filters are not available: %s", strerror(-rc));
        return 0;
    }
    if (rc < 0) {
        snprintf(why, len, "seccomp: %s", strerror(-rc));
        return rc;
    }
    return 1;
}

int pl_sandbox_apply(const struct pl_sandbox_opts *o, char *why, size_t len)
{
    why[0] = '\0';
    mode = "checks-only";
    if (o->checks_only) {
        snprintf(why, len, "PLATTER_SANDBOX=checks");
        return 0;
    }
    char lw[256] = "", sw[256] = "";
    int ll = apply_landlock(o, lw, sizeof lw);
    /* the ring broker first, while the process may still fork an unfiltered helper; without
       one (no io_uring in this build, or the fork failed) rings are set up here as before */
    int no_rings = 0;
#if PL_HAVE_URING
    no_rings = ll == 1 && pl_ring_broker_start() == 0;
#endif
    int sc = ll < 0 ? 0 : apply_seccomp(sw, sizeof sw, no_rings);
    snprintf(why, len, "%s%s%s", lw, lw[0] && sw[0] ? "; " : "", sw);
    if (ll < 0)
        return ll;
    if (sc < 0)
        return sc;
    if (ll == 1 && sc == 1)
        mode = "kernel";
    return ll == 1 && sc == 1;
}
