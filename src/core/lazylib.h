/*
 * The shared libraries platter loads on first use, not at start: libcrypto
 * (md5 and sha256: verify, p.sha256), ISA-L (crc32c: verify) and libaio (the
 * libaio engine). Each is dlopened by its soname the first time a caller asks
 * for it, and only the functions platter calls are resolved, into a table
 * typed from the library's own header. A run that never uses one never maps
 * it (linked, libcrypto alone cost ~0.9 ms of every start).
 *
 * Under the sandbox's Landlock rules the dynamic linker can no longer read
 * its cache or search the library directories, so before the sandbox is
 * applied pl_lazy_files names the exact file each library not yet loaded
 * would come from (sandbox.c grants it read-only) and pins it: the later
 * dlopen opens that path. Every user goes through this file. No other core
 * header.
 */
#ifndef PLATTER_CORE_LAZYLIB_H
#define PLATTER_CORE_LAZYLIB_H

#include <stddef.h>

#include <isa-l/crc.h>
#include <openssl/crypto.h>
#include <openssl/evp.h>

#include "config.h"

#if PL_HAVE_AIO
#include <libaio.h>
#endif

#if OPENSSL_VERSION_MAJOR != 3
#error "lazylib.c loads libcrypto.so.3: these OpenSSL headers are another major version"
#endif

#define PL_LIBCRYPTO_SONAME "libcrypto.so.3"
#define PL_LIBISAL_SONAME "libisal.so.2"
#define PL_LIBAIO_SONAME "libaio.so.1"

/* X(name): every function platter calls in each library */
#define PL_LIBCRYPTO_FNS(X)                                                                        \
    X(OPENSSL_init_crypto)                                                                         \
    X(EVP_md5)                                                                                     \
    X(EVP_sha256)                                                                                  \
    X(EVP_Digest)                                                                                  \
    X(EVP_MD_CTX_new)                                                                              \
    X(EVP_MD_CTX_free)                                                                             \
    X(EVP_DigestInit_ex)                                                                           \
    X(EVP_DigestUpdate)                                                                            \
    X(EVP_DigestFinal_ex)
#define PL_LIBISAL_FNS(X) X(crc32_iscsi)
#define PL_LIBAIO_FNS(X) X(io_setup) X(io_destroy) X(io_submit) X(io_getevents)

#define PL_LAZY_FIELD(f) __typeof__(f) *f;
struct pl_libcrypto {
    PL_LIBCRYPTO_FNS(PL_LAZY_FIELD)
};
struct pl_libisal {
    PL_LIBISAL_FNS(PL_LAZY_FIELD)
};
#if PL_HAVE_AIO
struct pl_libaio {
    PL_LIBAIO_FNS(PL_LAZY_FIELD)
};
#endif
#undef PL_LAZY_FIELD

/*
 * The library's table, loading it on the first call (thread-safe; in a
 * forked child too). NULL when it cannot be loaded, with *why (which may be
 * NULL) set to dlerror's reason (callers say "verify: md5 needs
 * libcrypto.so.3: <why>"); the answer is kept, so a missing library costs
 * one dlopen per process. libcrypto starts without reading
 * openssl.cnf (OPENSSL_INIT_NO_LOAD_CONFIG): the same digests in and out of
 * the sandbox, whatever the system's configuration says.
 */
const struct pl_libcrypto *pl_libcrypto(const char **why);
const struct pl_libisal *pl_libisal(const char **why);
#if PL_HAVE_AIO
const struct pl_libaio *pl_libaio(const char **why);
#endif

/*
 * For the sandbox, before it is applied: calls fn with the real path of the
 * file each library not loaded yet would be loaded from (the first of
 * $LD_LIBRARY_PATH's directories, then those of the libraries already loaded,
 * libc's among them, that holds the soname), and pins it, so that a later
 * load opens exactly that file. A library found nowhere is not named (its
 * first use then fails with dlerror's reason).
 */
void pl_lazy_files(void (*fn)(void *ud, const char *path), void *ud);

#endif
