/*
 * Forked workers: n children that inherit the parent's state (as Bonnie's
 * seekers did), wait at a start barrier, run, and send one result blob back
 * through a pipe. The parent releases them together and collects what each
 * sent and how each ended. No Lua.
 */
#ifndef PLATTER_CORE_WORKER_H
#define PLATTER_CORE_WORKER_H

#include <stddef.h>
#include <signal.h>
#include <stdint.h>
#include <sys/types.h>

struct pl_worker {
    pid_t pid;
    int fd;     /* parent: read end of this worker's result pipe */
    void *data; /* what the worker sent (malloc'd, counted by the memory bound), or NULL */
    size_t len;
    uint64_t refused; /* the size of what it sent, when the memory bound refused it (budget.h) */
    int status;       /* waitpid status */
    volatile sig_atomic_t reaped; /* waited for: its pid may be another process's now */
};

struct pl_workers {
    unsigned n;
    struct pl_worker *w;
    int ready[2];      /* children write one byte each when they reach the barrier */
    int go[2];         /* closed by the parent to release every child at once */
    int index;         /* in a child: its number 0..n-1; in the parent: -1 */
    int result_fd;     /* in a child: write end of its result pipe */
    uint64_t released; /* parent: pl_clock_ns() when the barrier opened */
};

/*
 * Fork n workers. Returns 0 in the parent (ws->index == -1) and in each child
 * (ws->index >= 0), or -errno in the parent when nothing could be started
 * (already-forked children are killed and reaped).
 */
int pl_workers_fork(struct pl_workers *ws, unsigned n);

/* Child: wait at the start barrier. Returns 0, or -1 if the parent went away. */
int pl_worker_wait_start(struct pl_workers *ws);
/* Child: send the result blob (blocking, whole). 0 or -errno. */
int pl_worker_send(struct pl_workers *ws, const void *data, size_t len);
/* Child: leave without running the parent's exit handlers. */
void pl_worker_exit(int code) __attribute__((noreturn));

/* Parent: wait until every live child reached the barrier, then release them all. */
int pl_workers_release(struct pl_workers *ws);
/* Parent: read every worker's blob and reap every child. 0 or -errno. */
int pl_workers_collect(struct pl_workers *ws);
/*
 * Parent: send sig to every worker of this process not yet reaped; async-signal-
 * safe. For a SIGINT or SIGTERM that reached platter alone (kill, a service
 * manager), not its process group as a terminal's Ctrl-C does, so the workers
 * stop as they would on a Ctrl-C. Each worker, once forked, also ends when this
 * process ends (PR_SET_PDEATHSIG).
 */
void pl_workers_signal(int sig);
/* Parent: free what collect gathered. */
void pl_workers_free(struct pl_workers *ws);

#endif
