/*
 * Unit tests of the sandbox's two layers, each in a forked child so that
 * neither the allow list nor the kernel restriction outlives its test:
 *   - the chokepoint (guard.c): paths resolved beneath a root's descriptor,
 *     so "..", symlinks and names that do not exist yet cannot lead out, and
 *     scratch entries that stay in the directory they were made in;
 *   - the kernel layer (sandbox.c): once applied, the raw system calls
 *     themselves (not platter's checks) are refused outside the roots, and
 *     execve and sockets are refused everywhere; the process sets up no
 *     io_uring ring of its own, and a ring from the ring broker does reads,
 *     writes and syncs only (docs/sandbox.md, "What io_uring can reach").
 * Layout of each test: D/cwd (the current directory, a root), D/tmp
 * ($TMPDIR, a root) and D/outside with a file `secret` and an empty `empty`.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "config.h"
#if PL_HAVE_URING
#include <arpa/inet.h>
#include <liburing.h>
#include <netinet/in.h>
#endif

#include "guard.h"
#if PL_HAVE_URING
#include "ringbroker.h"
#endif
#include "sandbox.h"
#include "sandbox_calls.h" /* the list the filter is made from */

static char top[256];

static void path_of(char *out, const char *rel)
{
    snprintf(out, PATH_MAX, "%s/%s", top, rel);
}

static int setup(void **state)
{
    (void)state;
    char p[PATH_MAX];
    snprintf(top, sizeof top, "/tmp/platter-test-sandbox.XXXXXX");
    assert_non_null(mkdtemp(top));
    const char *dirs[] = {"cwd", "tmp", "outside", "outside/empty", NULL};
    for (int i = 0; dirs[i]; i++) {
        path_of(p, dirs[i]);
        assert_int_equal(mkdir(p, 0755), 0);
    }
    path_of(p, "outside/secret");
    FILE *f = fopen(p, "w");
    assert_non_null(f);
    fputs("secret\n", f);
    fclose(f);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    char cmd[PATH_MAX + 16];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", top);
    return system(cmd) == 0 ? 0 : -1;
}

/* In the child: become a sandboxed platter started in D/cwd with TMPDIR=D/tmp. */
static void enter(void)
{
    char p[PATH_MAX];
    path_of(p, "cwd");
    if (chdir(p) < 0)
        _exit(90);
    path_of(p, "tmp");
    setenv("TMPDIR", p, 1);
    pl_allow_enable(1);
}

/* Run fn in a child; it returns the number of failed checks (0 = all held). */
static int in_child(int (*fn)(void))
{
    pid_t pid = fork();
    if (pid == 0) {
        enter();
        _exit(fn());
    }
    int status;
    waitpid(pid, &status, 0);
    return WIFEXITED(status) ? WEXITSTATUS(status) : 100 + WTERMSIG(status);
}

#define CHECK(cond)                                                                                \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            fprintf(stderr, "%s:%d: check failed: %s (errno %d)\n", __FILE__, __LINE__, #cond,     \
                    errno);                                                                        \
            bad++;                                                                                 \
        }                                                                                          \
    } while (0)

static int outside_intact(void)
{
    char p[PATH_MAX], buf[64] = "";
    struct stat st;
    int bad = 0;
    path_of(p, "outside/secret");
    FILE *f = fopen(p, "r");
    CHECK(f && fgets(buf, sizeof buf, f) && strcmp(buf, "secret\n") == 0);
    if (f)
        fclose(f);
    path_of(p, "outside/empty");
    CHECK(stat(p, &st) == 0 && S_ISDIR(st.st_mode));
    path_of(p, "outside/new");
    CHECK(lstat(p, &st) < 0 && errno == ENOENT);
    return bad;
}

static int chokepoint_checks(void)
{
    char why[1024], p[PATH_MAX];
    struct stat st;
    int bad = 0, fd;
    /* ".." folded as text: a directory that does not exist cannot be walked out of */
    CHECK(pl_fs_open("missing/../../outside/secret", O_RDONLY, 0, why, sizeof why) ==
          PL_FS_REFUSED);
    CHECK(strstr(why, "is outside the current directory") != NULL);
    CHECK(mkdir("D", 0700) == 0); /* ...nor one that does */
    CHECK(pl_fs_stat("D/../../outside/secret", &st, why, sizeof why) == PL_FS_REFUSED);
    CHECK(pl_fs_open("D/../../outside", O_RDONLY | O_DIRECTORY, 0, why, sizeof why) ==
          PL_FS_REFUSED);
    CHECK(pl_fs_remove_file("D/../../outside/secret", why, sizeof why) == PL_FS_REFUSED);
    CHECK(pl_fs_rmdir("D/../../outside/empty", why, sizeof why) == PL_FS_REFUSED);
    CHECK(pl_fs_mkdir("D/../../outside/new", 0700, why, sizeof why) == PL_FS_REFUSED);
    /* a symlink inside the root that leads out: the kernel refuses it beneath the root */
    path_of(p, "outside");
    CHECK(symlink(p, "ln") == 0);
    CHECK(pl_fs_open("ln/secret", O_RDONLY, 0, why, sizeof why) == PL_FS_REFUSED);
    CHECK(pl_fs_open("ln/new", O_RDWR | O_CREAT, 0644, why, sizeof why) == PL_FS_REFUSED);
    CHECK(pl_fs_mkdir("ln/new", 0700, why, sizeof why) == PL_FS_REFUSED);
    CHECK(pl_fs_remove_file("ln/secret", why, sizeof why) == PL_FS_REFUSED);
    CHECK(pl_fs_stat("ln", &st, why, sizeof why) == PL_FS_REFUSED);
    /* nor is the link itself removed: platter did not make it (neither the link
       nor where it leads is touched) */
    CHECK(pl_fs_remove_file("ln", why, sizeof why) == PL_FS_REFUSED);
    CHECK(strstr(why, "ln was not made by platter") != NULL);
    CHECK(lstat("ln", &st) == 0 && S_ISLNK(st.st_mode) && unlink("ln") == 0);
    /* a scratch entry whose directory does not exist is refused, not stored */
    CHECK(pl_scratch_add("later/../../outside/secret", why, sizeof why) == PL_FS_REFUSED);
    CHECK(pl_scratch_add("later/x", why, sizeof why) == -ENOENT);
    /* what is allowed still works, relative and absolute */
    fd = pl_fs_open("D/f", O_RDWR | O_CREAT, 0644, why, sizeof why);
    CHECK(fd >= 0);
    if (fd >= 0)
        close(fd);
    path_of(p, "tmp/t");
    fd = pl_fs_open(p, O_RDWR | O_CREAT, 0644, why, sizeof why);
    CHECK(fd >= 0);
    if (fd >= 0)
        close(fd);
    CHECK(pl_fs_stat("D/../D/f", &st, why, sizeof why) == 0 && S_ISREG(st.st_mode));
    /* a scratch entry is (directory, name): after its directory is renamed away and
       the name made again elsewhere, the cleanup removes the old entry only */
    CHECK(pl_scratch_add("D/f", why, sizeof why) == 0);
    CHECK(rename("D", "E") == 0 && mkdir("D", 0700) == 0);
    fd = open("D/f", O_RDWR | O_CREAT, 0644);
    CHECK(fd >= 0);
    if (fd >= 0)
        close(fd);
    pl_scratch_cleanup();
    CHECK(access("E/f", F_OK) < 0 && errno == ENOENT);
    CHECK(access("D/f", F_OK) == 0);
    return bad;
}

static void test_chokepoint(void **state)
{
    (void)state;
    assert_int_equal(in_child(chokepoint_checks), 0);
    assert_int_equal(outside_intact(), 0);
}

/*
 * Make every call of the filter's list, raw, with each argument -1: a pointer
 * that faults, a descriptor, pid or flag word no call takes. The kernel alone
 * answers EFAULT, EINVAL, EBADF, ESRCH and the like before doing anything; the
 * filter answers EPERM. vhangup takes no argument that would make it fail, so
 * it is not made. Returns how many gave EPERM; *made, how many were made; with
 * report, each answer other than EPERM is printed.
 */
static int refused_eperm(int *made, int report)
{
    int eperm = 0;
    *made = 0;
    for (int i = 0; refused_calls[i]; i++) {
        int nr = seccomp_syscall_resolve_name(refused_calls[i]);
        if (nr < 0 || strcmp(refused_calls[i], "vhangup") == 0)
            continue; /* not a call on this architecture, or no safe arguments */
        (*made)++;
        errno = 0;
        if (syscall(nr, -1L, -1L, -1L, -1L, -1L, -1L) == -1 && errno == EPERM)
            eperm++;
        else if (report)
            fprintf(stderr, "  %s: %s\n", refused_calls[i], errno ? strerror(errno) : "succeeded");
    }
    return eperm;
}

/* Without the filter, as root, almost none of them is EPERM: the check above can fail. */
static int unfiltered(void)
{
    int made, eperm = refused_eperm(&made, 0);
    return made >= 40 && eperm * 4 < made ? 0 : 1;
}

#if PL_HAVE_URING
/* One operation on the ring: its result (a -errno on failure). */
static int uring_one(struct io_uring *ring)
{
    struct io_uring_cqe *cqe;
    if (io_uring_submit(ring) != 1 || io_uring_wait_cqe(ring, &cqe) < 0)
        return -EIO;
    int res = cqe->res;
    io_uring_cqe_seen(ring, cqe);
    return res;
}

/* Under the kernel layer: the process sets up no ring of its own (the filter refuses
   io_uring_setup); a ring from the broker (ringbroker.c) reads and writes, and every
   other operation and registration is refused by its restrictions, even on a path
   Landlock would allow. The number of failed checks. */
static int uring_checks(void)
{
    struct io_uring ring;
    char p[PATH_MAX];
    int bad = 0;
    CHECK(io_uring_queue_init(4, &ring, 0) == -EPERM);
    CHECK(pl_ring_broker_on());
    struct io_uring_params par;
    memset(&par, 0, sizeof par);
    int rc = pl_ring_broker_ring(4, &par, &ring);
    CHECK(rc == 0);
    if (rc < 0)
        return bad;
    /* what it is for */
    int f = open("ring-data", O_RDWR | O_CREAT, 0644);
    CHECK(f >= 0 && write(f, "abc", 3) == 3);
    char buf[4] = "";
    io_uring_prep_read(io_uring_get_sqe(&ring), f, buf, 3, 0);
    CHECK(uring_one(&ring) == 3 && memcmp(buf, "abc", 3) == 0);
    io_uring_prep_write(io_uring_get_sqe(&ring), f, "xyz", 3, 3);
    CHECK(uring_one(&ring) == 3);
    io_uring_prep_fsync(io_uring_get_sqe(&ring), f, 0);
    CHECK(uring_one(&ring) == 0);
    CHECK(io_uring_register_files(&ring, &f, 1) == 0);
    /* nothing else, inside the roots or out */
    io_uring_prep_openat(io_uring_get_sqe(&ring), AT_FDCWD, "ring-data", O_RDONLY, 0);
    int res = uring_one(&ring);
    CHECK(res == -EACCES);
    if (res >= 0)
        close(res);
    path_of(p, "outside/secret");
    io_uring_prep_openat(io_uring_get_sqe(&ring), AT_FDCWD, p, O_RDONLY, 0);
    CHECK(uring_one(&ring) == -EACCES);
    io_uring_prep_mkdirat(io_uring_get_sqe(&ring), AT_FDCWD, "ring-dir", 0700);
    CHECK(uring_one(&ring) == -EACCES);
    io_uring_prep_unlinkat(io_uring_get_sqe(&ring), AT_FDCWD, "ring-data", 0);
    CHECK(uring_one(&ring) == -EACCES);
    io_uring_prep_socket(io_uring_get_sqe(&ring), AF_UNIX, SOCK_STREAM, 0, 0);
    res = uring_one(&ring);
    CHECK(res == -EACCES);
    if (res >= 0)
        close(res);
    CHECK(io_uring_register_eventfd(&ring, 0) == -EACCES);
    io_uring_queue_exit(&ring);
    close(f);
    CHECK(unlink("ring-data") == 0);
    return bad;
}
#endif

static int kernel_checks(void)
{
    char why[512], p[PATH_MAX];
    int bad = 0;
    /* a process from before the kernel layer (as the result keeper is): outside the domain */
    int hold[2];
    if (pipe(hold) < 0)
        return 91;
    pid_t before = fork();
    if (before == 0) {
        char c;
        close(hold[1]);
        _exit(read(hold[0], &c, 1) < 0);
    }
    close(hold[0]);
    struct pl_sandbox_opts o = {0, 0, NULL};
    int rc = pl_sandbox_apply(&o, why, sizeof why);
    if (rc == 0) {
        close(hold[1]);
        waitpid(before, NULL, 0);
        return 77; /* no Landlock or seccomp here: nothing to test */
    }
    CHECK(rc == 1);
    CHECK(strcmp(pl_sandbox_mode(), "kernel") == 0);
    /* the raw calls, bypassing platter's own checks */
    path_of(p, "outside/secret");
    CHECK(open(p, O_RDONLY) < 0 && errno == EACCES);
    CHECK(open(p, O_WRONLY | O_TRUNC) < 0 && errno == EACCES);
    CHECK(unlink(p) < 0 && errno == EACCES);
    CHECK(truncate(p, 0) < 0 && errno == EACCES);
    path_of(p, "outside/new");
    CHECK(open(p, O_WRONLY | O_CREAT, 0644) < 0 && errno == EACCES);
    CHECK(mkdir(p, 0700) < 0 && errno == EACCES);
    path_of(p, "outside/empty");
    CHECK(rmdir(p) < 0 && errno == EACCES);
    path_of(p, "outside");
    CHECK(opendir(p) == NULL && errno == EACCES);
    CHECK(open("/etc/hostname", O_RDONLY) < 0 && errno == EACCES);
    /* read-only facts stay readable, but not writable */
    CHECK(access("/proc/self/status", R_OK) == 0);
    int fd = open("/proc/self/status", O_RDONLY);
    CHECK(fd >= 0);
    if (fd >= 0)
        close(fd);
    CHECK(open("/proc/sys/vm/drop_caches", O_WRONLY) < 0 && errno == EACCES);
    /* the roots work */
    fd = open("inside", O_RDWR | O_CREAT, 0644);
    CHECK(fd >= 0 && write(fd, "x", 1) == 1);
    if (fd >= 0)
        close(fd);
    CHECK(unlink("inside") == 0);
    path_of(p, "tmp/t2");
    fd = open(p, O_RDWR | O_CREAT, 0644);
    CHECK(fd >= 0);
    if (fd >= 0)
        close(fd);
    /* seccomp: no programs, no sockets */
    char *argv[] = {"/bin/true", NULL};
    CHECK(execve("/bin/true", argv, NULL) < 0 && (errno == EPERM || errno == EACCES));
    CHECK(socket(AF_INET, SOCK_STREAM, 0) < 0 && errno == EPERM);
#if PL_HAVE_URING
    bad += uring_checks();
#endif
    /* pidfd_getfd (the broker's rings come that way) reaches no process outside the domain */
    int pidfd = (int)syscall(SYS_pidfd_open, before, 0);
    CHECK(pidfd >= 0);
    errno = 0;
    CHECK(pidfd >= 0 && syscall(SYS_pidfd_getfd, pidfd, 0, 0) < 0 && errno == EPERM);
    close(hold[1]); /* the process from before ends */
    waitpid(before, NULL, 0);
    /* every call of the list, not only the first and the last few (pl_refuse_calls) */
    int made, eperm = refused_eperm(&made, 1);
    CHECK(made >= 40 && eperm == made);
    /* a forked worker inherits both */
    pid_t pid = fork();
    if (pid == 0) {
        path_of(p, "outside/secret");
        _exit(open(p, O_RDONLY) < 0 && errno == EACCES && execve("/bin/true", argv, NULL) < 0 ? 0
                                                                                              : 1);
    }
    int status;
    waitpid(pid, &status, 0);
    CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    return bad;
}

static void test_kernel_layer(void **state)
{
    (void)state;
    int rc = in_child(kernel_checks);
    if (rc == 77)
        skip();
    assert_int_equal(rc, 0);
    assert_int_equal(outside_intact(), 0);
}

static int checks_only(void)
{
    char why[512];
    int bad = 0;
    struct pl_sandbox_opts o = {0, 1, NULL};
    CHECK(pl_sandbox_apply(&o, why, sizeof why) == 0);
    CHECK(strcmp(pl_sandbox_mode(), "checks-only") == 0);
    CHECK(strstr(why, "PLATTER_SANDBOX=checks") != NULL);
    CHECK(open("/etc/hostname", O_RDONLY) >= 0 || errno != EACCES); /* not restricted */
    return bad;
}

static void test_checks_only(void **state)
{
    (void)state;
    assert_int_equal(in_child(checks_only), 0);
}

static void test_refused_unfiltered(void **state)
{
    (void)state;
    if (geteuid() != 0)
        skip(); /* without capabilities, mount and the rest are EPERM anyway */
    assert_int_equal(in_child(unfiltered), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_chokepoint, setup, teardown),
        cmocka_unit_test_setup_teardown(test_kernel_layer, setup, teardown),
        cmocka_unit_test_setup_teardown(test_checks_only, setup, teardown),
        cmocka_unit_test_setup_teardown(test_refused_unfiltered, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
