/*
 * The engine registry and its contract check. The table is explicit (no
 * constructor functions) so that a static link keeps every engine.
 */
#include <errno.h>
#include <string.h>

#include "config.h"
#include "engine.h"

extern const struct pl_engine_ops pl_engine_sync, pl_engine_psync, pl_engine_stdio, pl_engine_mmap,
    pl_engine_null, pl_engine_posixaio;
#if PL_HAVE_URING
extern const struct pl_engine_ops pl_engine_uring;
#endif
#if PL_HAVE_AIO
extern const struct pl_engine_ops pl_engine_aio;
#endif

const struct pl_engine_ops *const pl_engines[] = {
    &pl_engine_sync,     &pl_engine_psync, &pl_engine_stdio,
    &pl_engine_mmap,
#if PL_HAVE_URING
    &pl_engine_uring,
#endif
#if PL_HAVE_AIO
    &pl_engine_aio,
#endif
    &pl_engine_posixaio, &pl_engine_null,  NULL,
};

const struct pl_engine_ops *pl_engine_find(const char *name)
{
    for (int i = 0; pl_engines[i]; i++)
        if (strcmp(pl_engines[i]->name, name) == 0)
            return pl_engines[i];
    return NULL;
}

static int check_one(const struct pl_engine_ops *ops)
{
    if (!ops || !ops->name || !ops->submit)
        return -EINVAL;
    if (!(ops->flags & PL_ENGINE_SYNC) && !ops->reap)
        return -EINVAL;
    return 0;
}

int pl_engine_check(const struct pl_engine_ops *ops)
{
    if (check_one(ops) < 0)
        return -EINVAL;
    const struct pl_engine_ops *q = ops->queued;
    if (q && (check_one(q) < 0 || (q->flags & PL_ENGINE_SYNC) || q->queued ||
              strcmp(q->name, ops->name) != 0))
        return -EINVAL;
    return 0;
}

const struct pl_engine_ops *pl_engine_for_qd(const struct pl_engine_ops *ops, unsigned qd)
{
    return ops && qd > 1 && ops->queued ? ops->queued : ops;
}

const struct pl_engine_ops *pl_engine_with(struct pl_engine_ops *copy,
                                           const struct pl_engine_ops *ops, const void *opts)
{
    *copy = *ops;
    copy->opts = opts;
    return copy;
}
