/*
 * Forked workers with a start barrier: each child writes a byte to `ready`
 * and blocks reading `go`; the parent, once it has n bytes (or EOF from dead
 * children), closes `go`, and every child's read returns at once.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "budget.h"
#include "clock.h"
#include "out.h"
#include "worker.h"

/* This process's workers while it has any (set once forked, cleared once reaped):
   what pl_workers_signal reaches. */
static struct pl_workers *volatile live;

static int full_write(int fd, const void *p, size_t n)
{
    const char *c = p;
    while (n) {
        ssize_t w = write(fd, c, n);
        if (w < 0 && errno == EINTR)
            continue;
        if (w < 0)
            return -errno;
        c += w;
        n -= (size_t)w;
    }
    return 0;
}

int pl_workers_fork(struct pl_workers *ws, unsigned n)
{
    memset(ws, 0, sizeof *ws);
    ws->index = -1;
    ws->result_fd = -1;
    ws->n = n;
    ws->w = calloc(n, sizeof *ws->w);
    if (!ws->w)
        return -ENOMEM;
    if (pipe(ws->ready) < 0) {
        free(ws->w);
        return -errno;
    }
    if (pipe(ws->go) < 0) {
        int err = errno;
        close(ws->ready[0]);
        close(ws->ready[1]);
        free(ws->w);
        return -err;
    }
    fflush(NULL); /* children must not repeat the parent's buffered output */
    pid_t parent = getpid();
    live = ws; /* each as soon as its pid is known (0 until then) */
    for (unsigned i = 0; i < n; i++) {
        int res[2];
        if (pipe(res) < 0)
            goto fail;
        pid_t pid = fork();
        if (pid < 0) {
            close(res[0]);
            close(res[1]);
            goto fail;
        }
        if (pid == 0) {
            /* a worker ends with platter, however platter ends (SIGKILL, a second
               Ctrl-C): none is left running, writing its files */
            if (prctl(PR_SET_PDEATHSIG, SIGKILL) < 0 || getppid() != parent)
                _exit(127);
            live = NULL; /* the parent's workers are not this one's */
            pl_out_forked();
            close(res[0]);
            close(ws->ready[0]);
            close(ws->go[1]);
            for (unsigned k = 0; k < i; k++)
                close(ws->w[k].fd);
            ws->index = (int)i;
            ws->result_fd = res[1];
            return 0;
        }
        close(res[1]);
        ws->w[i].pid = pid;
        ws->w[i].fd = res[0];
    }
    close(ws->ready[1]);
    close(ws->go[0]);
    return 0;
fail : {
    int err = errno;
    live = NULL;
    for (unsigned k = 0; k < n; k++) {
        if (ws->w[k].pid > 0) {
            kill(ws->w[k].pid, SIGKILL);
            waitpid(ws->w[k].pid, NULL, 0);
            close(ws->w[k].fd);
        }
    }
    close(ws->ready[0]);
    close(ws->ready[1]);
    close(ws->go[0]);
    close(ws->go[1]);
    free(ws->w);
    ws->w = NULL;
    return -err;
}
}

int pl_worker_wait_start(struct pl_workers *ws)
{
    char c = 1;
    if (full_write(ws->ready[1], &c, 1) < 0)
        return -1;
    close(ws->ready[1]);
    ssize_t r;
    do
        r = read(ws->go[0], &c, 1);
    while (r < 0 && errno == EINTR);
    close(ws->go[0]);
    return r == 0 ? 0 : -1; /* EOF is the signal to start */
}

int pl_worker_send(struct pl_workers *ws, const void *data, size_t len)
{
    uint64_t n = len;
    int rc = full_write(ws->result_fd, &n, sizeof n);
    if (rc == 0)
        rc = full_write(ws->result_fd, data, len);
    return rc;
}

void pl_worker_exit(int code)
{
    pl_out_finish();
    fflush(NULL);
    _exit(code);
}

int pl_workers_release(struct pl_workers *ws)
{
    unsigned got = 0;
    char buf[64];
    while (got < ws->n) {
        ssize_t r = read(ws->ready[0], buf, sizeof buf);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            break; /* every child closed its end: some died before the barrier */
        got += (unsigned)r;
    }
    close(ws->ready[0]);
    ws->released = pl_clock_ns();
    close(ws->go[1]);
    return 0;
}

static int full_read(int fd, void *p, size_t n)
{
    char *c = p;
    while (n) {
        ssize_t r = read(fd, c, n);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            return -1;
        c += r;
        n -= (size_t)r;
    }
    return 0;
}

int pl_workers_collect(struct pl_workers *ws)
{
    for (unsigned i = 0; i < ws->n; i++) {
        struct pl_worker *w = &ws->w[i];
        uint64_t len;
        if (full_read(w->fd, &len, sizeof len) == 0 && len < (64u << 20)) {
            if (pl_budget_take(len)) {
                w->refused = len; /* the worker gets EPIPE and ends */
                pl_budget.refused = 0;
            } else {
                w->data = malloc(len ? len : 1);
                if (w->data && full_read(w->fd, w->data, len) == 0) {
                    w->len = len;
                } else {
                    free(w->data);
                    w->data = NULL;
                    pl_budget_give(len);
                }
            }
        }
        close(w->fd);
        w->fd = -1;
        /* wait for its end without reaping it, then reap it with SIGINT and SIGTERM
           held, so a signal forwarded in between never reaches a pid used again */
        siginfo_t si;
        while (waitid(P_PID, (id_t)w->pid, &si, WEXITED | WNOWAIT) < 0 && errno == EINTR)
            ;
        sigset_t hold, old;
        sigemptyset(&hold);
        sigaddset(&hold, SIGINT);
        sigaddset(&hold, SIGTERM);
        sigprocmask(SIG_BLOCK, &hold, &old);
        while (waitpid(w->pid, &w->status, 0) < 0 && errno == EINTR)
            ;
        w->reaped = 1;
        sigprocmask(SIG_SETMASK, &old, NULL);
    }
    if (live == ws)
        live = NULL;
    return 0;
}

void pl_workers_signal(int sig)
{
    struct pl_workers *ws = live;
    if (!ws)
        return;
    for (unsigned i = 0; i < ws->n; i++)
        if (ws->w[i].pid > 0 && !ws->w[i].reaped)
            kill(ws->w[i].pid, sig);
}

void pl_workers_free(struct pl_workers *ws)
{
    if (live == ws)
        live = NULL;
    for (unsigned i = 0; ws->w && i < ws->n; i++)
        if (ws->w[i].data) {
            free(ws->w[i].data);
            pl_budget_give(ws->w[i].len);
        }
    free(ws->w);
    ws->w = NULL;
}
