/*
 * The Lua host: makes the state, preloads the embedded library, builds the
 * sandbox, runs a script or a string under pcall with a traceback, and turns
 * the outcome into an exit status. main.c calls these verbs only.
 */
#ifndef PLATTER_BIND_HOST_H
#define PLATTER_BIND_HOST_H

#include <stdint.h>

struct lua_State;

struct pl_config {
    int trust;   /* --trust: no sandbox */
    int quiet;   /* --quiet */
    int verbose; /* --verbose: tracebacks */
    int destroy; /* --destroy: block devices may be written */
    int seed_given;
    uint64_t seed;         /* --seed N (default 1) */
    const char *lua_dir;   /* --lua-dir or $PLATTER_LUA_DIR: load lua/ and workloads/ from here */
    const char *json_path; /* --json FILE: write the result record here */
    const char *csv_path;  /* --csv FILE */
    int repeat;            /* --repeat N (default 1) */
    double ci_pct;         /* --ci P%: repeat until the 95% half-width is under P% (0 = off) */
    const char *sim;       /* --sim PRESET: run on the simulated device */
    const char *target;    /* --target NAME: a target other than os and sim (null) */
    uint64_t max_memory;   /* --max-memory SIZE: bound of the Lua heap in bytes (0 = none) */
    uint64_t interval_ns;  /* --interval T: every phase and run keeps a time series (0 = off) */
    const char *mode;      /* "describe", "describe-json" or "plan": platter describe|plan */
    uint64_t
        plan_budget_ns;  /* platter plan --budget T: stop the run after T of real time (0 = none) */
    const char *env[64]; /* --env NAME: environment variables a sandboxed script may read */
    int nenv;
    const char *argv0;
    int argc; /* the whole command line, for the record */
    char **argv;
};

extern struct pl_config pl_cfg;

/* Set by core._described(): under 'platter describe', p.script printed the manifest. */
extern int pl_host_described;

/* Exit statuses. */
enum { PL_EXIT_OK = 0, PL_EXIT_ERROR = 1, PL_EXIT_USAGE = 2, PL_EXIT_INTR = 130 };

/*
 * Run a built-in command (compare, plot, rerun, selftest, ...): the embedded
 * module platter.cmd.NAME (lua/platter/cmd/NAME.lua), trusted, with its
 * arguments. Returns -1 when there is no such command, else an exit status.
 */
int pl_host_run_command(const char *name, int argc, char **argv);
/* Run a workload name or a .lua path with its arguments. Returns an exit status. */
int pl_host_run_script(const char *script, int argc, char **argv);
/* Run code given with -e, with arguments. */
int pl_host_run_string(const char *code, int argc, char **argv);
/* p.workload(name, args): run the shipped workload NAME inside the running
   script (a Lua C function; platter.core registers it). See host.c. */
int pl_host_workload(struct lua_State *L);
/* Print the embedded workloads with their one-line descriptions. */
int pl_host_list(void);
/* "LuaJIT 2.1.0-beta3" / "Lua 5.4.4" */
const char *pl_host_lua_release(void);
/* A new Lua state (luaL_newstate; in sanitizer builds of LuaJIT, one that
   allocates with malloc so ASan and LeakSanitizer see the Lua heap). */
struct lua_State *pl_host_new_state(void);
/* Put the embedded modules (from --lua-dir when given), platter.core and cjson
   in package.preload of L (its standard libraries open). */
void pl_host_preload(struct lua_State *L);
/* The default --max-memory: a quarter of the machine's RAM (not --sim's). */
uint64_t pl_host_default_max_memory(void);
/* Lift the --max-memory bound while platter records what a phase did when the
   script hit it (on = 1), and put it back (on = 0). */
void pl_host_heap_unbound(int on);
/* The value at idx is the error of the --max-memory bound: the script reached it
   and Lua raised its "not enough memory" (1), or not (0). */
int pl_host_heap_error(struct lua_State *L, int idx);
/*
 * Before anything else runs (MPI_Init must come before the sandbox): when
 * started by mpirun (OMPI_COMM_WORLD_SIZE, PMIX_RANK, PMI_RANK or PMI_SIZE
 * set) or forced (--mpi), load platter_mpi.so and use its transport. Ranks
 * other than 0 then write no stdout and no result files. 0: not under
 * mpirun; 1: MPI is on; -1: it should be and cannot (reported; exit 2).
 */
int pl_mpi_start(int forced);
/* The MPI library's version line into buf, without MPI_Init: 1, or 0 (buf says why
   when the module is built but cannot be loaded, else is ""). */
int pl_mpi_library_version(char *buf, size_t len);
/* Install SIGINT/SIGTERM handlers and the exit-time scratch cleanup. */
void pl_host_signals(void);

#endif
