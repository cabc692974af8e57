/*
 * libFuzzer target: the Lua API, sandboxed. The input drives random calls of
 * platter functions, platter.core internals, file methods and stats methods
 * with random argument types and values (fuzz/api_driver.lua). Any Lua error
 * is fine; a crash, a hang or a sanitizer report is a bug.
 *
 * Confinement, so that random calls cannot harm the machine running them:
 *   - a scratch directory (under $PLATTER_FUZZ_TMP, else on /dev/shm when it
 *     is tmpfs, else under $TMPDIR) is the current
 *     directory during each input and $TMPDIR, and platter's sandbox path
 *     checks are on, so
 *     every path outside it is refused as in a sandboxed script;
 *   - --destroy is off (no block device can be opened for writing);
 *   - files may not grow past 8 MiB (RLIMIT_FSIZE, SIGXFSZ ignored);
 *   - each input gets 40 ms: a timer then sets the interrupt flag, which
 *     stops p.run, p.sleep and every later platter call, as Ctrl-C would;
 *   - p.parallel (forks) and p.drop_caches (system-wide) are not called,
 *     p.ewrite writes nowhere, and f:readahead only on tmpfs (it sets the device's readahead).
 * See docs/fuzzing.md.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/magic.h>
#include <signal.h>
#include <stdint.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <time.h>
#include <unistd.h>

#include "clock.h"
#include "fuzz_lua.h"

void __sanitizer_set_death_callback(void (*callback)(void));
#include "guard.h"
#include "host.h"

#ifndef PL_FUZZ_DIR
#define PL_FUZZ_DIR "fuzz"
#endif

static char workdir[PATH_MAX], startdir[PATH_MAX];
static char *driver;
static timer_t timer;
static int on_tmpfs;
static long budget_ms = 40; /* per input; PLATTER_FUZZ_MS overrides */

static void on_timer(int sig)
{
    pl_interrupted = sig;
}

/* Remove everything below dir (p.mkdir can make directories, a few deep at most). */
static void empty_dir(const char *dir, int depth)
{
    DIR *d = opendir(dir);
    if (!d)
        return;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
            continue;
        char path[PATH_MAX + 256];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        if (unlink(path) < 0 && errno == EISDIR && depth < 8) {
            empty_dir(path, depth + 1);
            rmdir(path);
        }
    }
    closedir(d);
}

static void empty_workdir(void)
{
    empty_dir(workdir, 0);
}

static void remove_workdir(void)
{
    empty_workdir();
    rmdir(workdir);
}

static char *slurp(const char *path)
{
    FILE *fp = fopen(path, "rb");
    if (!fp)
        return NULL;
    fseek(fp, 0, SEEK_END);
    long n = ftell(fp);
    fseek(fp, 0, SEEK_SET);
    char *buf = malloc((size_t)n + 1);
    if (buf && fread(buf, 1, (size_t)n, fp) != (size_t)n) {
        free(buf);
        buf = NULL;
    }
    if (buf)
        buf[n] = '\0';
    fclose(fp);
    return buf;
}

/* The scratch directory becomes the current one: crash files go where we started. */
static void artifacts_here(int *argc, char ***argv)
{
    static char flag[PATH_MAX + 32];
    static char *args[256];
    char cwd[PATH_MAX];
    for (int i = 1; i < *argc; i++)
        if (strncmp((*argv)[i], "-artifact_prefix=", 17) == 0)
            return;
    if (*argc + 2 > (int)(sizeof args / sizeof args[0]) || !getcwd(cwd, sizeof cwd))
        return;
    snprintf(flag, sizeof flag, "-artifact_prefix=%s/", cwd);
    args[0] = (*argv)[0];
    args[1] = flag;
    for (int i = 1; i < *argc; i++)
        args[i + 1] = (*argv)[i];
    args[*argc + 1] = NULL;
    *argc += 1;
    *argv = args;
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    artifacts_here(argc, argv);
    pl_clock_init();
    pl_cfg.quiet = 1;
    pl_cfg.seed = 1;

    const char *ms = getenv("PLATTER_FUZZ_MS");
    if (ms && atol(ms) > 0 && atol(ms) < 1000)
        budget_ms = atol(ms);
    const char *env = getenv("PLATTER_FUZZ_DRIVER");
    driver = slurp(env ? env : PL_FUZZ_DIR "/api_driver.lua");
    if (!driver) {
        fprintf(stderr, "fuzz_api: cannot read the driver %s (set PLATTER_FUZZ_DRIVER)\n",
                env ? env : PL_FUZZ_DIR "/api_driver.lua");
        exit(1);
    }

    /* the scratch directory's parent: $PLATTER_FUZZ_TMP (fuzz/smoke.sh removes it even
       after a crash, when no exit handler runs), else /dev/shm if tmpfs, else $TMPDIR */
    struct statfs sfs;
    const char *parent = getenv("PLATTER_FUZZ_TMP");
    if (!parent || !*parent) {
        parent = "/dev/shm";
        if (statfs(parent, &sfs) < 0 || sfs.f_type != TMPFS_MAGIC || access(parent, W_OK) < 0) {
            parent = getenv("TMPDIR");
            if (!parent || !*parent)
                parent = "/tmp";
        }
    }
    on_tmpfs = statfs(parent, &sfs) == 0 && sfs.f_type == TMPFS_MAGIC;
    snprintf(workdir, sizeof workdir, "%s/platter-fuzz-api.XXXXXX", parent);
    if (!getcwd(startdir, sizeof startdir) || !mkdtemp(workdir) || chdir(workdir) < 0) {
        perror("fuzz_api: scratch directory");
        exit(1);
    }
    atexit(remove_workdir);
    __sanitizer_set_death_callback(remove_workdir); /* a sanitizer report ends without atexit */
    setenv("TMPDIR", workdir, 1);
    pl_allow_enable(1);      /* roots: the current directory and $TMPDIR, both workdir */
    if (chdir(startdir) < 0) /* libFuzzer reads inputs relative to where it started */
        exit(1);

    struct rlimit rl = {8u << 20, 8u << 20};
    setrlimit(RLIMIT_FSIZE, &rl);
    signal(SIGXFSZ, SIG_IGN);

    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_timer;
    sa.sa_flags = SA_RESTART;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGRTMIN + 1, &sa, NULL);
    struct sigevent sev;
    memset(&sev, 0, sizeof sev);
    sev.sigev_notify = SIGEV_SIGNAL;
    sev.sigev_signo = SIGRTMIN + 1;
    if (timer_create(CLOCK_MONOTONIC, &sev, &timer) < 0) {
        perror("fuzz_api: timer_create");
        exit(1);
    }

    int null = open("/dev/null", O_WRONLY); /* p.write and p.printf go nowhere */
    if (null >= 0) {
        dup2(null, 1);
        close(null);
    }
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 4096)
        return 0;
    /* libFuzzer installs its own SIGXFSZ handler (-handle_xfsz=1, the default) after
       LLVMFuzzerInitialize: a write past RLIMIT_FSIZE must fail with EFBIG instead */
    static int xfsz_ignored;
    if (!xfsz_ignored) {
        signal(SIGXFSZ, SIG_IGN);
        xfsz_ignored = 1;
    }
    pl_interrupted = 0;
    struct itimerspec on = {{0, 0}, {0, budget_ms * 1000 * 1000}}, off;
    memset(&off, 0, sizeof off);
    if (chdir(workdir) < 0)
        abort();
    timer_settime(timer, 0, &on, NULL);

    lua_State *L = fuzz_new_state(1); /* closed at the end of the input */
    lua_pushboolean(L, !on_tmpfs);
    lua_setglobal(L, "NO_READAHEAD");
    if (luaL_loadbufferx(L, driver, strlen(driver), "@fuzz/api_driver.lua", "t") != 0) {
        fprintf(stderr, "fuzz_api: driver: %s\n", lua_tostring(L, -1));
        abort();
    }
    lua_pushlstring(L, (const char *)data, size);
    lua_pcall(L, 1, 0, 0); /* any Lua error is a normal outcome */
    lua_close(L);

    timer_settime(timer, 0, &off, NULL);
    pl_interrupted = 0;
    pl_scratch_cleanup();
    empty_workdir();
    if (chdir(startdir) < 0)
        abort();
    return 0;
}
