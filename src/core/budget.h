/*
 * What a script makes platter hold (--max-memory): its Lua heap (counted by
 * the host's allocator), the I/O buffers platter allocates for it and the
 * results its p.parallel workers send back, against one bound. The bound holds
 * for the whole tree of workers: a forked worker starts with a copy of what its
 * parent held (it is counted in the worker too, since writing to it or a
 * garbage collection copies the pages), and its bound is a share of what the
 * parent had left (pl_budget_share). No Lua.
 */
#ifndef PLATTER_CORE_BUDGET_H
#define PLATTER_CORE_BUDGET_H

#include <stddef.h>
#include <stdint.h>

struct pl_budget {
    uint64_t used;    /* bytes held */
    uint64_t limit;   /* the bound; 0: none */
    uint64_t refused; /* the size of the last request refused (0: none since the last look) */
    int worker;       /* the bound is a p.parallel worker's share, not --max-memory itself */
};

extern struct pl_budget pl_budget;

/* What the bound leaves (with no bound: all). */
static inline uint64_t pl_budget_left(void)
{
    if (!pl_budget.limit)
        return UINT64_MAX;
    return pl_budget.used < pl_budget.limit ? pl_budget.limit - pl_budget.used : 0;
}

/* n more bytes held, if the bound allows: 0; else -1 (pl_budget.refused = n). */
static inline int pl_budget_take(uint64_t n)
{
    if (n > pl_budget_left()) {
        pl_budget.refused = n;
        return -1;
    }
    pl_budget.used += n;
    return 0;
}

/* n more bytes held, if the bound allows, for what may go without them (a series'
   next interval, a timeline's entries): 0; else -1, recording no refusal to tell. */
static inline int pl_budget_try(uint64_t n)
{
    uint64_t told = pl_budget.refused;
    int rc = pl_budget_take(n);
    pl_budget.refused = told;
    return rc;
}

/* Would n more bytes fit in what the bound leaves (for what is held a moment only,
   and not counted: a worker's packed result before it goes)? */
static inline int pl_budget_fits(uint64_t n)
{
    return n <= pl_budget_left();
}

/* n bytes taken before are free again. */
static inline void pl_budget_give(uint64_t n)
{
    pl_budget.used = n < pl_budget.used ? pl_budget.used - n : 0;
}

/*
 * The bound of each of n workers about to be forked: `at_once` of them (or of
 * their turns) hold memory at the same time, besides the parent, which keeps
 * room for one more share while they run when parent_runs is set (a tick
 * function runs in it). Each worker's bound covers its copy of what this
 * process holds, plus at least PL_BUDGET_ROOM of its own. 0 and *each; -1 when
 * that does not fit (*each: what one would get), and why in msg.
 */
#define PL_BUDGET_ROOM ((uint64_t)1 << 20)
int pl_budget_share(unsigned at_once, int parent_runs, uint64_t *each, char *msg, size_t len);

/* "1 GiB", "3.2 MiB": binary units, one decimal where needed. */
const char *pl_budget_size(uint64_t b, char *buf, size_t len);

/* Why the last refusal (pl_budget.refused bytes of `what`) was made, for a message;
   then forgets it. */
const char *pl_budget_why(const char *what, char *buf, size_t len);

#endif
