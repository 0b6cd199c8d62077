/*
 * A plugin whose every symbol tries one thing that exactly one rule of the
 * worker sandbox forbids, so that a test can switch the other layers off
 * (HOST_SANDBOX_DISABLE) and see that rule hold alone. `fetch` answers with
 * an error "<call>: <strerror>", or "<call>: succeeded" when the sandbox let
 * it through. None of these is built by `swift build`.
 *
 * PROBE_DIR is a directory outside the worker's reach. For the Landlock
 * rights, each symbol names its own entry there, which the test made when
 * the probe needs one:
 *
 *   EXECUTE     fork, then execve(DIR/EXECUTE), an executable file
 *   READFILE    open(DIR/READFILE, O_RDONLY)
 *   READDIR     open(DIR/READDIR, O_DIRECTORY)
 *   WRITEFILE   open(DIR/WRITEFILE, O_WRONLY)
 *   REMOVEDIR   rmdir(DIR/REMOVEDIR)
 *   REMOVEFILE  unlink(DIR/REMOVEFILE)
 *   MAKECHAR    mknod(DIR/MAKECHAR, S_IFCHR, 1:3)
 *   MAKEDIR     mkdir(DIR/MAKEDIR)
 *   MAKEREG     open(DIR/MAKEREG, O_CREAT)
 *   MAKESOCK    bind a Unix socket to DIR/MAKESOCK
 *   MAKEFIFO    mkfifo(DIR/MAKEFIFO)
 *   MAKEBLOCK   mknod(DIR/MAKEBLOCK, S_IFBLK, 7:0)
 *   MAKESYM     symlink(DIR/MAKESYM)
 *   TRUNCATE    truncate(DIR/TRUNCATE, 0)
 *
 * For the seccomp filter's table, each a call that no other layer refuses:
 *
 *   CLONEFORK   clone3 without CLONE_THREAD: a new process
 *   FCHMOD      fchmod(1) to the mode it has: its output pipe
 *   MKNODAT     mknodat(DIR/MKNODAT, S_IFREG)
 *   TCGETS      ioctl(1, TCGETS): glibc's isatty on its output pipe
 *   FIONREAD    ioctl(1, FIONREAD): any other request on the same pipe
 *
 * And, for the parent-death signal:
 *
 *   IGNORETERM  ignore SIGTERM, hide the host's pipe (as the AWAIT attack
 *               does), print "worker waiting" and wait for ever
 *
 * With PROBE_MARKER defined, the plugin's constructor writes its process id
 * to PROBE_MARKER/marker-<pid> (where the host's process can write and a
 * sandboxed worker cannot), before anything else runs.
 */
#define _GNU_SOURCE
#include "fixture_probe.h"
#include "fixture_reader.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <sys/un.h>
#include <termios.h>
#include <sys/wait.h>
#include <unistd.h>

#ifndef __NR_clone3
#define __NR_clone3 435
#endif

#ifndef PROBE_DIR
#define PROBE_DIR "/nonexistent"
#endif

#ifdef PROBE_MARKER
__attribute__((constructor)) static void write_marker(void) {
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s/marker-%d", PROBE_MARKER, (int)getpid());
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd >= 0) close(fd);
}
#endif

/* The host's table; valid for the life of the process once registered. */
static const pb_host_services *host;


/* Runs `path` in a child; 0 when it ran, else -1 with errno the child's execve error. */
static int run_in_child(const char *path) {
    pid_t child = fork();
    if (child < 0) return -1;
    if (child == 0) {
        char *const arguments[] = {(char *)path, NULL};
        char *const environment[] = {NULL};
        execve(path, arguments, environment);
        _exit(errno & 0x7f ? errno & 0x7f : 0x7f);
    }
    int status = 0;
    if (waitpid(child, &status, 0) != child) return -1;
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0) return 0;
    errno = WIFEXITED(status) ? WEXITSTATUS(status) : EINTR;
    return -1;
}

/* clone3 with flags 0: fork by the call whose flags the filter cannot read. */
static int clone3_fork(void) {
    uint64_t arguments[11] = {0};
    arguments[4] = SIGCHLD; /* exit_signal */
    long child = syscall(__NR_clone3, arguments, sizeof arguments);
    if (child < 0) return -1;
    if (child == 0) _exit(0);
    waitpid((pid_t)child, NULL, 0);
    return 0;
}

static void probe(const char *symbol, char *message, size_t capacity) {
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s/%s", PROBE_DIR, symbol);
    int fd = -1;
    if (strcmp(symbol, "EXECUTE") == 0) {
        fixture_outcome(message, capacity, "execve", run_in_child(path) != 0);
    } else if (strcmp(symbol, "READFILE") == 0) {
        fixture_outcome(message, capacity, "open(O_RDONLY)", (fd = open(path, O_RDONLY | O_CLOEXEC)) < 0);
    } else if (strcmp(symbol, "READDIR") == 0) {
        fixture_outcome(message, capacity, "open(O_DIRECTORY)", (fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0);
    } else if (strcmp(symbol, "WRITEFILE") == 0) {
        fixture_outcome(message, capacity, "open(O_WRONLY)", (fd = open(path, O_WRONLY | O_CLOEXEC)) < 0);
    } else if (strcmp(symbol, "REMOVEDIR") == 0) {
        fixture_outcome(message, capacity, "rmdir", rmdir(path) != 0);
    } else if (strcmp(symbol, "REMOVEFILE") == 0) {
        fixture_outcome(message, capacity, "unlink", unlink(path) != 0);
    } else if (strcmp(symbol, "MAKECHAR") == 0) {
        fixture_outcome(message, capacity, "mknod(S_IFCHR)", mknod(path, S_IFCHR | 0600, makedev(1, 3)) != 0);
    } else if (strcmp(symbol, "MAKEDIR") == 0) {
        fixture_outcome(message, capacity, "mkdir", mkdir(path, 0700) != 0);
    } else if (strcmp(symbol, "MAKEREG") == 0) {
        fixture_outcome(message, capacity, "open(O_CREAT)", (fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600)) < 0);
    } else if (strcmp(symbol, "MAKESOCK") == 0) {
        struct sockaddr_un address = {.sun_family = AF_UNIX};
        size_t length = strlen(path);
        memcpy(address.sun_path, path, length < sizeof address.sun_path ? length : sizeof address.sun_path - 1);
        fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
        fixture_outcome(message, capacity, "bind(AF_UNIX)", fd < 0 || bind(fd, (struct sockaddr *)&address, sizeof address) != 0);
    } else if (strcmp(symbol, "MAKEFIFO") == 0) {
        fixture_outcome(message, capacity, "mkfifo", mkfifo(path, 0600) != 0);
    } else if (strcmp(symbol, "MAKEBLOCK") == 0) {
        fixture_outcome(message, capacity, "mknod(S_IFBLK)", mknod(path, S_IFBLK | 0600, makedev(7, 0)) != 0);
    } else if (strcmp(symbol, "MAKESYM") == 0) {
        fixture_outcome(message, capacity, "symlink", symlink("READFILE", path) != 0);
    } else if (strcmp(symbol, "TRUNCATE") == 0) {
        fixture_outcome(message, capacity, "truncate", truncate(path, 0) != 0);
    } else if (strcmp(symbol, "CLONEFORK") == 0) {
        fixture_outcome(message, capacity, "clone3(fork)", clone3_fork() != 0);
    } else if (strcmp(symbol, "FCHMOD") == 0) {
        struct stat facts;
        fixture_outcome(message, capacity, "fchmod(1, its mode)", fstat(1, &facts) != 0 || fchmod(1, facts.st_mode & 07777) != 0);
    } else if (strcmp(symbol, "MKNODAT") == 0) {
        fixture_outcome(message, capacity, "mknodat(S_IFREG)", syscall(__NR_mknodat, AT_FDCWD, path, S_IFREG | 0600, 0) != 0);
    } else if (strcmp(symbol, "TCGETS") == 0) {
        struct termios terminal;
        fixture_outcome(message, capacity, "ioctl(1, TCGETS)", ioctl(1, TCGETS, &terminal) != 0);
    } else if (strcmp(symbol, "FIONREAD") == 0) {
        int waiting = 0;
        fixture_outcome(message, capacity, "ioctl(1, FIONREAD)", ioctl(1, FIONREAD, &waiting) != 0);
    } else if (strcmp(symbol, "IGNORETERM") == 0) {
        signal(SIGTERM, SIG_IGN);
        fixture_await_reader();
        int never_ends[2];
        if (pipe(never_ends) == 0) dup2(never_ends[0], 3);
        /* As the AWAIT attack: once the host's answer is here, the worker
         * reads from the new fd 3, which never ends; only the kernel's
         * parent-death signal can end it, and it ignores SIGTERM. */
        fixture_await_answer(host);
        dprintf(2, "worker waiting\n");
        for (;;) pause();
    } else {
        snprintf(message, capacity, "no probe %s", symbol);
    }
    if (fd >= 0) close(fd);
}

static void fetch(void *context, const pb_fetch_request *request, pb_fetch_completion_fn completion, void *completion_context) {
    (void)request;
    char message[1024];
    probe((const char *)context, message, sizeof message);
    pb_fetch_result result = {.struct_size = sizeof result, .error = message};
    completion(completion_context, &result);
}

static const char *const symbols[] = {
    "EXECUTE", "READFILE", "READDIR", "WRITEFILE", "REMOVEDIR", "REMOVEFILE", "MAKECHAR", "MAKEDIR", "MAKEREG", "MAKESOCK",
    "MAKEFIFO", "MAKEBLOCK", "MAKESYM", "TRUNCATE", "CLONEFORK", "FCHMOD", "MKNODAT", "TCGETS", "FIONREAD",
    "IGNORETERM",
};

static pb_status register_plugin(const pb_host_services *services) {
    host = services;
    return fixture_register_each(services, symbols, sizeof symbols / sizeof symbols[0], fetch);
}

FIXTURE_PLUGIN("SingleRuleProbes")
