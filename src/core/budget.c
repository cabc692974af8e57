/*
 * The memory bound of a script's run and of its workers (budget.h).
 */
#include <stdio.h>

#include "budget.h"

struct pl_budget pl_budget;

const char *pl_budget_size(uint64_t b, char *buf, size_t len)
{
    static const char *const unit[] = {"bytes", "KiB", "MiB", "GiB", "TiB"};
    int u = 0;
    double v = (double)b;
    while (v >= 1024 && u < 4) {
        v /= 1024;
        u++;
    }
    if (u == 0 || v == (double)(uint64_t)v)
        snprintf(buf, len, "%llu %s", (unsigned long long)v, unit[u]);
    else
        snprintf(buf, len, "%.1f %s", v, unit[u]);
    return buf;
}

int pl_budget_share(unsigned at_once, int parent_runs, uint64_t *each, char *msg, size_t len)
{
    *each = 0;
    msg[0] = '\0';
    if (!pl_budget.limit)
        return 0;
    *each = pl_budget_left() / ((uint64_t)at_once + (parent_runs ? 1 : 0));
    if (*each >= pl_budget.used + PL_BUDGET_ROOM)
        return 0;
    char held[32], bound[32];
    snprintf(msg, len,
             "%u workers at once would each start with a copy of the %s this process holds "
             "(its Lua heap and I/O buffers) and need 1 MiB of their own: more than %s (%s, "
             "shared by a run's workers) leaves them; start fewer, hold less, or raise "
             "--max-memory",
             at_once, pl_budget_size(pl_budget.used, held, sizeof held),
             pl_budget.worker ? "this worker's share of --max-memory" : "--max-memory",
             pl_budget_size(pl_budget.limit, bound, sizeof bound));
    return -1;
}

const char *pl_budget_why(const char *what, char *buf, size_t len)
{
    char n[32], bound[32], held[32];
    snprintf(buf, len, "%s of %s: platter already holds %s for this script, and %s is %s", what,
             pl_budget_size(pl_budget.refused, n, sizeof n),
             pl_budget_size(pl_budget.used, held, sizeof held),
             pl_budget.worker ? "this worker's share of --max-memory" : "--max-memory",
             pl_budget_size(pl_budget.limit, bound, sizeof bound));
    pl_budget.refused = 0;
    return buf;
}
