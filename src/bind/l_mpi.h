/*
 * p.mpi's side outside Lua (l_mpi.c): which transport the collectives use
 * (the one-rank one, or platter_mpi.so's under mpirun) and the end of a run,
 * where every rank learns whether the others failed.
 */
#ifndef PLATTER_BIND_L_MPI_H
#define PLATTER_BIND_L_MPI_H

#include "compat.h"

struct pl_mpi;

/* The transport in use (never NULL) and whether it is the MPI module's. */
const struct pl_mpi *pl_mpi_transport(void);
int pl_mpi_active(void);
/* Use m (NULL: the one-rank transport); reads PLATTER_MPI_TIMEOUT. */
void pl_mpi_set_transport(struct pl_mpi *m);
/*
 * After the script, on every path: the last collective, in which a failed
 * rank (status != 0, registry platter.error its message) tells the others.
 * Returns the run's status: an error when another rank failed or the ranks
 * did not end together (platter.error then says so).
 */
int pl_mpi_end(lua_State *L, int status);

#endif
