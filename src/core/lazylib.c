/*
 * dlopen on first use (lazylib.h): one entry per library, its resolver
 * filling the typed table, a mutex around the one load and an atomic state
 * for every call after it. The files to pin for the sandbox are found the
 * way the dynamic linker would find them on this system: $LD_LIBRARY_PATH
 * (not for a set-uid start), then the directories the libraries already
 * loaded came from (libc's is the system's, /usr/lib/x86_64-linux-gnu on
 * Debian).
 */
#include <dlfcn.h>
#include <limits.h>
#include <link.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/stat.h>

#include "lazylib.h"

struct lib {
    const char *soname;
    int (*resolve)(void *h); /* fill the table; -1 when a symbol is missing (dlerror says) */
    int (*init)(void);       /* after resolve, once; -1 with the reason in err */
    int state;               /* 0 not tried, 1 loaded, -1 failed; atomic */
    char path[PATH_MAX];     /* pinned for the sandbox: load exactly this file */
    char err[PATH_MAX + 128];
};

/* every X(f) of a table: its field from dlsym (POSIX's way to store a function pointer) */
#define RESOLVE(f)                                                                                 \
    if (!(*(void **)&t->f = dlsym(h, #f)))                                                         \
        return -1;

static struct pl_libcrypto crypto_t;
static int crypto_resolve(void *h)
{
    struct pl_libcrypto *t = &crypto_t;
    PL_LIBCRYPTO_FNS(RESOLVE)
    return 0;
}

/* no openssl.cnf: platter's digests are the same whatever it says, and the sandbox
   would refuse to read it anyway */
static int crypto_init(void)
{
    return crypto_t.OPENSSL_init_crypto(OPENSSL_INIT_NO_LOAD_CONFIG, NULL) == 1 ? 0 : -1;
}

static struct pl_libisal isal_t;
static int isal_resolve(void *h)
{
    struct pl_libisal *t = &isal_t;
    PL_LIBISAL_FNS(RESOLVE)
    return 0;
}

#if PL_HAVE_AIO
static struct pl_libaio aio_t;
static int aio_resolve(void *h)
{
    struct pl_libaio *t = &aio_t;
    PL_LIBAIO_FNS(RESOLVE)
    return 0;
}
#endif

enum { CRYPTO, ISAL, AIO, NLIBS };
static struct lib libs[NLIBS] = {
    [CRYPTO] = {.soname = PL_LIBCRYPTO_SONAME, .resolve = crypto_resolve, .init = crypto_init},
    [ISAL] = {.soname = PL_LIBISAL_SONAME, .resolve = isal_resolve},
#if PL_HAVE_AIO
    [AIO] = {.soname = PL_LIBAIO_SONAME, .resolve = aio_resolve},
#endif
};

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

static int load(struct lib *l, const char **why)
{
    int st = __atomic_load_n(&l->state, __ATOMIC_ACQUIRE);
    if (st == 0) {
        pthread_mutex_lock(&lock);
        st = l->state;
        if (st == 0) {
            void *h = dlopen(l->path[0] ? l->path : l->soname, RTLD_NOW | RTLD_LOCAL);
            const char *e = NULL;
            if (!h || l->resolve(h) < 0) {
                e = dlerror(); /* the one call: it clears the message */
                if (!e)
                    e = "it cannot be loaded";
            }
            if (e)
                snprintf(l->err, sizeof l->err, "%s", e);
            else if (l->init && l->init() < 0)
                snprintf(l->err, sizeof l->err, "its initialisation failed");
            st = l->err[0] ? -1 : 1;
            __atomic_store_n(&l->state, st, __ATOMIC_RELEASE);
        }
        pthread_mutex_unlock(&lock);
    }
    if (st < 0 && why)
        *why = l->err;
    return st;
}

const struct pl_libcrypto *pl_libcrypto(const char **why)
{
    return load(&libs[CRYPTO], why) > 0 ? &crypto_t : NULL;
}

const struct pl_libisal *pl_libisal(const char **why)
{
    return load(&libs[ISAL], why) > 0 ? &isal_t : NULL;
}

#if PL_HAVE_AIO
const struct pl_libaio *pl_libaio(const char **why)
{
    return load(&libs[AIO], why) > 0 ? &aio_t : NULL;
}
#endif

/* dir/soname, when it is a regular file: its real path into out */
static int try_dir(const char *dir, size_t dlen, const char *soname, char *out)
{
    char p[PATH_MAX];
    struct stat st;
    if (dlen == 0 || dlen + 1 + strlen(soname) >= sizeof p)
        return 0;
    snprintf(p, sizeof p, "%.*s/%s", (int)dlen, dir, soname);
    return realpath(p, out) && stat(out, &st) == 0 && S_ISREG(st.st_mode);
}

struct search {
    const char *soname;
    char *out;
    int found;
};

static int try_loaded(struct dl_phdr_info *info, size_t size, void *ud)
{
    (void)size;
    struct search *s = ud;
    const char *slash = info->dlpi_name ? strrchr(info->dlpi_name, '/') : NULL;
    if (slash && try_dir(info->dlpi_name, (size_t)(slash - info->dlpi_name), s->soname, s->out))
        s->found = 1;
    return s->found; /* nonzero stops the walk */
}

static int find(const char *soname, char *out)
{
    const char *llp = getauxval(AT_SECURE) ? NULL : getenv("LD_LIBRARY_PATH");
    while (llp && *llp) {
        size_t n = strcspn(llp, ":;");
        if (try_dir(llp, n, soname, out))
            return 1;
        llp += n + (llp[n] != '\0');
    }
    struct search s = {soname, out, 0};
    dl_iterate_phdr(try_loaded, &s);
    return s.found;
}

void pl_lazy_files(void (*fn)(void *ud, const char *path), void *ud)
{
    pthread_mutex_lock(&lock);
    for (int i = 0; i < NLIBS; i++) {
        struct lib *l = &libs[i];
        if (!l->soname || l->state != 0)
            continue; /* not built in, or loaded (or failed) already */
        if (!l->path[0] && !find(l->soname, l->path))
            l->path[0] = '\0';
        if (l->path[0])
            fn(ud, l->path);
    }
    pthread_mutex_unlock(&lock);
}
