/* Helper processes joined by a socket pair (spawn.h). */
#include <errno.h>
#include <stdio.h>
#include <sys/socket.h>
#include <unistd.h>

#include "spawn.h"

int pl_spawn_helper(int type, void (*body)(int fd, void *arg), void *arg, int *fd, pid_t *pid)
{
    int sv[2];
    if (socketpair(AF_UNIX, type | SOCK_CLOEXEC, 0, sv) < 0)
        return -errno;
    fflush(NULL); /* nothing buffered is written twice */
    pid_t child = fork();
    if (child < 0) {
        int err = errno;
        close(sv[0]);
        close(sv[1]);
        return -err;
    }
    if (child == 0) {
        close(sv[0]);
        body(sv[1], arg);
        _exit(0);
    }
    close(sv[1]);
    *fd = sv[0];
    if (pid)
        *pid = child;
    return 0;
}
