/*
 * platter's command line: global options, subcommands and exit statuses.
 * Everything Lua happens behind the verbs of bind/host.h.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bind/host.h"
#include "clock.h"
#include "sandbox.h"
#include "target.h"
#include "units.h"
#include "config.h"

/* platter plan's usage, in the help and in its own usage errors */
#define PLAN_USAGE "platter plan [--json] [--sim PRESET] [--budget T] [--env NAME] SCRIPT [args...]"

static const char usage_text[] =
    "usage: platter [options] WORKLOAD|SCRIPT.lua [args...]\n"
    "       platter [options] -e CODE [args...]\n"
    "       platter [options] NAME.platter [args...]\n"
    "       platter list\n"
    "       platter compare A.json B.json [...]\n"
    "       platter plot RESULT.json -o OUT.png|svg\n"
    "       platter rerun RESULT.json\n"
    "       platter pack SCRIPT.lua [MORE.lua...] [-o NAME.platter] [-m MODULE]...\n"
    "       platter verify [--json] [--sha256 HEX] NAME.platter\n"
    "       platter selftest\n"
    "       platter describe [--json] SCRIPT\n"
    "       " PLAN_USAGE "\n"
    "       platter --version [-v]\n"
    "\n"
    "Runs a storage benchmark written in Lua: a shipped workload by name\n"
    "(see 'platter list') or a script file. Options:\n"
    "  --trust          lift the sandbox (full Lua libraries, any path)\n"
    "                   (sandboxed, a script may use the current directory, $TMPDIR\n"
    "                   and the paths named after it: a named directory grants its\n"
    "                   tree, a named file that file; see docs/sandbox.md)\n"
    "  --destroy        allow writing to block devices\n"
    "  --env NAME       a sandboxed script may read the environment variable NAME\n"
    "                   (p.getenv; fio job files' ${NAME}); repeat for more\n"
    "  --quiet          no progress or informational messages\n"
    "  --seed N         seed of the random number generator (default 1)\n"
    "  --interval T     every phase and run keeps a time series in intervals of T (e.g. 100ms)\n"
    "  --json FILE      write the full result record (JSON) to FILE\n"
    "  --csv FILE       write one CSV row per phase to FILE\n"
    "  --repeat N       run the whole workload N times; report mean, stddev, 95% CI\n"
    "  --ci P%          repeat until the 95% CI half-width is under P% of the mean\n"
    "  --sim PRESET     run on a simulated disk with a virtual clock\n"
    "  --target NAME    where the bytes live: os (the default), null (every I/O done at\n"
    "                   once, no system call: platter's own cost), sim:PRESET (--sim)\n"
    "  --max-memory SIZE\n"
    "                   bound what a script makes platter hold: its Lua heap, I/O buffers\n"
    "                   and workers (default: a quarter of RAM; 0: no bound)\n"
    "  --verbose, -v    tracebacks with errors; more detail with --version\n"
    "  --lua-dir DIR    load lua/ and workloads/ from DIR (also $PLATTER_LUA_DIR)\n"
    "  --mpi            load the MPI module though not started by mpirun (one rank)\n"
    "  -e CODE          run CODE instead of a script\n"
    "  --help, -h       this text\n"
    "Exit status: 0 ok, 1 error, 2 usage error, 130 interrupted.\n";

static int usage(const char *fmt, const char *arg)
{
    fprintf(stderr, "platter: ");
    fprintf(stderr, fmt, arg);
    fprintf(stderr, "\nTry 'platter --help'.\n");
    return PL_EXIT_USAGE;
}

/* --target list */
static int target_list(void)
{
    for (unsigned k = 0; pl_targets[k]; k++)
        printf("%s%s\n", pl_targets[k]->name, pl_targets[k]->start ? ":PRESET" : "");
    return PL_EXIT_OK;
}

/* --target NAME[:ARG]: choose a target (sim:PRESET sets --sim). */
static int target_option(const char *v)
{
    const char *colon = strchr(v, ':');
    size_t n = colon ? (size_t)(colon - v) : strlen(v);
    if (n == 3 && strncmp(v, "sim", 3) == 0) {
        if (!colon || !colon[1])
            return usage("--target sim needs a preset: --target sim:PRESET (see 'platter --sim "
                         "list')",
                         "");
        if (pl_cfg.sim && strcmp(pl_cfg.sim, colon + 1) != 0)
            return usage("--target '%s' and --sim name different presets", v);
        pl_cfg.sim = colon + 1;
        pl_cfg.target = NULL; /* the record names it as --sim */
        return PL_EXIT_OK;
    }
    if (pl_cfg.sim)
        return usage("--target '%s' and --sim choose different targets: give one", v);
    char name[32] = "";
    if (n < sizeof name)
        memcpy(name, v, n);
    if (!pl_target_find(name))
        return usage("unknown --target '%s' (see 'platter --target list')", v);
    if (pl_target_use(name, colon ? colon + 1 : NULL) < 0)
        return usage("--target '%s': this target takes no argument", v);
    if (strcmp(name, "os") == 0)
        pl_cfg.target = NULL; /* the default: nothing to record */
    return PL_EXIT_OK;
}

static int version(int verbose)
{
    printf("platter %s (%s)\n", PL_VERSION, pl_host_lua_release());
    if (strcmp(pl_build_commit, "unknown") != 0)
        printf("build: commit %s\n", pl_build_commit);
    else /* from a tarball: no commit to name */
        printf("build: package %s\n", PL_PACKAGE_VERSION);
    if (verbose) {
        printf("clock: %s (kernel clocksource %s), %.1f ns per reading\n", pl_clock_method(),
               pl_clock_source(), pl_clock_overhead_ns());
        printf("io_uring: %s\n", PL_HAVE_URING ? "built in" : "not built in");
        char sb[128];
        pl_sandbox_support(sb, sizeof sb);
        printf("sandbox: %s%s\n", sb,
               getenv("PLATTER_SANDBOX") && strcmp(getenv("PLATTER_SANDBOX"), "checks") == 0
                   ? " (off: PLATTER_SANDBOX=checks; platter's own checks only)"
                   : "");
        char mpi[300];
        int have = pl_mpi_library_version(mpi, sizeof mpi);
        printf("mpi: %s%s\n", have ? "" : PL_HAVE_MPI ? "built in, " : "not built in", mpi);
    }
    return PL_EXIT_OK;
}

/* The option's value: "--seed=5" or "--seed 5". */
static const char *optval(int argc, char **argv, int *i, const char *name)
{
    size_t n = strlen(name);
    if (argv[*i][n] == '=')
        return argv[*i] + n + 1;
    if (*i + 1 >= argc)
        return NULL;
    return argv[++*i];
}

/* --env NAME: the variable p.getenv may read in the sandbox; 0 or usage()'s status */
static int grant_env(const char *v)
{
    if (!v)
        return usage("option '--env' needs the name of an environment variable", "");
    size_t k = 0;
    while (v[k] == '_' || isalpha((unsigned char)v[k]) || (k && isdigit((unsigned char)v[k])))
        k++;
    if (k == 0 || v[k])
        return usage("bad --env '%s': expected the name of an environment variable, such as SIZE",
                     v);
    if (pl_cfg.nenv == (int)(sizeof pl_cfg.env / sizeof pl_cfg.env[0]))
        return usage("too many --env options (at most 64): '%s'", v);
    pl_cfg.env[pl_cfg.nenv++] = v;
    return 0;
}

static int matches(const char *arg, const char *name)
{
    size_t n = strlen(name);
    return strncmp(arg, name, n) == 0 && (arg[n] == '\0' || arg[n] == '=');
}

int main(int argc, char **argv)
{
    const char *code = NULL;
    int want_version = 0;
    int max_memory_given = 0;
    int mpi_forced = 0;
    int i;
    pl_cfg.argv0 = argv[0];
    pl_cfg.argc = argc;
    pl_cfg.argv = argv;
    pl_cfg.lua_dir = getenv("PLATTER_LUA_DIR");
    if (pl_cfg.lua_dir && !*pl_cfg.lua_dir)
        pl_cfg.lua_dir = NULL;

    for (i = 1; i < argc && argv[i][0] == '-' && argv[i][1]; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--") == 0) {
            i++;
            break;
        } else if (strcmp(a, "--trust") == 0) {
            pl_cfg.trust = 1;
        } else if (strcmp(a, "--destroy") == 0) {
            pl_cfg.destroy = 1;
        } else if (strcmp(a, "--quiet") == 0 || strcmp(a, "-q") == 0) {
            pl_cfg.quiet = 1;
        } else if (strcmp(a, "--verbose") == 0 || strcmp(a, "-v") == 0) {
            pl_cfg.verbose = 1;
        } else if (strcmp(a, "--mpi") == 0) {
            mpi_forced = 1;
        } else if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            fputs(usage_text, stdout);
            return PL_EXIT_OK;
        } else if (strcmp(a, "--version") == 0 || strcmp(a, "-V") == 0) {
            want_version = 1;
        } else if (matches(a, "--seed")) {
            const char *v = optval(argc, argv, &i, "--seed");
            char *end;
            if (!v)
                return usage("option '--seed' needs a number", "");
            errno = 0;
            unsigned long long s = strtoull(v, &end, 10);
            if (!*v || *end || errno || v[0] == '-')
                return usage("bad --seed '%s': expected a non-negative integer", v);
            pl_cfg.seed = s;
            pl_cfg.seed_given = 1;
        } else if (matches(a, "--interval")) {
            const char *v = optval(argc, argv, &i, "--interval");
            const char *why;
            uint64_t ns;
            if (!v)
                return usage("option '--interval' needs a duration, such as 100ms", "");
            if (pl_units_parse_time(v, &ns, &why) < 0 || ns < 1000)
                return usage("bad --interval '%s': expected a duration of at least 1us, such as "
                             "100ms",
                             v);
            pl_cfg.interval_ns = ns;
        } else if (matches(a, "--target")) {
            const char *v = optval(argc, argv, &i, "--target");
            if (!v || !*v)
                return usage("option '%s' needs a value", "--target");
            pl_cfg.target = v;
        } else if (matches(a, "--json") || matches(a, "--csv") || matches(a, "--sim")) {
            const char *name = matches(a, "--json")  ? "--json"
                               : matches(a, "--csv") ? "--csv"
                                                     : "--sim";
            const char *v = optval(argc, argv, &i, name);
            if (!v || !*v)
                return usage("option '%s' needs a value", name);
            if (name[2] == 'j')
                pl_cfg.json_path = v;
            else if (name[2] == 'c')
                pl_cfg.csv_path = v;
            else
                pl_cfg.sim = v;
        } else if (matches(a, "--repeat")) {
            const char *v = optval(argc, argv, &i, "--repeat");
            char *end;
            long n = v ? strtol(v, &end, 10) : 0;
            if (!v || !*v || *end || n < 1 || n > 10000)
                return usage("bad --repeat '%s': expected a count within 1..10000", v ? v : "");
            pl_cfg.repeat = (int)n;
        } else if (matches(a, "--ci")) {
            const char *v = optval(argc, argv, &i, "--ci");
            char *end;
            double pct = v ? strtod(v, &end) : 0;
            if (v && *end == '%')
                end++;
            if (!v || !*v || *end || !(pct > 0 && pct < 100))
                return usage("bad --ci '%s': expected a percentage such as 2%%", v ? v : "");
            pl_cfg.ci_pct = pct;
        } else if (matches(a, "--max-memory")) {
            const char *v = optval(argc, argv, &i, "--max-memory");
            const char *why;
            uint64_t n;
            if (!v)
                return usage("option '--max-memory' needs a size, such as 256m", "");
            if (pl_units_parse_size(v, &n, &why) < 0)
                return usage("bad --max-memory '%s': expected a size such as 256m or 2g", v);
            if (n != 0 && n < (8u << 20))
                return usage("bad --max-memory '%s': the Lua heap needs at least 8 MiB (0 for "
                             "no bound)",
                             v);
            pl_cfg.max_memory = n;
            max_memory_given = 1;
        } else if (matches(a, "--env")) {
            int rc = grant_env(optval(argc, argv, &i, "--env"));
            if (rc)
                return rc;
        } else if (matches(a, "--lua-dir")) {
            const char *v = optval(argc, argv, &i, "--lua-dir");
            if (!v)
                return usage("option '--lua-dir' needs a directory", "");
            pl_cfg.lua_dir = v;
        } else if (strcmp(a, "-e") == 0) {
            if (i + 1 >= argc)
                return usage("option '-e' needs a chunk of Lua code", "");
            code = argv[++i];
            i++;
            break;
        } else {
            return usage("unknown option '%s'", a);
        }
    }
    if (!max_memory_given)
        pl_cfg.max_memory = pl_host_default_max_memory();
    if (pl_cfg.ci_pct > 0 && pl_cfg.repeat == 1)
        pl_cfg.repeat = 30; /* --ci alone: repeat until the interval is narrow, 30 runs at most */
    pl_clock_init();
    if (pl_cfg.target) { /* --target NAME[:ARG]; sim:PRESET is --sim PRESET */
        if (strcmp(pl_cfg.target, "list") == 0)
            return target_list();
        int rc = target_option(pl_cfg.target);
        if (rc != PL_EXIT_OK)
            return rc;
    }
    if (pl_cfg.sim) { /* --sim PRESET: the "sim" target, on that preset */
        if (strcmp(pl_cfg.sim, "list") == 0) {
            pl_target_find("sim")->list(stdout);
            return PL_EXIT_OK;
        }
        if (pl_target_use("sim", pl_cfg.sim) < 0)
            return usage("unknown --sim preset '%s' (see 'platter --sim list')", pl_cfg.sim);
    }
    if (want_version)
        return version(pl_cfg.verbose);
    if (pl_mpi_start(mpi_forced) < 0) /* before the sandbox: MPI_Init opens what MPI needs */
        return PL_EXIT_USAGE;
    pl_host_signals();
    if (code)
        return pl_host_run_string(code, argc - i, argv + i);
    if (i >= argc)
        return usage("no workload or script given", "");
    if (strcmp(argv[i], "list") == 0)
        return pl_host_list();
    if (strcmp(argv[i], "describe") == 0) {
        int json = i + 1 < argc && strcmp(argv[i + 1], "--json") == 0;
        int k = i + 1 + json;
        if (k >= argc || k + 1 < argc)
            return usage("describe: usage: platter describe [--json] SCRIPT", "");
        pl_cfg.mode = json ? "describe-json" : "describe";
        pl_cfg.json_path = pl_cfg.csv_path = NULL;
        pl_cfg.repeat = 1;
        pl_cfg.ci_pct = 0;
        return pl_host_run_script(argv[k], 0, argv + k + 1);
    }
    if (strcmp(argv[i], "plan") == 0) {
        /* a dry run on the simulated disk: what the script opens, writes, removes */
        int k = i + 1, json = 0;
        const char *preset = pl_cfg.sim ? pl_cfg.sim : "nvme";
        pl_cfg.plan_budget_ns = 60ull * 1000000000; /* a minute of planning by default */
        for (; k < argc && argv[k][0] == '-'; k++) {
            if (strcmp(argv[k], "--") == 0) {
                k++;
                break;
            } else if (strcmp(argv[k], "--json") == 0) {
                json = 1;
            } else if (matches(argv[k], "--sim")) {
                if (!(preset = optval(argc, argv, &k, "--sim")) || !*preset)
                    return usage("option '%s' needs a value", "--sim");
            } else if (matches(argv[k], "--env")) {
                int rc = grant_env(optval(argc, argv, &k, "--env"));
                if (rc)
                    return rc;
            } else if (matches(argv[k], "--budget")) {
                const char *v = optval(argc, argv, &k, "--budget"), *why = NULL;
                uint64_t ns = 0;
                if (!v || !*v)
                    return usage("option '--budget' needs a duration, such as 30s (0: none)", "");
                if (pl_units_parse_time(v, &ns, &why) < 0)
                    return usage("plan: bad --budget '%s': expected a duration such as 30s or 2m, "
                                 "or 0 for none",
                                 v);
                pl_cfg.plan_budget_ns = ns;
            } else {
                return usage("plan: unknown option '%s' (usage: " PLAN_USAGE ")", argv[k]);
            }
        }
        if (k >= argc)
            return usage("plan: usage: " PLAN_USAGE, "");
        if (pl_cfg.trust) /* the full Lua libraries reach files past the chokepoint */
            return usage("plan: --trust lifts the sandbox, and a plan sees only what a "
                         "sandboxed script can do%s",
                         "");
        if (strcmp(preset, "list") == 0 || pl_target_use("sim", preset) < 0)
            return usage("unknown --sim preset '%s' (see 'platter --sim list')", preset);
        pl_cfg.sim = preset;
        pl_cfg.mode = json ? "plan-json" : "plan";
        pl_cfg.json_path = pl_cfg.csv_path = NULL;
        pl_cfg.repeat = 1;
        pl_cfg.ci_pct = 0;
        return pl_host_run_script(argv[k], argc - k - 1, argv + k + 1);
    }
    int rc = pl_host_run_command(argv[i], argc - i - 1, argv + i + 1);
    if (rc >= 0)
        return rc;
    return pl_host_run_script(argv[i], argc - i - 1, argv + i + 1);
}
