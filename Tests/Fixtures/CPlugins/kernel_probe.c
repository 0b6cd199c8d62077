/*
 * Not a plugin: asks the running kernel which sandbox mechanisms it has, so
 * the sandbox tests skip only when the kernel lacks one, whatever the host
 * reports about itself. The tests load it with dlopen.
 */
#define _GNU_SOURCE
#include <linux/seccomp.h>
#include <stdint.h>
#include <sys/syscall.h>
#include <unistd.h>

#ifndef __NR_landlock_create_ruleset
#define __NR_landlock_create_ruleset 444
#endif

/* The kernel's Landlock ABI version, or 0 without Landlock. */
int kernel_probe_landlock_abi(void) {
    long abi = syscall(__NR_landlock_create_ruleset, NULL, 0, 1u /* LANDLOCK_CREATE_RULESET_VERSION */);
    return abi < 0 ? 0 : (int)abi;
}

/* 1 when seccomp filters can answer with an errno, on an architecture the
 * host has a filter for; else 0. */
int kernel_probe_seccomp_filters(void) {
#if defined(__x86_64__) || defined(__aarch64__)
    uint32_t action = SECCOMP_RET_ERRNO;
    return syscall(__NR_seccomp, SECCOMP_GET_ACTION_AVAIL, 0, &action) == 0;
#else
    return 0;
#endif
}
