/*
 * The ring broker (ringbroker.h).
 *
 * Why a process: a seccomp filter sees system calls, and io_uring's
 * operations are not system calls, so a ring can make the sockets the filter
 * refuses (IORING_OP_SOCKET) and connect them. io_uring can restrict a ring
 * to a list of operations and registrations, but only while the ring is still
 * disabled, that is, only by whoever sets it up. Code that got past the Lua
 * layer could set up a ring of its own and never restrict it. So in a
 * sandboxed run the process that runs the script sets up no ring at all (the
 * filter refuses io_uring_setup): each ring comes from this broker, forked
 * before the kernel layer went on, already restricted.
 *
 * Protocol, on a SOCK_SEQPACKET pair made at the start: a request is one
 * message {entries, flags, sq_thread_idle} carrying a fresh socket of the
 * requester's (SCM_RIGHTS); the answer goes back on that socket, one message
 * {err, io_uring_params, the ring's descriptor number in the broker}. The
 * kernel does not pass io_uring descriptors over sockets, so the requester
 * copies it with pidfd_getfd(2) from the broker (a process of its own
 * Landlock domain: the sandbox lets it do that to no process outside), then
 * closes its socket; the broker closes its copy when it sees that. A socket
 * per request because forked workers share the broker's socket and each
 * answer must reach the one who asked.
 *
 * The broker runs no script and no Lua. It closes every descriptor but its
 * socket, takes only the setup flags platter's engine uses, makes each ring
 * with IORING_SETUP_R_DISABLED, restricts it, sends it and closes its own
 * copy. It ends when the last copy of its socket closes (platter and every
 * worker gone) or when platter dies.
 */
#include <errno.h>
#include <fcntl.h>
#include <liburing.h>
#include <seccomp.h>
#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "ringbroker.h"
#include "sandbox_calls.h"
#include "spawn.h"

struct request {
    uint32_t entries, flags, sq_thread_idle;
};

struct answer {
    int32_t err;
    int32_t fd; /* the ring's descriptor, in the broker */
    struct io_uring_params p;
};

/* The setup flags a request may carry (engine_uring.c's ring_init). */
#define ALLOWED_FLAGS                                                                              \
    (IORING_SETUP_IOPOLL | IORING_SETUP_SQPOLL | IORING_SETUP_SINGLE_ISSUER |                      \
     IORING_SETUP_DEFER_TASKRUN | IORING_SETUP_COOP_TASKRUN)

static int broker_fd = -1, broker_pidfd = -1;

/* Send buf with fd attached (fd < 0: none). 0 or -errno. */
static int send_fd(int sock, const void *buf, size_t len, int fd)
{
    union {
        char b[CMSG_SPACE(sizeof(int))];
        struct cmsghdr align;
    } c;
    struct iovec iov = {(void *)buf, len};
    struct msghdr m = {.msg_iov = &iov, .msg_iovlen = 1};
    if (fd >= 0) {
        memset(&c, 0, sizeof c);
        m.msg_control = c.b;
        m.msg_controllen = sizeof c.b;
        struct cmsghdr *h = CMSG_FIRSTHDR(&m);
        h->cmsg_level = SOL_SOCKET;
        h->cmsg_type = SCM_RIGHTS;
        h->cmsg_len = CMSG_LEN(sizeof(int));
        memcpy(CMSG_DATA(h), &fd, sizeof fd);
    }
    ssize_t n;
    do
        n = sendmsg(sock, &m, MSG_NOSIGNAL);
    while (n < 0 && errno == EINTR);
    return n == (ssize_t)len ? 0 : n < 0 ? -errno : -EIO;
}

/* Receive exactly len bytes and at most one descriptor (*fd, -1 when none).
   0, -EPIPE at the end of the stream, or -errno. */
static int recv_fd(int sock, void *buf, size_t len, int *fd)
{
    union {
        char b[CMSG_SPACE(sizeof(int))];
        struct cmsghdr align;
    } c;
    struct iovec iov = {buf, len};
    struct msghdr m = {
        .msg_iov = &iov, .msg_iovlen = 1, .msg_control = c.b, .msg_controllen = sizeof c.b};
    *fd = -1;
    ssize_t n;
    do
        n = recvmsg(sock, &m, MSG_CMSG_CLOEXEC);
    while (n < 0 && errno == EINTR);
    if (n < 0)
        return -errno;
    for (struct cmsghdr *h = CMSG_FIRSTHDR(&m); h; h = CMSG_NXTHDR(&m, h))
        if (h->cmsg_level == SOL_SOCKET && h->cmsg_type == SCM_RIGHTS &&
            h->cmsg_len == CMSG_LEN(sizeof(int)))
            memcpy(fd, CMSG_DATA(h), sizeof *fd);
    if (n == 0)
        return -EPIPE;
    if ((size_t)n != len || (m.msg_flags & (MSG_TRUNC | MSG_CTRUNC))) {
        if (*fd >= 0)
            close(*fd);
        *fd = -1;
        return -EPROTO;
    }
    return 0;
}

/* The operations and registrations platter's io_uring engine uses, nothing else. */
static int restrict_ring(int fd)
{
    static const unsigned char ops[] = {
        IORING_OP_NOP,  IORING_OP_READV, IORING_OP_WRITEV,     IORING_OP_FSYNC,
        IORING_OP_READ, IORING_OP_WRITE, IORING_OP_READ_FIXED, IORING_OP_WRITE_FIXED,
    };
    static const unsigned char regs[] = {
        IORING_REGISTER_BUFFERS, IORING_UNREGISTER_BUFFERS,    IORING_REGISTER_FILES,
        IORING_UNREGISTER_FILES, IORING_REGISTER_FILES_UPDATE, IORING_REGISTER_PROBE,
    };
    struct io_uring_restriction r[sizeof ops + sizeof regs + 1];
    unsigned n = 0;
    memset(r, 0, sizeof r);
    for (unsigned i = 0; i < sizeof ops; i++) {
        r[n].opcode = IORING_RESTRICTION_SQE_OP;
        r[n++].sqe_op = ops[i];
    }
    for (unsigned i = 0; i < sizeof regs; i++) {
        r[n].opcode = IORING_RESTRICTION_REGISTER_OP;
        r[n++].register_op = regs[i];
    }
    r[n].opcode = IORING_RESTRICTION_SQE_FLAGS_ALLOWED;
    r[n++].sqe_flags = IOSQE_FIXED_FILE;
    if (syscall(__NR_io_uring_register, fd, IORING_REGISTER_RESTRICTIONS, r, n) < 0)
        return -errno;
    return 0;
}

static int make_ring(const struct request *rq, struct io_uring_params *p)
{
    if (rq->entries == 0 || rq->entries > 32768 || (rq->flags & ~ALLOWED_FLAGS))
        return -EINVAL;
    memset(p, 0, sizeof *p);
    p->flags = rq->flags | IORING_SETUP_R_DISABLED;
    p->sq_thread_idle = rq->sq_thread_idle;
    int fd = (int)syscall(__NR_io_uring_setup, rq->entries, p);
    if (fd < 0)
        return -errno;
    int rc = restrict_ring(fd);
    if (rc < 0) {
        close(fd);
        return rc;
    }
    return fd;
}

/* The broker needs no file and no network: the sandbox's list, and the calls that
   open or name files, are refused (best effort: it makes rings either way). */
static void confine(void)
{
    static const char *const more[] = {
        "open",  "openat",  "openat2",  "creat",       "socket",   "connect",
        "bind",  "unlink",  "unlinkat", "rename",      "renameat", "renameat2",
        "mkdir", "mkdirat", "truncate", "pidfd_getfd", NULL};
    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0)
        return;
    scmp_filter_ctx ctx = seccomp_init(SCMP_ACT_ALLOW);
    if (!ctx)
        return;
    int rc = pl_refuse_calls(ctx);
    for (int i = 0; more[i] && rc == 0; i++) {
        int nr = seccomp_syscall_resolve_name(more[i]);
        if (nr != __NR_SCMP_ERROR)
            rc = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EPERM), nr, 0);
    }
    if (rc == 0)
        seccomp_load(ctx);
    seccomp_release(ctx);
}

static void broker(int sock, void *arg)
{
    pid_t parent = *(const pid_t *)arg;
    signal(SIGINT, SIG_IGN); /* a Ctrl-C is platter's to handle; the broker ends with it */
    signal(SIGTERM, SIG_DFL);
    signal(SIGHUP, SIG_IGN);
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != parent)
        _exit(0);
    /* every descriptor but the socket: nothing of platter's stays open here */
    if (sock > 0)
        syscall(SYS_close_range, 0u, (unsigned)sock - 1, 0u);
    syscall(SYS_close_range, (unsigned)sock + 1, ~0u, 0u);
    confine();
    for (;;) {
        struct request rq;
        int reply;
        int rc = recv_fd(sock, &rq, sizeof rq, &reply);
        if (rc < 0 && rc != -EPROTO)
            _exit(0); /* the end of the stream, or the socket failed */
        if (reply < 0)
            continue; /* a malformed request (recv_fd closed its socket), or no socket */
        struct answer a;
        memset(&a, 0, sizeof a);
        int ring = make_ring(&rq, &a.p);
        a.err = ring < 0 ? -ring : 0;
        a.fd = ring;
        if (send_fd(reply, &a, sizeof a, -1) == 0 && ring >= 0) {
            char c; /* until the requester has its copy and closes its end */
            while (recv(reply, &c, 1, 0) < 0 && errno == EINTR)
                ;
        }
        if (ring >= 0)
            close(ring);
        close(reply);
    }
}

int pl_ring_broker_start(void)
{
    if (broker_fd >= 0)
        return 0;
    pid_t parent = getpid(), pid;
    int fd;
    int rc = pl_spawn_helper(SOCK_SEQPACKET, broker, &parent, &fd, &pid);
    if (rc < 0)
        return rc;
    int pidfd = (int)syscall(SYS_pidfd_open, pid, 0);
    if (pidfd < 0) { /* closing the socket ends the broker */
        int err = errno;
        close(fd);
        return -err;
    }
    fcntl(pidfd, F_SETFD, FD_CLOEXEC);
    broker_fd = fd;
    broker_pidfd = pidfd;
    return 0;
}

int pl_ring_broker_on(void)
{
    return broker_fd >= 0;
}

/* A disabled ring from the broker (IORING_SETUP_R_DISABLED is added to p->flags):
   its descriptor, with *p as the kernel filled it in, or -errno. */
static int ring_from_broker(unsigned entries, struct io_uring_params *p)
{
    if (broker_fd < 0)
        return -ENOSYS;
    int sv[2];
    if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv) < 0)
        return -errno;
    struct request rq = {entries, p->flags, p->sq_thread_idle};
    int rc = send_fd(broker_fd, &rq, sizeof rq, sv[1]);
    close(sv[1]);
    struct answer a;
    int none = -1, ring = -1;
    if (rc == 0)
        rc = recv_fd(sv[0], &a, sizeof a, &none);
    if (none >= 0)
        close(none); /* the broker sends none */
    if (rc == -EPIPE)
        rc = -ECONNRESET; /* the broker is gone */
    if (rc == 0 && a.err)
        rc = -a.err;
    if (rc == 0 && (ring = (int)syscall(SYS_pidfd_getfd, broker_pidfd, a.fd, 0)) < 0)
        rc = -errno;
    close(sv[0]); /* the broker may close its copy now */
    if (rc < 0)
        return rc;
    *p = a.p;
    return ring;
}

int pl_ring_broker_ring(unsigned entries, struct io_uring_params *p, struct io_uring *ring)
{
    int fd = ring_from_broker(entries, p);
    if (fd < 0)
        return fd;
    int rc = io_uring_queue_mmap(fd, p, ring);
    if (rc < 0) {
        close(fd);
        return rc;
    }
    for (unsigned i = 0; i < ring->sq.ring_entries; i++)
        ring->sq.array[i] = i; /* what io_uring_queue_init_params does after the mmap */
    ring->features = p->features;
    /* (liburing 2.3 declares io_uring_enable_rings but does not export it) */
    if (syscall(__NR_io_uring_register, fd, IORING_REGISTER_ENABLE_RINGS, NULL, 0) < 0) {
        rc = -errno;
        io_uring_queue_exit(ring);
    }
    return rc;
}
