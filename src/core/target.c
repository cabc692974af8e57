/*
 * The target registry and the one in use. A process uses one target from the
 * command line on (--sim PRESET, --target NAME[:ARG]); the OS by default.
 */
#include <errno.h>
#include <string.h>

#include "target.h"

const char *const pl_op_names[] = {"read", "write", "fsync", NULL};

/* Each defined in its own file; only this list names them. */
extern const struct pl_target_ops pl_target_os, pl_target_sim, pl_target_null;

const struct pl_target_ops *const pl_targets[] = {
    &pl_target_os,
    &pl_target_sim,
    &pl_target_null,
    NULL,
};

const struct pl_target_ops *pl_target = &pl_target_os;

const struct pl_target_ops *pl_target_find(const char *name)
{
    for (unsigned i = 0; pl_targets[i]; i++)
        if (strcmp(pl_targets[i]->name, name) == 0)
            return pl_targets[i];
    return NULL;
}

int pl_target_use(const char *name, const char *arg)
{
    const struct pl_target_ops *t = pl_target_find(name);
    if (!t)
        return -ENOENT;
    if (t->start) {
        if (t->start(arg ? arg : "") < 0)
            return -EINVAL;
    } else if (arg && *arg) {
        return -EINVAL; /* a target without variants takes no argument */
    }
    pl_target = t;
    return 0;
}
