/*
 * A queued engine on a target's own device queue (target.h: queue, complete,
 * next_done). io_uring and libaio hand I/O to the kernel through descriptors;
 * a target without descriptors but with a queue of its own serves them at
 * depth here instead. pl_engine_for_target makes the form once, when a job is
 * set up, under the engine's own name, so results read the same; the engine a
 * job on the OS runs is untouched. Each I/O is one submit call of its own.
 */
#include <errno.h>
#include <stdlib.h>

#include "engine.h"
#include "hot.h"

/* e->data: the finished I/Os one reap takes from the target (qd of them), before they
   become pl_io pointers */
static int tq_init(struct pl_engine *e, const char **why)
{
    (void)why;
    e->data = calloc(e->qd ? e->qd : 1, sizeof(struct pl_target_done));
    return e->data ? 0 : -ENOMEM;
}

PL_HOT static int tq_submit(struct pl_engine *e, struct pl_io *io)
{
    struct pl_file *f = e->files[io->findex];
    int rc = f->target->queue(e, f, io->op, io->off, io->len, io->data_only, io->buf, io, &io->res);
    return rc < 0 ? rc : rc ? PL_Q_QUEUED : PL_Q_DONE;
}

PL_HOT static int tq_reap(struct pl_engine *e, unsigned min, struct pl_io **out, unsigned max)
{
    struct pl_target_done *done = e->data;
    unsigned cap = e->qd ? e->qd : 1;
    int n = e->files[0]->target->complete(e, min, done, max < cap ? max : cap);
    for (int i = 0; i < n; i++) {
        out[i] = done[i].tag;
        out[i]->res = done[i].res;
    }
    return n;
}

static uint64_t tq_next(struct pl_engine *e)
{
    return e->files[0]->target->next_done(e);
}

/* The loop drains before it cleans up; whatever is left (a job that failed) is taken
   back so that the target's queue holds nothing of a job that is gone. */
static void tq_cleanup(struct pl_engine *e)
{
    struct pl_target_done *done = e->data;
    if (!done)
        return;
    if (e->nfiles && e->files && e->files[0])
        while (e->files[0]->target->complete(e, 1, done, e->qd ? e->qd : 1) > 0)
            ;
    free(done);
    e->data = NULL;
}

const struct pl_engine_ops *pl_engine_for_target(struct pl_engine_ops *copy,
                                                 const struct pl_engine_ops *ops,
                                                 struct pl_file *const *files, unsigned nfiles)
{
    if (!ops || !(ops->flags & PL_ENGINE_FDS) || (ops->flags & PL_ENGINE_SYNC) || !nfiles ||
        !files || !files[0])
        return ops;
    const struct pl_target_ops *t = files[0]->target;
    if (!t || (t->flags & PL_TARGET_FDS) || !t->queue || !t->complete || !t->next_done)
        return ops;
    for (unsigned i = 1; i < nfiles; i++)
        if (!files[i] || files[i]->target != t)
            return ops; /* the check that follows says what is wrong */
    *copy = (struct pl_engine_ops){
        .name = ops->name,
        .init = tq_init,
        .submit = tq_submit,
        .reap = tq_reap,
        .cleanup = tq_cleanup,
        .next_done = tq_next,
    };
    return copy;
}
