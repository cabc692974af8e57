/*
 * The transport under p.mpi: what a run of several ranks needs from MPI, as
 * an ops table. src/bind/l_mpi.c has the one-rank transport every platter
 * has; src/mpi/platter_mpi.c (the module platter_mpi.so, built with Open
 * MPI and loaded only under mpirun or --mpi) has the real one. Plain C, no
 * Lua: the module and the binary share only this header.
 */
#ifndef PLATTER_MPI_PL_MPI_H
#define PLATTER_MPI_PL_MPI_H

#include <stddef.h>

#define PL_MPI_ABI 1 /* bumped whenever struct pl_mpi changes */
#define PL_MPI_INIT "pl_mpi_module_init"

struct pl_mpi {
    int abi;
    int rank, size;             /* in MPI_COMM_WORLD */
    int node, nodes;            /* this rank's node (0 .. nodes-1): ranks sharing memory */
    int local_rank, local_size; /* among the ranks of this node */
    char library[256];          /* "Open MPI v4.1.4, ..." ("" for the one-rank transport) */

    /*
     * Every rank gives n bytes; all receives size * n, in rank order. The one
     * call that waits for late ranks: it sleeps between tests (no spinning)
     * and gives up after timeout_s seconds (-1). 0 when done.
     */
    int (*exchange)(const void *mine, void *all, size_t n, double timeout_s);
    /* A plain barrier, right after an exchange: releases the ranks together. */
    int (*release)(void);
    /* root's n bytes to every rank (n known to all) */
    int (*bcast)(void *buf, size_t n, int root);
    /* lens[i] bytes from each rank i into all (at root only, or every rank when root < 0),
       packed in rank order */
    int (*gatherv)(const void *buf, size_t n, void *all, const size_t *lens, int root);
    /* End every rank of the run now (a watchdog, a failure that cannot wait). */
    void (*abort)(int status);
    /* At exit, after the last collective. */
    void (*finalize)(void);
};

/*
 * The module's entry points, found by dlsym. PL_MPI_INIT: MPI_Init and the
 * node identities into m; 0, or -1 with why filled in. PL_MPI_VERSION: the
 * library's version line, without MPI_Init (for --version -v).
 */
#define PL_MPI_VERSION "pl_mpi_module_version"
typedef int (*pl_mpi_init_fn)(struct pl_mpi *m, char *why, size_t len);
typedef void (*pl_mpi_version_fn)(char *buf, size_t len);
int pl_mpi_module_init(struct pl_mpi *m, char *why, size_t len);
void pl_mpi_module_version(char *buf, size_t len);

#endif
