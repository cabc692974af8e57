/*
 * How core functions report failure: return 0 or -errno; where the caller
 * needs context, they also fill a struct pl_error (errno and the call that
 * failed), and the binding turns it into "op path: strerror".
 */
#ifndef PLATTER_CORE_ERROR_H
#define PLATTER_CORE_ERROR_H

struct pl_error {
    int err;        /* positive errno, or 0 */
    const char *op; /* static name of the failing call ("open", "fallocate", ...) */
    char msg[1024]; /* optional extra text (no errno), "" when unused */
};

/* Fill *e (when not NULL) with err and op, and no extra text. */
static inline void pl_error_set(struct pl_error *e, int err, const char *op)
{
    if (!e)
        return;
    e->err = err;
    e->op = op;
    e->msg[0] = '\0';
}

#endif
