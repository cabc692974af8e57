/*
 * The system calls the sandbox's seccomp filter refuses (sandbox.c), by
 * name for libseccomp; bench/sccost.c loads the same list to measure what
 * the filter costs, and bench/cloop.c (CLOOP_SECCOMP=1) to time the C loop
 * under it. Included by those three only; pl_refuse_calls adds the rules.
 */
#ifndef PLATTER_CORE_SANDBOX_CALLS_H
#define PLATTER_CORE_SANDBOX_CALLS_H

#include <errno.h>
#include <seccomp.h>

/* Calls no workload makes; each fails with EPERM. (A sanitizer build keeps ptrace:
   LeakSanitizer stops the process's threads with it at exit.) */
static const char *const refused_calls[] = {
    "execve",
    "execveat",
#ifndef PL_SANITIZE
    "ptrace",
#endif
    "process_vm_readv",
    "process_vm_writev",
    "mount",
    "umount2",
    "pivot_root",
    "chroot",
    "fsopen",
    "fsmount",
    "fsconfig",
    "move_mount",
    "open_tree",
    "mount_setattr",
    "swapon",
    "swapoff",
    "reboot",
    "kexec_load",
    "kexec_file_load",
    "init_module",
    "finit_module",
    "delete_module",
    "bpf",
    "perf_event_open",
    "keyctl",
    "add_key",
    "request_key",
    "unshare",
    "setns",
    "acct",
    "settimeofday",
    "clock_settime",
    "clock_adjtime",
    "adjtimex",
    "sethostname",
    "setdomainname",
    "open_by_handle_at",
    "name_to_handle_at",
    "userfaultfd",
    "iopl",
    "ioperm",
    "quotactl",
    "mknod",
    "mknodat",
    "syslog",
    "vhangup",
    "uselib",
    "socket",
    "kcmp",
    "lookup_dcookie",
    "nfsservctl",
    NULL,
};

/* Add a rule to ctx for each of them: EPERM. 0, or libseccomp's negative errno. */
static inline int pl_refuse_calls(scmp_filter_ctx ctx)
{
    int rc = 0;
    for (int i = 0; refused_calls[i] && rc == 0; i++) {
        int nr = seccomp_syscall_resolve_name(refused_calls[i]);
        if (nr != __NR_SCMP_ERROR)
            rc = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EPERM), nr, 0);
    }
    return rc;
}

#endif
