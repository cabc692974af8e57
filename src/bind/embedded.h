/* The Lua library and workloads compiled into the binary (gen/embedded.c). */
#ifndef PLATTER_BIND_EMBEDDED_H
#define PLATTER_BIND_EMBEDDED_H

#include <stddef.h>

struct pl_embedded {
    const char *name; /* module name ("platter.args") or workload name ("sweep") */
    const char *path; /* repository path, for chunk names ("lua/platter/args.lua") */
    int workload;     /* 0 library module, 1 workload */
    const char *text;
    size_t len;
};

/* Terminated by an entry with name == NULL. */
extern const struct pl_embedded pl_embedded[];

#endif
