/*
 * The result files' writer and its keeper process. The keeper reads
 * requests {kind, length, text} from a socket and answers each with an
 * errno (0 for done); it ends when the socket closes, that is, when platter
 * and every worker it forked have exited. It ignores SIGINT, SIGTERM and
 * SIGHUP, so a Ctrl-C at the terminal cannot cut a write short.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include "record.h"
#include "spawn.h"

static char *given[PL_RECORD_KINDS];
static char *absolute[PL_RECORD_KINDS];
static int keeper_fd = -1;

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

int pl_record_writable(const char *path)
{
    struct stat st;
    if (stat(path, &st) == 0 && S_ISDIR(st.st_mode))
        return -EISDIR;
    char dir[PATH_MAX];
    const char *slash = strrchr(path, '/');
    if (!slash)
        snprintf(dir, sizeof dir, ".");
    else if (slash == path)
        snprintf(dir, sizeof dir, "/");
    else if ((size_t)(slash - path) < sizeof dir)
        snprintf(dir, sizeof dir, "%.*s", (int)(slash - path), path);
    else
        return -ENAMETOOLONG;
    if (stat(dir, &st) < 0)
        return -errno;
    if (!S_ISDIR(st.st_mode))
        return -ENOTDIR;
    /* access() answers for the real uid, which is the one platter runs as */
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

/* A temporary file beside the target, then a rename: a reader never sees half. */
static int write_file(const char *path, const char *text, size_t len)
{
    size_t n = strlen(path) + 32;
    char *tmp = malloc(n);
    if (!tmp)
        return -ENOMEM;
    snprintf(tmp, n, "%s.tmp%ld", path, (long)getpid());
    int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    int rc = fd < 0 ? -errno : write_all(fd, text, len, 0);
    if (fd >= 0 && close(fd) < 0 && rc == 0)
        rc = -errno;
    if (rc == 0 && rename(tmp, path) < 0)
        rc = -errno;
    if (rc && fd >= 0)
        unlink(tmp);
    free(tmp);
    return rc;
}

struct request {
    uint32_t kind;
    uint64_t len;
};

static void keeper(int fd, void *arg)
{
    (void)arg;
    signal(SIGINT, SIG_IGN);
    signal(SIGTERM, SIG_IGN);
    signal(SIGHUP, SIG_IGN);
    for (;;) {
        struct request rq;
        if (read_all(fd, &rq, sizeof rq) < 0)
            _exit(0);
        char *text = rq.len < ((uint64_t)1 << 40) ? malloc(rq.len + 1) : NULL;
        int32_t err = 0;
        if (!text) { /* drain it, answer ENOMEM */
            char sink[4096];
            for (uint64_t left = rq.len; left > 0;) {
                size_t n = left < sizeof sink ? (size_t)left : sizeof sink;
                if (read_all(fd, sink, n) < 0)
                    _exit(0);
                left -= n;
            }
            err = ENOMEM;
        } else if (read_all(fd, text, (size_t)rq.len) < 0) {
            _exit(0);
        } else if (rq.kind >= PL_RECORD_KINDS || !absolute[rq.kind]) {
            err = EINVAL;
        } else {
            err = -write_file(absolute[rq.kind], text, (size_t)rq.len);
        }
        free(text);
        if (write_all(fd, &err, sizeof err, 1) < 0)
            _exit(0);
    }
}

int pl_record_start_keeper(void)
{
    if (!absolute[PL_RECORD_JSON] && !absolute[PL_RECORD_CSV])
        return 0;
    return pl_spawn_helper(SOCK_STREAM, keeper, NULL, &keeper_fd, NULL);
}

int pl_record_write(enum pl_record_kind k, const char *text, size_t len)
{
    if (k >= PL_RECORD_KINDS || !absolute[k])
        return -EINVAL;
    if (keeper_fd < 0)
        return write_file(absolute[k], text, len);
    struct request rq = {(uint32_t)k, (uint64_t)len};
    int32_t err;
    int rc = write_all(keeper_fd, &rq, sizeof rq, 1);
    if (rc == 0)
        rc = write_all(keeper_fd, text, len, 1);
    if (rc == 0)
        rc = read_all(keeper_fd, &err, sizeof err);
    if (rc < 0)
        return rc;
    return -err;
}
