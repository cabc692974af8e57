/*
 * platter_mpi.so: p.mpi's transport on Open MPI (src/mpi/pl_mpi.h). The
 * platter binary dlopens it only when started by mpirun or given --mpi, so
 * a run without MPI never loads libmpi. MPI_Init runs here, before the
 * sandbox; everything after it works on what MPI_Init opened (docs/sandbox.md).
 */
#include <mpi.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "mpi/pl_mpi.h"

static MPI_Comm world = MPI_COMM_NULL;

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/*
 * A non-blocking allgather, tested between short sleeps: a rank that waits
 * for late ones costs a few MPI_Test calls a millisecond, not a spinning core
 * (a plain MPI_Barrier polls at full speed). The first tests do not sleep,
 * so that ranks that arrive together pay no sleep.
 */
static int ompi_exchange(const void *mine, void *all, size_t n, double timeout_s)
{
    MPI_Request rq;
    if (MPI_Iallgather(mine, (int)n, MPI_BYTE, all, (int)n, MPI_BYTE, world, &rq) != MPI_SUCCESS)
        return -1;
    double t0 = now_s();
    long pause_ns = 20000; /* 20 us, doubling to 2 ms */
    for (int i = 0;; i++) {
        int done = 0;
        if (MPI_Test(&rq, &done, MPI_STATUS_IGNORE) != MPI_SUCCESS)
            return -1;
        if (done)
            return 0;
        if (i < 100)
            continue;
        if (now_s() - t0 > timeout_s)
            return -1;
        struct timespec ts = {0, pause_ns};
        nanosleep(&ts, NULL);
        if (pause_ns < 2000000)
            pause_ns *= 2;
    }
}

static int ompi_release(void)
{
    return MPI_Barrier(world) == MPI_SUCCESS ? 0 : -1;
}

static int ompi_bcast(void *buf, size_t n, int root)
{
    return MPI_Bcast(buf, (int)n, MPI_BYTE, root, world) == MPI_SUCCESS ? 0 : -1;
}

static int ompi_gatherv(const void *buf, size_t n, void *all, const size_t *lens, int root)
{
    int size;
    MPI_Comm_size(world, &size);
    int *counts = calloc((size_t)size, sizeof *counts);
    int *displs = calloc((size_t)size, sizeof *displs);
    int rc = -1;
    if (counts && displs) {
        size_t off = 0;
        for (int r = 0; r < size; r++) {
            counts[r] = (int)lens[r];
            displs[r] = (int)off;
            off += lens[r];
        }
        if (root < 0)
            rc = MPI_Allgatherv(buf, (int)n, MPI_BYTE, all, counts, displs, MPI_BYTE, world);
        else
            rc = MPI_Gatherv(buf, (int)n, MPI_BYTE, all, counts, displs, MPI_BYTE, root, world);
        rc = rc == MPI_SUCCESS ? 0 : -1;
    }
    free(counts);
    free(displs);
    return rc;
}

static void ompi_abort(int status)
{
    MPI_Abort(world, status);
}

/*
 * MPI_Finalize unlinks this rank's shared-memory segment in /dev/shm, which
 * the sandbox's Landlock rules refuse to the main thread. It runs on a
 * thread started before the sandbox, outside Landlock as Open MPI's own
 * threads are (seccomp covers it: the filter is synchronised to all threads);
 * that thread runs nothing but MPI_Finalize.
 */
static pthread_t finalizer;
static int finalizer_pipe[2] = {-1, -1};

static void *finalize_thread(void *arg)
{
    (void)arg;
    char c;
    while (read(finalizer_pipe[0], &c, 1) < 0)
        ;
    MPI_Finalize();
    return NULL;
}

static void ompi_finalize(void)
{
    if (finalizer_pipe[1] < 0) {
        MPI_Finalize();
        return;
    }
    char c = 1;
    if (write(finalizer_pipe[1], &c, 1) == 1)
        pthread_join(finalizer, NULL);
}

/* The first line of MPI_Get_library_version (callable before MPI_Init). */
static void library(char *buf, size_t len)
{
    char v[MPI_MAX_LIBRARY_VERSION_STRING];
    int n = 0;
    MPI_Get_library_version(v, &n);
    v[n < (int)sizeof v ? n : (int)sizeof v - 1] = '\0';
    v[strcspn(v, "\n")] = '\0';
    snprintf(buf, len, "%s", v);
}

/* "Open MPI v4.1.4, ..." for --version -v, without MPI_Init */
void pl_mpi_module_version(char *buf, size_t len)
{
    library(buf, len);
}

/* Set name=value unless the user (or mpirun's -x / --mca) already did. */
static void mca_default(const char *name, const char *value)
{
    if (!getenv(name))
        setenv(name, value, 0);
}

int pl_mpi_module_init(struct pl_mpi *m, char *why, size_t len)
{
    /* The sandbox's seccomp filter refuses socket() and process_vm_readv/writev
       after MPI_Init: open every TCP connection during MPI_Init, and copy shared-
       memory messages through the shared segment instead of CMA. */
    mca_default("OMPI_MCA_mpi_preconnect_mpi", "1");
    mca_default("OMPI_MCA_btl_vader_single_copy_mechanism", "none");
    int level = MPI_THREAD_SINGLE;
    if (MPI_Init_thread(NULL, NULL, MPI_THREAD_SERIALIZED, &level) != MPI_SUCCESS) {
        snprintf(why, len, "MPI_Init failed");
        return -1;
    }
    if (level >= MPI_THREAD_SERIALIZED && pipe(finalizer_pipe) == 0 &&
        pthread_create(&finalizer, NULL, finalize_thread, NULL) != 0) {
        close(finalizer_pipe[0]);
        close(finalizer_pipe[1]);
        finalizer_pipe[0] = finalizer_pipe[1] = -1;
    }
    world = MPI_COMM_WORLD;
    MPI_Comm_set_errhandler(world, MPI_ERRORS_RETURN);
    m->abi = PL_MPI_ABI;
    MPI_Comm_rank(world, &m->rank);
    MPI_Comm_size(world, &m->size);

    /* the node: ranks that share memory; numbered by their lowest rank's order */
    MPI_Comm local, leaders = MPI_COMM_NULL;
    if (MPI_Comm_split_type(world, MPI_COMM_TYPE_SHARED, m->rank, MPI_INFO_NULL, &local) !=
        MPI_SUCCESS) {
        snprintf(why, len, "MPI_Comm_split_type failed");
        return -1;
    }
    MPI_Comm_rank(local, &m->local_rank);
    MPI_Comm_size(local, &m->local_size);
    MPI_Comm_split(world, m->local_rank == 0 ? 0 : MPI_UNDEFINED, m->rank, &leaders);
    int ids[2] = {0, 0};
    if (leaders != MPI_COMM_NULL) {
        MPI_Comm_rank(leaders, &ids[0]);
        MPI_Comm_size(leaders, &ids[1]);
        MPI_Comm_free(&leaders);
    }
    MPI_Bcast(ids, 2, MPI_INT, 0, local);
    MPI_Comm_free(&local);
    m->node = ids[0];
    m->nodes = ids[1];
    library(m->library, sizeof m->library);

    m->exchange = ompi_exchange;
    m->release = ompi_release;
    m->bcast = ompi_bcast;
    m->gatherv = ompi_gatherv;
    m->abort = ompi_abort;
    m->finalize = ompi_finalize;
    /* every rank has started: the first collective of the script finds them all */
    MPI_Barrier(world);
    return 0;
}
