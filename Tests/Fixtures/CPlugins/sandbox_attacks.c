/*
 * Plugins that attack their isolated worker's sandbox, one attack per build.
 *
 * Each registers one symbol and makes its attack inside `fetch`, from the
 * worker's own thread, then reports what happened as the fetch's error, so a
 * test reads the exact outcome from `host fetch`:
 *
 *   ATTACK_OPEN_PASSWD   open("/etc/passwd") for reading            PASSWD
 *   ATTACK_CONNECT       connect() to 127.0.0.1:$SANDBOX_ATTACK_PORT CONNECT
 *   ATTACK_FORK          fork()                                     FORK
 *   ATTACK_EXEC          execve("/bin/sh")                          EXEC
 *   ATTACK_WRITE_FILE    create $SANDBOX_ATTACK_FILE and write it   WRITE
 *   ATTACK_KILL_HOST     kill(getppid(), SIGKILL): the host          KILL
 *   ATTACK_PTRACE        ptrace(PTRACE_ATTACH) the host              PTRACE
 *   ATTACK_ORPHAN        fork a child named $SANDBOX_ATTACK_TOKEN
 *                        that waits forever, trying to outlive the
 *                        host; answers "1.00" when the fork worked  ORPHAN
 *   ATTACK_AWAIT_KILL    try to outlive the host: put a pipe that never
 *                        ends where the host's frames come in (fd 3),
 *                        so the worker cannot see the host go; print
 *                        "worker PID waiting" on stderr and block
 *                        forever, for a test to kill the host       AWAIT
 *
 * Messages read "<call>: <strerror>", or "<call>: succeeded" when the
 * sandbox let it through. None of these is built by `swift build`.
 */
#define _GNU_SOURCE
#include "patchbay_plugin.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

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
#else
#error "build with one ATTACK_* switch"
#endif

/* The host's table; valid for the life of the process once registered. */
static const pb_host_services *host;

/* "<call>: <strerror(errno)>" when `failed`, else "<call>: succeeded". */
__attribute__((unused)) static void outcome(char *message, size_t capacity, const char *call, int failed) {
    snprintf(message, capacity, "%s: %s", call, failed ? strerror(errno) : "succeeded");
}

static void attack(char *message, size_t capacity, const char **amount) {
    *amount = NULL;
#if defined(ATTACK_OPEN_PASSWD)
    int fd = open("/etc/passwd", O_RDONLY);
    outcome(message, capacity, "open(/etc/passwd)", fd < 0);
    if (fd >= 0) close(fd);
#elif defined(ATTACK_CONNECT)
    const char *port = getenv("SANDBOX_ATTACK_PORT");
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    if (fd < 0) {
        outcome(message, capacity, "socket(AF_INET, SOCK_STREAM)", 1);
        return;
    }
    struct sockaddr_in address = {.sin_family = AF_INET, .sin_port = htons((uint16_t)atoi(port ? port : "0"))};
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    int failed = connect(fd, (struct sockaddr *)&address, sizeof address) != 0;
    outcome(message, capacity, "connect(127.0.0.1)", failed);
    close(fd);
#elif defined(ATTACK_FORK)
    pid_t child = fork();
    if (child == 0) _exit(0);
    outcome(message, capacity, "fork()", child < 0);
    if (child > 0) waitpid(child, NULL, 0);
#elif defined(ATTACK_EXEC)
    char *const arguments[] = {"sh", "-c", "exit 0", NULL};
    execve("/bin/sh", arguments, NULL);
    outcome(message, capacity, "execve(/bin/sh)", 1);
#elif defined(ATTACK_WRITE_FILE)
    const char *path = getenv("SANDBOX_ATTACK_FILE");
    int fd = open(path ? path : "/tmp/sandbox-attack", O_WRONLY | O_CREAT | O_EXCL, 0644);
    int failed = fd < 0 || write(fd, "pwned\n", 6) != 6;
    outcome(message, capacity, "open(O_CREAT) and write", failed);
    if (fd >= 0) close(fd);
#elif defined(ATTACK_KILL_HOST)
    outcome(message, capacity, "kill(host, SIGKILL)", kill(getppid(), SIGKILL) != 0);
#elif defined(ATTACK_PTRACE)
    outcome(message, capacity, "ptrace(PTRACE_ATTACH, host)", ptrace(PTRACE_ATTACH, getppid(), NULL, NULL) != 0);
#elif defined(ATTACK_ORPHAN)
    const char *token = getenv("SANDBOX_ATTACK_TOKEN");
    pid_t child = fork();
    if (child == 0) {
        /* The name the test looks for among the processes left afterwards. */
        prctl(PR_SET_NAME, token ? token : "orphan", 0, 0, 0);
        for (;;) pause();
    }
    outcome(message, capacity, "fork()", child < 0);
    if (child > 0) *amount = "1.00";
#elif defined(ATTACK_AWAIT_KILL)
    (void)outcome;
    int never_ends[2];
    if (pipe(never_ends) == 0) dup2(never_ends[0], 3);
    /* A log line is a frame, which wakes the worker's pipe loop: it polls
     * the new fd 3 from then on. The pause gives it time to; without it the
     * test could pass on the old pipe's end of file, never fail wrongly. */
    host->log(host->host_context, PB_LOG_WARNING, "hiding the host's pipe");
    struct timespec pause_for = {.tv_sec = 0, .tv_nsec = 200 * 1000000L};
    while (nanosleep(&pause_for, &pause_for) != 0) {}
    dprintf(2, "worker %d waiting\n", (int)getpid());
    for (;;) pause();
#endif
}

static void fetch(void *context, const pb_fetch_request *request, pb_fetch_completion_fn completion, void *completion_context) {
    (void)context;
    char message[256];
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
    pb_fetcher fetcher = {
        .struct_size = sizeof fetcher,
        .symbol = ATTACK_SYMBOL,
        .display_name = "Sandbox attack " ATTACK_SYMBOL,
        .fetch = fetch,
    };
    return services->register_fetcher(services->host_context, &fetcher) == PB_OK ? PB_OK : PB_ERR_PLUGIN_FAILED;
}

static const pb_plugin_descriptor descriptor = {
    .magic = PB_PLUGIN_MAGIC,
    .abi_version = PB_PLUGIN_ABI_VERSION,
    .struct_size = sizeof(pb_plugin_descriptor),
    .name = "SandboxAttack" ATTACK_SYMBOL,
    .version = "0.1.0",
    .register_plugin = register_plugin,
};

const pb_plugin_descriptor *patchbay_plugin_entry(void) {
    return &descriptor;
}
