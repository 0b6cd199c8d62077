/*
 * Not a plugin: asks the running kernel which sandbox mechanisms it has, so
 * the sandbox tests skip only when the kernel lacks one, whatever the host
 * reports about itself; and does for the tests what Swift's Glibc module
 * does not show (a pseudo-terminal, POSIX message queues). The tests load
 * it with dlopen.
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

#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/wait.h>

static int write_text(const char *path, const char *text) {
    int fd = open(path, O_WRONLY);
    if (fd < 0) return -1;
    ssize_t written = write(fd, text, strlen(text));
    close(fd);
    return written == (ssize_t)strlen(text) ? 0 : -1;
}

/* Bits of what a child may have, found by making it: 1 when it can start in
 * new user, PID, IPC, network and mount namespaces with a /proc of its own;
 * 2 when, besides, its PID namespace's pid_max can be set (Linux 6.14). */
int kernel_probe_namespaces(void) {
    uid_t uid = getuid();
    gid_t gid = getgid();
    pid_t child = fork();
    if (child < 0) return 0;
    if (child == 0) {
        char map[64];
        if (unshare(CLONE_NEWUSER | CLONE_NEWPID | CLONE_NEWIPC | CLONE_NEWNET | CLONE_NEWNS) != 0) _exit(0);
        snprintf(map, sizeof map, "%u %u 1", uid, uid);
        if (write_text("/proc/self/setgroups", "deny") != 0 || write_text("/proc/self/uid_map", map) != 0) _exit(0);
        snprintf(map, sizeof map, "%u %u 1", gid, gid);
        if (write_text("/proc/self/gid_map", map) != 0) _exit(0);
        pid_t first = fork();
        if (first == 0) {
            if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) != 0) _exit(0);
            if (mount("proc", "/proc", "proc", 0, NULL) != 0) _exit(0);
            _exit(write_text("/proc/sys/kernel/pid_max", "301") == 0 ? 3 : 1);
        }
        int status = 0;
        if (first < 0 || waitpid(first, &status, 0) != first) _exit(0);
        _exit(WIFEXITED(status) ? WEXITSTATUS(status) : 0);
    }
    int status = 0;
    if (waitpid(child, &status, 0) != child || !WIFEXITED(status)) return 0;
    return WEXITSTATUS(status);
}

#include <mqueue.h>
#include <stdlib.h>

/* Whether the POSIX message queue `name` exists in the caller's IPC namespace. */
int kernel_probe_mq_exists(const char *name) {
    mqd_t queue = mq_open(name, O_RDONLY);
    if (queue == (mqd_t)-1) return 0;
    mq_close(queue);
    return 1;
}

/* Opens a pseudo-terminal: its leader and follower, neither the caller's
 * controlling terminal. Returns 0, or -1 with errno set. */
int kernel_probe_open_terminal(int *leader, int *follower) {
    int opened = posix_openpt(O_RDWR | O_NOCTTY);
    if (opened < 0) return -1;
    if (grantpt(opened) != 0 || unlockpt(opened) != 0) {
        close(opened);
        return -1;
    }
    const char *name = ptsname(opened);
    int other = name ? open(name, O_RDWR | O_NOCTTY) : -1;
    if (other < 0) {
        close(opened);
        return -1;
    }
    *leader = opened;
    *follower = other;
    return 0;
}
