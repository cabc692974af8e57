/*
 * The null engine (fio's null, "to test fio itself"): every I/O completes at
 * once with its full length, and nothing is read or written: no system call,
 * no byte touched. A job on it measures platter's own cost per I/O, the loop,
 * the clock readings and the histogram.
 *   "null" at qd 1: synchronous, submit completes the I/O.
 *   At qd > 1 (the variant in .queued): submit queues the I/O and the next reap
 *   completes everything queued, as if the device answered the moment it was
 *   asked; latency is then the time an I/O waited in the loop's own queue.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "engine.h"
#include "hot.h"

PL_HOT static void finish(struct pl_io *io)
{
    io->res = io->op == PL_OP_FSYNC ? 0 : (int64_t)io->len;
}

/* ---- qd 1 ------------------------------------------------------------------------ */

PL_HOT static int null_submit(struct pl_engine *e, struct pl_io *io)
{
    (void)e;
    finish(io);
    return PL_Q_DONE;
}

/* ---- qd > 1 ---------------------------------------------------------------------- */

struct nullq {
    unsigned n;        /* queued, in order, not yet reaped */
    struct pl_io *q[]; /* qd of them */
};

static int nullq_init(struct pl_engine *e, const char **why)
{
    (void)why;
    struct nullq *q = calloc(1, sizeof *q + (e->qd ? e->qd : 1) * sizeof q->q[0]);
    if (!q)
        return -ENOMEM;
    e->data = q;
    return 0;
}

PL_HOT static int nullq_submit(struct pl_engine *e, struct pl_io *io)
{
    struct nullq *q = e->data;
    if (q->n >= (e->qd ? e->qd : 1))
        return PL_Q_BUSY;
    q->q[q->n++] = io;
    return PL_Q_QUEUED;
}

/* Everything queued is done: hand over up to max, oldest first (min needs no wait). */
PL_HOT static int nullq_reap(struct pl_engine *e, unsigned min, struct pl_io **out, unsigned max)
{
    (void)min;
    struct nullq *q = e->data;
    unsigned got = q->n < max ? q->n : max;
    for (unsigned i = 0; i < got; i++) {
        finish(q->q[i]);
        out[i] = q->q[i];
    }
    q->n -= got;
    if (q->n)
        memmove(q->q, q->q + got, q->n * sizeof q->q[0]);
    return (int)got;
}

static void nullq_cleanup(struct pl_engine *e)
{
    free(e->data);
    e->data = NULL;
}

static const struct pl_engine_ops null_queued = {
    .name = "null",
    .init = nullq_init,
    .submit = nullq_submit,
    .reap = nullq_reap,
    .cleanup = nullq_cleanup,
};

const struct pl_engine_ops pl_engine_null = {
    .name = "null",
    .flags = PL_ENGINE_SYNC,
    .submit = null_submit,
    .queued = &null_queued,
};
