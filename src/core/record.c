/*
 * The result files' writer and its keeper process. The keeper reads
 * requests {op, kind, length, text} from a socket. A write is answered with
 * an errno (0 for done). The keeper also holds, for each kind, the record as
 * far as the run got (a head, the finished phases' parts, a tail, which the
 * recorder sends as phases finish, unanswered): should platter end without
 * writing that kind itself (a second Ctrl-C ends it at once, or it was
 * killed), the keeper writes what it holds when the socket closes, that is,
 * when platter and every worker it forked have exited. It ignores SIGINT,
 * SIGTERM and SIGHUP, so a Ctrl-C at the terminal cannot cut a write short.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/random.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

#include "out.h"
#include "record.h"
#include "spawn.h"

static char *given[PL_RECORD_KINDS];
static char *absolute[PL_RECORD_KINDS];
static int keeper_fd = -1;
static pid_t keeper_owner;                /* the process that started it, and talks to it */
static volatile sig_atomic_t keeper_busy; /* a request is under way on the socket */

static char *make_absolute(const char *path)
{
    char cwd[PATH_MAX], *out;
    if (path[0] == '/' || !getcwd(cwd, sizeof cwd))
        return strdup(path);
    size_t n = strlen(cwd) + strlen(path) + 2;
    out = malloc(n);
    if (out)
        snprintf(out, n, "%s/%s", cwd, path);
    return out;
}

int pl_record_paths(const char *json, const char *csv)
{
    const char *p[PL_RECORD_KINDS] = {json, csv};
    for (int k = 0; k < PL_RECORD_KINDS; k++) {
        free(given[k]);
        free(absolute[k]);
        given[k] = absolute[k] = NULL;
        if (!p[k])
            continue;
        given[k] = strdup(p[k]);
        absolute[k] = make_absolute(p[k]);
        if (!given[k] || !absolute[k])
            return -ENOMEM;
    }
    return 0;
}

/* A descriptor of the process by name: written to where it points, not replaced. */
static int fd_name(const char *path)
{
    return strcmp(path, "/dev/stdout") == 0 || strcmp(path, "/dev/stderr") == 0 ||
           strncmp(path, "/dev/fd/", 8) == 0 || strncmp(path, "/proc/self/fd/", 14) == 0 ||
           strncmp(path, "/proc/thread-self/fd/", 21) == 0;
}

/* 1 or 2 when path names platter's stdout or stderr, which the keeper shares: a
   write there goes on from where platter's output ended (a new open of a file
   behind them would start at its beginning, over that output); else -1. */
static int std_fd(const char *path)
{
    static const char *const names[2][3] = {{"/dev/stdout", "/dev/fd/1", "/proc/self/fd/1"},
                                            {"/dev/stderr", "/dev/fd/2", "/proc/self/fd/2"}};
    for (int k = 0; k < 2; k++)
        for (int i = 0; i < 3; i++)
            if (strcmp(path, names[k][i]) == 0)
                return k + 1;
    return -1;
}

enum { REPLACE, STREAM };

/*
 * Where a result at path goes. A regular file, or a name not there yet, is
 * replaced through a temporary file beside it; through a symlink, beside the
 * file the link names, so the link stays. A character device or a FIFO
 * (/dev/null, a named pipe) and a descriptor (/dev/stdout, /dev/fd/N) are
 * written to in place, appending. Anything else is refused, a block device
 * above all. (The rename once replaced /dev/stdout or /dev/null itself with a
 * regular file.) REPLACE (real: the file to replace, PATH_MAX bytes) or
 * STREAM; or -errno, with *why when strerror would not say it.
 */
static int destination(const char *path, char *real, const char **why)
{
    struct stat st, lst;
    *why = NULL;
    if (fd_name(path))
        return STREAM;
    if (strlen(path) >= PATH_MAX)
        return -ENAMETOOLONG;
    if (lstat(path, &lst) < 0) {
        if (errno != ENOENT)
            return -errno;
        strcpy(real, path); /* a new file */
        return REPLACE;
    }
    if (stat(path, &st) < 0)
        return -errno; /* a symlink that leads nowhere: ENOENT */
    if (S_ISCHR(st.st_mode) || S_ISFIFO(st.st_mode))
        return STREAM;
    if (S_ISDIR(st.st_mode))
        return -EISDIR;
    if (!S_ISREG(st.st_mode)) {
        *why = S_ISBLK(st.st_mode) ? "it is a block device (a result goes to a file, a character "
                                     "device or a pipe)"
                                   : "it is not a file, a character device or a pipe";
        return -EINVAL;
    }
    if (!S_ISLNK(lst.st_mode))
        strcpy(real, path);
    else if (!realpath(path, real))
        return -errno;
    return REPLACE;
}

int pl_record_writable(const char *path, const char **why)
{
    char real[PATH_MAX];
    int how = destination(path, real, why);
    if (how < 0)
        return how;
    if (how == STREAM) /* access() answers for the real uid, which is the one platter runs as */
        return access(path, W_OK) < 0 ? -errno : 0;
    struct stat st;
    char dir[PATH_MAX];
    const char *slash = strrchr(real, '/');
    if (!slash)
        snprintf(dir, sizeof dir, ".");
    else if (slash == real)
        snprintf(dir, sizeof dir, "/");
    else
        snprintf(dir, sizeof dir, "%.*s", (int)(slash - real), real);
    if (stat(dir, &st) < 0)
        return -errno;
    if (!S_ISDIR(st.st_mode))
        return -ENOTDIR;
    if (access(dir, W_OK | X_OK) < 0)
        return -errno;
    return 0;
}

const char *pl_record_path(enum pl_record_kind k)
{
    return k < PL_RECORD_KINDS ? given[k] : NULL;
}

/* sock: fd is the keeper's socket (send without SIGPIPE, should the keeper be gone) */
static int write_all(int fd, const void *buf, size_t len, int sock)
{
    const char *p = buf;
    while (len > 0) {
        ssize_t n = sock ? send(fd, p, len, MSG_NOSIGNAL) : write(fd, p, len);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return n < 0 ? -errno : -EIO;
        p += n;
        len -= (size_t)n;
    }
    return 0;
}

static int read_all(int fd, void *buf, size_t len)
{
    char *p = buf;
    while (len > 0) {
        ssize_t n = read(fd, p, len);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return n < 0 ? -errno : -EPIPE;
        p += n;
        len -= (size_t)n;
    }
    return 0;
}

/* In place to fd; to a terminal under the terminal guard (guard: the run is
   sandboxed), with the guard's rule: phase names are the script's text. */
static int write_stream(int fd, const char *text, size_t len, int guard)
{
    if (!guard || !isatty(fd))
        return write_all(fd, text, len, 0);
    int copy = dup(fd);
    FILE *f = copy < 0 ? NULL : fdopen(copy, "w");
    if (!f) {
        if (copy >= 0)
            close(copy);
        return -errno;
    }
    pl_out_shown(f, text, len);
    int rc = ferror(f) ? -EIO : 0;
    if (fclose(f) != 0 && rc == 0)
        rc = -errno;
    return rc;
}

/* The text to path, as destination() says: a temporary file beside the file, then
   a rename (a reader never sees half), or in place to a device, pipe or descriptor. */
static int write_file(const char *path, const char *text, size_t len, int guard)
{
    char real[PATH_MAX];
    const char *why;
    int how = destination(path, real, &why);
    if (how < 0)
        return how;
    if (how == STREAM && std_fd(path) > 0)
        return write_stream(std_fd(path), text, len, guard);
    if (how == STREAM) {
        int fd = open(path, O_WRONLY | O_APPEND | O_CLOEXEC | O_NOCTTY);
        if (fd < 0)
            return -errno;
        int rc = write_stream(fd, text, len, guard);
        if (close(fd) < 0 && rc == 0 && errno != EINTR)
            rc = -errno;
        return rc;
    }
    size_t n = strlen(real) + 48;
    char *tmp = malloc(n);
    if (!tmp)
        return -ENOMEM;
    /* a name nobody could have put there first (a file, a directory or a symlink
       made in that directory beforehand is never opened, followed or replaced) */
    int fd = -1;
    for (int tries = 0; fd < 0 && tries < 8; tries++) {
        uint64_t r = 0;
        if (getrandom(&r, sizeof r, GRND_NONBLOCK) != (ssize_t)sizeof r) {
            struct timespec ts;
            clock_gettime(CLOCK_MONOTONIC, &ts);
            r = (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
        }
        snprintf(tmp, n, "%s.tmp%ld.%016llx", real, (long)getpid(), (unsigned long long)r);
        fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
        if (fd < 0 && errno != EEXIST)
            break;
    }
    int rc = fd < 0 ? -errno : write_all(fd, text, len, 0);
    if (fd >= 0 && close(fd) < 0 && rc == 0)
        rc = -errno;
    if (rc == 0 && rename(tmp, real) < 0)
        rc = -errno;
    if (rc && fd >= 0)
        unlink(tmp);
    free(tmp);
    return rc;
}

struct request {
    uint32_t op; /* enum pl_record_op */
    uint32_t kind;
    uint32_t guard; /* pl_out_guarding() of the run */
    uint32_t pad;
    uint64_t len;
};

/* What the keeper holds of one kind's record for a run that ends without writing it. */
struct held {
    char *body; /* the head, then each part */
    size_t len, cap;
    char *tail;
    size_t tail_len;
    int armed; /* a head came, and no write since */
};

static int held_append(struct held *h, const char *text, size_t len)
{
    if (h->len + len + 1 > h->cap) {
        size_t cap = h->cap ? h->cap : 4096;
        while (cap < h->len + len + 1)
            cap *= 2;
        char *b = realloc(h->body, cap);
        if (!b)
            return -1;
        h->body = b;
        h->cap = cap;
    }
    memcpy(h->body + h->len, text, len);
    h->len += len;
    return 0;
}

static void held_take(struct held *h, enum pl_record_op op, char *text, size_t len)
{
    if (op == PL_RECORD_HEAD) {
        h->len = 0;
        h->armed = held_append(h, text, len) == 0;
    } else if (op == PL_RECORD_PART && h->armed) {
        if (held_append(h, text, len) < 0)
            h->armed = 0; /* a record with phases missing in the middle is no record */
    } else if (op == PL_RECORD_TAIL) {
        free(h->tail);
        h->tail = text;
        h->tail_len = len;
        return;
    }
    free(text);
}

/* Each kind platter did not write itself, as far as the run got. */
static void write_held(struct held *held, int guard)
{
    for (int k = 0; k < PL_RECORD_KINDS; k++) {
        struct held *h = &held[k];
        if (!h->armed || !absolute[k])
            continue;
        h->armed = 0;
        if (h->tail_len && held_append(h, h->tail, h->tail_len) < 0)
            continue;
        write_file(absolute[k], h->body, h->len, guard);
    }
}

/* The socket closed: platter and its workers have exited. */
static void keeper_end(struct held *held, int guard)
{
    write_held(held, guard);
    _exit(0);
}

/* The ops the recorder sends without waiting for an answer. */
static int unanswered(uint32_t op)
{
    return op == PL_RECORD_HEAD || op == PL_RECORD_PART || op == PL_RECORD_TAIL;
}

static void keeper(int fd, void *arg)
{
    (void)arg;
    signal(SIGINT, SIG_IGN);
    signal(SIGTERM, SIG_IGN);
    signal(SIGHUP, SIG_IGN);
    struct held held[PL_RECORD_KINDS];
    memset(held, 0, sizeof held);
    int guard = 0; /* the run's terminal guard, as its requests carry it */
    for (;;) {
        struct request rq;
        if (read_all(fd, &rq, sizeof rq) < 0)
            keeper_end(held, guard);
        int valid = rq.kind < PL_RECORD_KINDS && absolute[rq.kind];
        if (rq.op != PL_RECORD_END) /* the signal handler's request does not know it */
            guard = rq.guard != 0;
        char *text = rq.len < ((uint64_t)1 << 40) ? malloc(rq.len + 1) : NULL;
        int32_t err = 0;
        if (!text) { /* drain it, answer ENOMEM */
            char sink[4096];
            for (uint64_t left = rq.len; left > 0;) {
                size_t n = left < sizeof sink ? (size_t)left : sizeof sink;
                if (read_all(fd, sink, n) < 0)
                    keeper_end(held, guard);
                left -= n;
            }
            err = ENOMEM;
            if (unanswered(rq.op)) {
                if (valid) /* a record with a piece missing is no record */
                    held[rq.kind].armed = 0;
                continue;
            }
        } else if (read_all(fd, text, (size_t)rq.len) < 0) {
            free(text); /* cut off mid-request: that request is not part of the record */
            keeper_end(held, guard);
        } else if (unanswered(rq.op)) {
            if (valid)
                held_take(&held[rq.kind], (enum pl_record_op)rq.op, text, (size_t)rq.len);
            else
                free(text);
            continue;
        } else if (rq.op == PL_RECORD_END) {
            write_held(held, guard); /* platter is exiting at once: now, not at the close */
        } else if (rq.op != PL_RECORD_WRITE || !valid) {
            err = EINVAL;
        } else {
            held[rq.kind].armed = 0; /* platter writes this kind itself */
            err = -write_file(absolute[rq.kind], text, (size_t)rq.len, rq.guard != 0);
        }
        free(text);
        if (write_all(fd, &err, sizeof err, 1) < 0)
            keeper_end(held, guard);
    }
}

int pl_record_start_keeper(void)
{
    if (!absolute[PL_RECORD_JSON] && !absolute[PL_RECORD_CSV])
        return 0;
    keeper_owner = getpid();
    return pl_spawn_helper(SOCK_STREAM, keeper, NULL, &keeper_fd, NULL);
}

/* The request and its text in one system call when the socket takes them at once.
   Marks the socket busy; the caller clears keeper_busy once it has read any answer. */
static int send_request(enum pl_record_op op, enum pl_record_kind k, const char *text, size_t len)
{
    struct request rq = {(uint32_t)op, (uint32_t)k, (uint32_t)pl_out_guarding(), 0, (uint64_t)len};
    struct iovec iov[2] = {{&rq, sizeof rq}, {(void *)text, len}};
    struct msghdr msg = {.msg_iov = iov, .msg_iovlen = 2};
    keeper_busy = 1;
    ssize_t n;
    do
        n = sendmsg(keeper_fd, &msg, MSG_NOSIGNAL);
    while (n < 0 && errno == EINTR);
    if (n < 0)
        return -errno;
    size_t sent = (size_t)n; /* the rest, should the socket have taken part of it */
    int rc = 0;
    if (sent < sizeof rq)
        rc = write_all(keeper_fd, (char *)&rq + sent, sizeof rq - sent, 1);
    size_t done = sent > sizeof rq ? sent - sizeof rq : 0;
    if (rc == 0 && done < len)
        rc = write_all(keeper_fd, text + done, len - done, 1);
    return rc;
}

int pl_record_write(enum pl_record_kind k, const char *text, size_t len)
{
    if (k >= PL_RECORD_KINDS || !absolute[k])
        return -EINVAL;
    if (keeper_fd < 0)
        return write_file(absolute[k], text, len, pl_out_guarding());
    int32_t err;
    int rc = send_request(PL_RECORD_WRITE, k, text, len);
    if (rc == 0)
        rc = read_all(keeper_fd, &err, sizeof err);
    keeper_busy = 0;
    if (rc < 0)
        return rc;
    return -err;
}

int pl_record_hold(enum pl_record_op op, enum pl_record_kind k, const char *text, size_t len)
{
    if (k >= PL_RECORD_KINDS || !absolute[k] || op == PL_RECORD_WRITE || op > PL_RECORD_TAIL)
        return -EINVAL;
    if (keeper_fd < 0)
        return 0; /* no keeper: nothing outlives platter to write it */
    int rc = send_request(op, k, text, len);
    keeper_busy = 0;
    return rc;
}

int pl_record_keeping(void)
{
    return keeper_fd >= 0;
}

void pl_record_end_now(void)
{
    /* a worker shares the socket but never talks on it; a request under way would be
       cut in two (the keeper then writes what it held when the socket closes) */
    if (keeper_fd < 0 || keeper_busy || getpid() != keeper_owner)
        return;
    struct request rq = {PL_RECORD_END, 0, 0, 0, 0};
    if (send(keeper_fd, &rq, sizeof rq, MSG_NOSIGNAL | MSG_DONTWAIT) != (ssize_t)sizeof rq)
        return;
    struct pollfd pf = {keeper_fd, POLLIN, 0};
    int32_t err;
    if (poll(&pf, 1, 5000) > 0 && read(keeper_fd, &err, sizeof err) < 0)
        return;
}
