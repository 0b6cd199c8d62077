/*
 * Plugins that attack their isolated worker's sandbox, one attack per build.
 *
 * Each registers one symbol and makes its attack inside `fetch`, from the
 * worker's own thread (or, where it says so, while it registers, so that
 * `host inspect` sees it), then reports what happened as the fetch's error,
 * so a test reads the exact outcome from `host fetch`. A worker sees none of
 * the test's environment, so a test's values are compiled in (-D):
 *
 *   ATTACK_OPEN_PASSWD   open("/etc/passwd") for reading            PASSWD
 *   ATTACK_CONNECT       connect() to 127.0.0.1:SANDBOX_ATTACK_PORT  CONNECT
 *   ATTACK_FORK          fork()                                     FORK
 *   ATTACK_EXEC          execve("/bin/sh")                          EXEC
 *   ATTACK_WRITE_FILE    create SANDBOX_ATTACK_FILE and write it    WRITE
 *   ATTACK_KILL_HOST     kill(getppid(), SIGKILL): the host          KILL
 *   ATTACK_PTRACE        ptrace(PTRACE_ATTACH) the host              PTRACE
 *   ATTACK_ORPHAN        fork a child named SANDBOX_ATTACK_TOKEN
 *                        that waits forever, trying to outlive the
 *                        host; answers "1.00" when the fork worked  ORPHAN
 *   ATTACK_AWAIT_KILL    try to outlive the host: put a pipe that never
 *                        ends where the host's frames come in (fd 3),
 *                        and have the host answer an http_get, so the
 *                        worker reads the new fd 3 from then on and
 *                        cannot see the host go; print "worker
 *                        waiting" on stderr and block forever, for a
 *                        test to kill the host                      AWAIT
 *   ATTACK_TIOCSTI       ioctl(2, TIOCSTI, "x"): type into the
 *                        terminal the host's stderr may be          TIOCSTI
 *   ATTACK_TCSETATTR     tcsetattr(2) with echo turned off          TCSET
 *   ATTACK_OPEN_TTY      open("/dev/tty"): the controlling terminal TTY
 *   ATTACK_SHM           shmget(SANDBOX_ATTACK_SHM_KEY) and
 *                        shmat(SANDBOX_ATTACK_SHM_ID): a segment the
 *                        test made                                  SHM
 *   ATTACK_MSGGET        msgget(IPC_PRIVATE, IPC_CREAT): a queue
 *                        left behind                                MSG
 *   ATTACK_MQ_OPEN       mq_open("/SANDBOX_ATTACK_TOKEN", O_CREAT)  MQ
 *   ATTACK_ENVIRONMENT   the names in its environment, and whether
 *                        SANDBOX_ATTACK_TOKEN appears in any value
 *                        or in /proc/self/environ                   ENV
 *   ATTACK_FTRUNCATE     ftruncate(2, 0): empty the host's log      TRUNC
 *   ATTACK_INOTIFY       inotify_init1 and a watch on
 *                        SANDBOX_ATTACK_DIR                         WATCH
 *   ATTACK_PIDFD         pidfd_open(the parent) and pidfd_getfd of
 *                        its descriptor 2                           PIDFD
 *   ATTACK_PERSONALITY   personality(0xffffffff), while it
 *                        registers                                  PERS
 *   ATTACK_KCMP          kcmp(self, parent, KCMP_FILE, 2, 2), while
 *                        it registers                               KCMP
 *   ATTACK_RENAME        prctl(PR_SET_NAME, "sshd"): pass for
 *                        another program in ps                      RENAME
 *   ATTACK_DESCRIPTORS   the descriptors it holds, from 0 to 1023,
 *                        and what 0, 1 and 2 are                    FDS
 *   ATTACK_SIGSYS        take over SIGSYS, to hide what the filter
 *                        refuses                                    SIGSYS
 *   ATTACK_SETOWN        fcntl(0, F_SETOWN, parent): have the
 *                        kernel signal another process              SETOWN
 *   ATTACK_OVERWRITE     open SANDBOX_ATTACK_FILE, which exists,
 *                        for writing, and write it                  OVERWR
 *   ATTACK_MKNOD         mknod(SANDBOX_ATTACK_FILE, S_IFREG): make
 *                        a file without opening it                  MKNOD
 *   ATTACK_PDEATHSIG     prctl(PR_SET_PDEATHSIG, 0): take back the
 *                        parent-death signal, to outlive the host   PDEATH
 *   ATTACK_TGKILL        tgkill(parent, parent, 0): signal a thread
 *                        of another process                         TGKILL
 *   ATTACK_SIGNAL_HOST   kill(getppid(), 0): signal the host        SIGNAL
 *
 * Messages read "<call>: <strerror>", or "<call>: succeeded" when the
 * sandbox let it through. None of these is built by `swift build`.
 */
#define _GNU_SOURCE
#include "fixture_probe.h"
#include "fixture_reader.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/kcmp.h>
#include <mqueue.h>
#include <netinet/in.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/inotify.h>
#include <sys/ioctl.h>
#include <sys/ipc.h>
#include <sys/msg.h>
#include <sys/personality.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/shm.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#ifndef __NR_pidfd_open
#define __NR_pidfd_open 434
#endif
#ifndef __NR_pidfd_getfd
#define __NR_pidfd_getfd 438
#endif

extern char **environ;

#if defined(ATTACK_OPEN_PASSWD)
#define ATTACK_SYMBOL "PASSWD"
#elif defined(ATTACK_CONNECT)
#define ATTACK_SYMBOL "CONNECT"
#elif defined(ATTACK_FORK)
#define ATTACK_SYMBOL "FORK"
#elif defined(ATTACK_EXEC)
#define ATTACK_SYMBOL "EXEC"
#elif defined(ATTACK_WRITE_FILE)
#define ATTACK_SYMBOL "WRITE"
#elif defined(ATTACK_KILL_HOST)
#define ATTACK_SYMBOL "KILL"
#elif defined(ATTACK_PTRACE)
#define ATTACK_SYMBOL "PTRACE"
#elif defined(ATTACK_ORPHAN)
#define ATTACK_SYMBOL "ORPHAN"
#elif defined(ATTACK_AWAIT_KILL)
#define ATTACK_SYMBOL "AWAIT"
#elif defined(ATTACK_TIOCSTI)
#define ATTACK_SYMBOL "TIOCSTI"
#elif defined(ATTACK_TCSETATTR)
#define ATTACK_SYMBOL "TCSET"
#elif defined(ATTACK_OPEN_TTY)
#define ATTACK_SYMBOL "TTY"
#elif defined(ATTACK_SHM)
#define ATTACK_SYMBOL "SHM"
#elif defined(ATTACK_MSGGET)
#define ATTACK_SYMBOL "MSG"
#elif defined(ATTACK_MQ_OPEN)
#define ATTACK_SYMBOL "MQ"
#elif defined(ATTACK_ENVIRONMENT)
#define ATTACK_SYMBOL "ENV"
#elif defined(ATTACK_FTRUNCATE)
#define ATTACK_SYMBOL "TRUNC"
#elif defined(ATTACK_INOTIFY)
#define ATTACK_SYMBOL "WATCH"
#elif defined(ATTACK_PIDFD)
#define ATTACK_SYMBOL "PIDFD"
#elif defined(ATTACK_PERSONALITY)
#define ATTACK_SYMBOL "PERS"
#define ATTACK_WHILE_REGISTERING
#elif defined(ATTACK_KCMP)
#define ATTACK_SYMBOL "KCMP"
#define ATTACK_WHILE_REGISTERING
#elif defined(ATTACK_RENAME)
#define ATTACK_SYMBOL "RENAME"
#elif defined(ATTACK_DESCRIPTORS)
#define ATTACK_SYMBOL "FDS"
#elif defined(ATTACK_SIGSYS)
#define ATTACK_SYMBOL "SIGSYS"
#elif defined(ATTACK_SETOWN)
#define ATTACK_SYMBOL "SETOWN"
#elif defined(ATTACK_OVERWRITE)
#define ATTACK_SYMBOL "OVERWR"
#elif defined(ATTACK_MKNOD)
#define ATTACK_SYMBOL "MKNOD"
#elif defined(ATTACK_PDEATHSIG)
#define ATTACK_SYMBOL "PDEATH"
#elif defined(ATTACK_TGKILL)
#define ATTACK_SYMBOL "TGKILL"
#elif defined(ATTACK_SIGNAL_HOST)
#define ATTACK_SYMBOL "SIGNAL"
#else
#error "build with one ATTACK_* switch"
#endif

/* The host's table; valid for the life of the process once registered. */
static const pb_host_services *host;

#ifdef ATTACK_WHILE_REGISTERING
/* What the attack made while registering got, for `fetch` to report. */
static char registering_outcome[256];
#endif



static void attack(char *message, size_t capacity, const char **amount) {
    *amount = NULL;
#if defined(ATTACK_OPEN_PASSWD)
    int fd = open("/etc/passwd", O_RDONLY);
    fixture_outcome(message, capacity, "open(/etc/passwd)", fd < 0);
    if (fd >= 0) close(fd);
#elif defined(ATTACK_CONNECT)
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    if (fd < 0) {
        fixture_outcome(message, capacity, "socket(AF_INET, SOCK_STREAM)", 1);
        return;
    }
    struct sockaddr_in address = {.sin_family = AF_INET, .sin_port = htons((uint16_t)(SANDBOX_ATTACK_PORT))};
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    int failed = connect(fd, (struct sockaddr *)&address, sizeof address) != 0;
    fixture_outcome(message, capacity, "connect(127.0.0.1)", failed);
    close(fd);
#elif defined(ATTACK_FORK)
    pid_t child = fork();
    if (child == 0) _exit(0);
    fixture_outcome(message, capacity, "fork()", child < 0);
    if (child > 0) waitpid(child, NULL, 0);
#elif defined(ATTACK_EXEC)
    char *const arguments[] = {"sh", "-c", "exit 0", NULL};
    execve("/bin/sh", arguments, NULL);
    fixture_outcome(message, capacity, "execve(/bin/sh)", 1);
#elif defined(ATTACK_WRITE_FILE)
    int fd = open(SANDBOX_ATTACK_FILE, O_WRONLY | O_CREAT | O_EXCL, 0644);
    int failed = fd < 0 || write(fd, "pwned\n", 6) != 6;
    fixture_outcome(message, capacity, "open(O_CREAT) and write", failed);
    if (fd >= 0) close(fd);
#elif defined(ATTACK_KILL_HOST)
    fixture_outcome(message, capacity, "kill(host, SIGKILL)", kill(getppid(), SIGKILL) != 0);
#elif defined(ATTACK_PTRACE)
    fixture_outcome(message, capacity, "ptrace(PTRACE_ATTACH, host)", ptrace(PTRACE_ATTACH, getppid(), NULL, NULL) != 0);
#elif defined(ATTACK_ORPHAN)
    pid_t child = fork();
    if (child == 0) {
        /* The name the test looks for among the processes left afterwards. */
        prctl(PR_SET_NAME, SANDBOX_ATTACK_TOKEN, 0, 0, 0);
        for (;;) pause();
    }
    fixture_outcome(message, capacity, "fork()", child < 0);
    if (child > 0) *amount = "1.00";
#elif defined(ATTACK_AWAIT_KILL)
    /* The worker's reading thread must be waiting on the host's pipe before
     * fd 3 is replaced: had it not read yet, its first read would be the new
     * pipe's, and the answer below would never come. */
    fixture_await_reader();
    int never_ends[2];
    if (pipe(never_ends) == 0) dup2(never_ends[0], 3);
    /* An answer from the host lets the waiting read return, and the next
     * one waits on the new fd 3, which never ends. Once the answer is here,
     * the worker can no longer see the host go; only the kernel can end it. */
    fixture_await_answer(host);
    dprintf(2, "worker waiting\n");
    for (;;) pause();
#elif defined(ATTACK_TIOCSTI)
    fixture_outcome(message, capacity, "ioctl(2, TIOCSTI)", ioctl(2, TIOCSTI, "x") != 0);
#elif defined(ATTACK_TCSETATTR)
    struct termios settings;
    memset(&settings, 0, sizeof settings);
    /* Whatever tcgetattr answers, try to set: echo off, as a password thief would. */
    (void)tcgetattr(2, &settings);
    settings.c_lflag &= ~(tcflag_t)ECHO;
    fixture_outcome(message, capacity, "tcsetattr(2)", tcsetattr(2, TCSANOW, &settings) != 0);
#elif defined(ATTACK_OPEN_TTY)
    int fd = open("/dev/tty", O_RDWR);
    fixture_outcome(message, capacity, "open(/dev/tty)", fd < 0);
    if (fd >= 0) close(fd);
#elif defined(ATTACK_SHM)
    char got[128], attached[128];
    int id = shmget((key_t)(SANDBOX_ATTACK_SHM_KEY), 0, 0);
    fixture_outcome(got, sizeof got, "shmget(the test's key)", id < 0);
    void *segment = shmat(SANDBOX_ATTACK_SHM_ID, NULL, SHM_RDONLY);
    fixture_outcome(attached, sizeof attached, "shmat(the test's id)", segment == (void *)-1);
    if (segment != (void *)-1) shmdt(segment);
    snprintf(message, capacity, "%s; %s", got, attached);
#elif defined(ATTACK_MSGGET)
    fixture_outcome(message, capacity, "msgget(IPC_PRIVATE)", msgget(IPC_PRIVATE, IPC_CREAT | 0600) < 0);
#elif defined(ATTACK_MQ_OPEN)
    mqd_t queue = mq_open("/" SANDBOX_ATTACK_TOKEN, O_CREAT | O_RDWR, 0600, NULL);
    fixture_outcome(message, capacity, "mq_open", queue == (mqd_t)-1);
#elif defined(ATTACK_ENVIRONMENT)
    /* Every name, in the order of the environment, and whether the token is anywhere. */
    int seen = 0;
    size_t used = (size_t)snprintf(message, capacity, "environment:");
    for (char **entry = environ; *entry && used < capacity; entry++) {
        const char *equals = strchr(*entry, '=');
        int length = equals ? (int)(equals - *entry) : (int)strlen(*entry);
        used += (size_t)snprintf(message + used, capacity - used, " %.*s", length, *entry);
        if (strstr(*entry, SANDBOX_ATTACK_TOKEN)) seen = 1;
    }
    char environ_file[8192];
    int fd = open("/proc/self/environ", O_RDONLY);
    ssize_t length = fd >= 0 ? read(fd, environ_file, sizeof environ_file - 1) : -1;
    if (fd >= 0) close(fd);
    for (ssize_t at = 0; length > 0 && at < length; at += (ssize_t)strlen(environ_file + at) + 1) {
        environ_file[length] = '\0';
        if (strstr(environ_file + at, SANDBOX_ATTACK_TOKEN)) seen = 1;
    }
    if (used < capacity) snprintf(message + used, capacity - used, "; token %s", seen ? "seen" : "unseen");
#elif defined(ATTACK_FTRUNCATE)
    fixture_outcome(message, capacity, "ftruncate(2, 0)", ftruncate(2, 0) != 0);
#elif defined(ATTACK_INOTIFY)
    int watcher = inotify_init1(IN_CLOEXEC);
    if (watcher < 0) {
        fixture_outcome(message, capacity, "inotify_init1", 1);
        return;
    }
    fixture_outcome(message, capacity, "inotify_add_watch(the test's directory)", inotify_add_watch(watcher, SANDBOX_ATTACK_DIR, IN_ALL_EVENTS) < 0);
    close(watcher);
#elif defined(ATTACK_PIDFD)
    int process = (int)syscall(__NR_pidfd_open, getppid(), 0);
    if (process < 0) {
        fixture_outcome(message, capacity, "pidfd_open(the parent)", 1);
        return;
    }
    int stolen = (int)syscall(__NR_pidfd_getfd, process, 2, 0);
    fixture_outcome(message, capacity, "pidfd_getfd(the parent's 2)", stolen < 0);
    if (stolen >= 0) close(stolen);
    close(process);
#elif defined(ATTACK_WHILE_REGISTERING)
    snprintf(message, capacity, "%s", registering_outcome);
#elif defined(ATTACK_RENAME)
    fixture_outcome(message, capacity, "prctl(PR_SET_NAME, sshd)", prctl(PR_SET_NAME, "sshd", 0, 0, 0) != 0);
#elif defined(ATTACK_DESCRIPTORS)
    size_t used = (size_t)snprintf(message, capacity, "descriptors:");
    for (int fd = 0; fd < 1024 && used < capacity; fd++) {
        if (fcntl(fd, F_GETFD) >= 0) used += (size_t)snprintf(message + used, capacity - used, " %d", fd);
    }
    static const char *const names[] = {"0", "1", "2"};
    for (int fd = 0; fd < 3 && used < capacity; fd++) {
        struct stat facts;
        const char *kind = fstat(fd, &facts) != 0 ? "closed" : S_ISFIFO(facts.st_mode) ? "a pipe" : S_ISCHR(facts.st_mode) ? "a device" : "a file";
        used += (size_t)snprintf(message + used, capacity - used, "%s %s %s", fd == 0 ? ";" : ",", names[fd], kind);
    }
#elif defined(ATTACK_SIGSYS)
    struct sigaction ignore;
    memset(&ignore, 0, sizeof ignore);
    ignore.sa_handler = SIG_IGN;
    fixture_outcome(message, capacity, "sigaction(SIGSYS)", sigaction(SIGSYS, &ignore, NULL) != 0);
#elif defined(ATTACK_SETOWN)
    fixture_outcome(message, capacity, "fcntl(0, F_SETOWN, parent)", fcntl(0, F_SETOWN, getppid() ? getppid() : 1) != 0);
#elif defined(ATTACK_OVERWRITE)
    int fd = open(SANDBOX_ATTACK_FILE, O_WRONLY);
    int failed = fd < 0 || write(fd, "pwned\n", 6) != 6;
    fixture_outcome(message, capacity, "open(O_WRONLY) and write", failed);
    if (fd >= 0) close(fd);
#elif defined(ATTACK_MKNOD)
    fixture_outcome(message, capacity, "mknod(S_IFREG)", mknod(SANDBOX_ATTACK_FILE, S_IFREG | 0600, 0) != 0);
#elif defined(ATTACK_PDEATHSIG)
    fixture_outcome(message, capacity, "prctl(PR_SET_PDEATHSIG, 0)", prctl(PR_SET_PDEATHSIG, 0, 0, 0, 0) != 0);
#elif defined(ATTACK_TGKILL)
    /* In a PID namespace of its own the parent is 0, which only the filter refuses with EPERM (the kernel says EINVAL). */
    fixture_outcome(message, capacity, "tgkill(parent, parent, 0)", syscall(SYS_tgkill, getppid(), getppid(), 0) != 0);
#elif defined(ATTACK_SIGNAL_HOST)
    fixture_outcome(message, capacity, "kill(host, 0)", kill(getppid(), 0) != 0);
#endif
}

static void fetch(void *context, const pb_fetch_request *request, pb_fetch_completion_fn completion, void *completion_context) {
    (void)context;
    char message[1024];
    const char *amount;
    attack(message, sizeof message, &amount);
    pb_fetch_result result = {
        .struct_size = sizeof result,
        .base = amount ? ATTACK_SYMBOL : NULL,
        .currency = amount ? request->currency : NULL,
        .amount = amount,
        .error = amount ? NULL : message,
    };
    completion(completion_context, &result);
}

static pb_status register_plugin(const pb_host_services *services) {
    host = services;
#if defined(ATTACK_PERSONALITY)
    fixture_outcome(registering_outcome, sizeof registering_outcome, "personality(0xffffffff)", personality(0xffffffff) == -1);
#elif defined(ATTACK_KCMP)
    fixture_outcome(registering_outcome, sizeof registering_outcome, "kcmp(self, parent, KCMP_FILE)",
            syscall(__NR_kcmp, getpid(), getppid(), KCMP_FILE, 2, 2) < 0);
#endif
    pb_fetcher fetcher = {
        .struct_size = sizeof fetcher,
        .symbol = ATTACK_SYMBOL,
        .display_name = "Sandbox attack " ATTACK_SYMBOL,
        .fetch = fetch,
    };
    return services->register_fetcher(services->host_context, &fetcher) == PB_OK ? PB_OK : PB_ERR_PLUGIN_FAILED;
}

FIXTURE_PLUGIN("SandboxAttack" ATTACK_SYMBOL)
