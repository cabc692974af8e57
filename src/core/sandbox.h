/*
 * The kernel layer of the sandbox: Landlock (what paths the process may use)
 * and a seccomp filter (what system calls it may make), applied once, after
 * platter has opened what it needs itself and before the first line of an
 * untrusted script runs. Workers forked later inherit both. platter's own
 * checks (guard.h) stay on in front of it and give the messages.
 */
#ifndef PLATTER_CORE_SANDBOX_H
#define PLATTER_CORE_SANDBOX_H

#include <stddef.h>

struct pl_sandbox_opts {
    int destroy;                  /* named block devices may be written */
    int checks_only;              /* leave the kernel layer off (PLATTER_SANDBOX=checks) */
    const char *const *read_only; /* more trees to grant for reading, NULL-terminated */
};

/*
 * Restrict this process for good: read-write beneath every root of the allow
 * list (guard.h), read-only beneath /proc, /sys and o->read_only, nothing
 * else; then the seccomp filter. Returns 1 when both layers are on, 0 when
 * the process runs on platter's own checks only (why says what is missing:
 * "Landlock is not enabled in this kernel"), -errno when applying a layer
 * failed halfway (the process must not run the script then).
 */
int pl_sandbox_apply(const struct pl_sandbox_opts *o, char *why, size_t len);

/* "kernel", "checks-only" (sandboxed without the kernel layer) or "off" (trusted). */
const char *pl_sandbox_mode(void);
/* What this kernel offers, for --version -v: "Landlock ABI 7, seccomp filter". */
void pl_sandbox_support(char *buf, size_t len);

#endif
