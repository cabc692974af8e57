/*
 * Helper processes joined to platter by a socket pair (the result keeper,
 * record.c; the ring broker, ringbroker.c).
 */
#ifndef PLATTER_CORE_SPAWN_H
#define PLATTER_CORE_SPAWN_H

#include <sys/types.h>

/*
 * Fork a helper: a socketpair(AF_UNIX, type | SOCK_CLOEXEC); the child runs
 * body(its end, arg) and exits; the parent gets its end (*fd) and, when pid
 * is not NULL, the child's pid. 0, or -errno with nothing left open.
 */
int pl_spawn_helper(int type, void (*body)(int fd, void *arg), void *arg, int *fd, pid_t *pid);

#endif
