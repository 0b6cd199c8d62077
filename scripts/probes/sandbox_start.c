/*
 * sandbox_start: what the worker sandbox's start costs, exec to first frame.
 *
 * Starts each given worker in turn, ROUNDS times, interleaved and in a
 * shuffled order each round, and times the start to the last byte of the
 * worker's first frame (its sandbox report, sent once it has confined
 * itself). Each worker is given as MODE:PATH, where MODE is how it starts:
 *
 *   posix   posix_spawn with the host's environment, as the host did before
 *           this sandbox (fds 1 and 2 inherited): for a build of `main`
 *           from before it, today's sandbox;
 *   plain   pb_spawn_worker with no namespace, the allow-listed environment
 *           and the output pipe: every layer but the namespaces;
 *   shared  pb_spawn_worker with every namespace but the UTS one and the
 *           worker's own root: as the host started one before issue 35;
 *   full    pb_spawn_worker with every namespace and a root of its own, as
 *           the host starts one now (the file run by its descriptor): the root holds the worker's directory,
 *           $SWIFT_RUNTIME (the Swift runtime's directory, when set) and the
 *           system's library directories, as `WorkerRoot` computes them.
 *
 * The namespaces every worker of a host shares are made once, before the
 * rounds, and timed on their own (`pb_spawn_prepare_shared`), ROUNDS times
 * in fresh children of this process. Prints two lines per worker: its
 * start, and its end (from closing its input to reaping it: a namespace's
 * first process takes its namespaces down as it exits), with the load average.
 * With a full and a shared worker, also what the root adds: full minus
 * shared within each round, whose median is steadier than the difference of
 * the two medians when the machine's speed changes between rounds.
 *
 * A WORKER may carry its arguments after a space: 'posix:/old/host plugin-worker'.
 *
 * Usage: sandbox_start ROUNDS PLUGIN.so MODE:WORKER [MODE:WORKER]...
 */
#define _GNU_SOURCE
#include "worker_spawn.h"

#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <limits.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "probe_timing.h"

extern char **environ;

typedef enum mode { MODE_POSIX, MODE_PLAIN, MODE_FULL, MODE_SHARED } mode;

/* The worker's own root, as WorkerRoot makes it for `worker` (no path there lies beneath another). */
static const char *root_paths[8];
static uint32_t root_path_count;
static void plan_root(const char *worker) {
    static char directory[PATH_MAX], runtime[PATH_MAX];
    if (realpath(worker, directory)) {
        *strrchr(directory, '/') = '\0';
        root_paths[root_path_count++] = directory;
    }
    const char *swift = getenv("SWIFT_RUNTIME");
    if (swift && realpath(swift, runtime)) root_paths[root_path_count++] = runtime;
    static const char *const system[] = {"/lib", "/lib64", "/usr/lib", "/usr/lib64", "/etc/ld.so.cache"};
    for (size_t i = 0; i < sizeof system / sizeof *system; i++) root_paths[root_path_count++] = system[i];
}

static pb_spawn_shared shared = {.struct_size = sizeof shared, .user_fd = -1, .net_fd = -1};
static char *allowed_environment[] = {"SWIFT_BACKTRACE=enable=no,swift-backtrace=", "LIBDISPATCH_LOG=NO", NULL};

/* The last start's end: from closing the worker's input to reaping it. */
static double last_end_us;

/* One start: the time to the first whole frame, or a negative number. */
static double start_once(mode mode, const char *path, int executable, int plugin, int null_device) {
    int down[2], up[2], output[2];
    if (pipe2(down, O_CLOEXEC) || pipe2(up, O_CLOEXEC) || pipe2(output, O_CLOEXEC)) return -1;
    /* A worker may be given with its arguments, e.g. "/old/host plugin-worker",
     * the worker before it was an executable of its own. */
    char words[4096];
    snprintf(words, sizeof words, "%s", path);
    char *argv[8] = {NULL};
    int count = 0;
    for (char *word = strtok(words, " "); word && count < 7; word = strtok(NULL, " ")) argv[count++] = word;
    if (count == 0) return -1;
    path = argv[0];
    pid_t pid = -1;
    double begun = now_us();
    if (mode == MODE_POSIX) {
        posix_spawn_file_actions_t actions;
        posix_spawn_file_actions_init(&actions);
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
        posix_spawn_file_actions_adddup2(&actions, down[0], 3);
        posix_spawn_file_actions_adddup2(&actions, up[1], 4);
        posix_spawn_file_actions_adddup2(&actions, plugin, 5);
        posix_spawnattr_t attributes;
        posix_spawnattr_init(&attributes);
        posix_spawnattr_setpgroup(&attributes, 0);
        posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETPGROUP);
        int failed = posix_spawn(&pid, path, &actions, &attributes, argv, environ);
        posix_spawn_file_actions_destroy(&actions);
        posix_spawnattr_destroy(&attributes);
        if (failed) pid = -1;
    } else {
        int32_t descriptors[] = {null_device, output[1], output[1], down[0], up[1], plugin};
        pb_spawn_request request = {
            .struct_size = sizeof request,
            .namespaces = mode == MODE_FULL ? PB_SPAWN_ALL_NAMESPACES : mode == MODE_SHARED ? PB_SPAWN_ALL_NAMESPACES & ~(PB_SPAWN_ROOT | PB_SPAWN_UTS) : 0,
            .root_paths = root_paths, .root_path_count = mode == MODE_FULL ? root_path_count : 0, .path = path, .argv = argv,
            .envp = allowed_environment, .descriptors = descriptors, .descriptor_count = 6, .shared_user_fd = shared.user_fd,
            .shared_net_fd = shared.net_fd, .uid = getuid(), .gid = getgid(), .max_tasks = 300, .executable_fd = executable,
        };
        pb_spawn_result result = {.struct_size = sizeof result};
        if (pb_spawn_worker(&request, &result) == 0) pid = result.pid;
    }
    close(down[0]);
    close(up[1]);
    close(output[1]);
    double elapsed = -1;
    unsigned char prefix[4];
    if (pid > 0 && read_all(up[0], prefix, 4) == 0) {
        size_t length = (size_t)prefix[0] << 24 | (size_t)prefix[1] << 16 | (size_t)prefix[2] << 8 | prefix[3];
        unsigned char *body = malloc(length ? length : 1);
        if (body && read_all(up[0], body, length) == 0) elapsed = now_us() - begun;
        free(body);
    }
    double ending = now_us();
    close(down[1]);
    close(up[0]);
    close(output[0]);
    int status;
    if (pid > 0) {
        while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {}
    }
    last_end_us = now_us() - ending;
    return elapsed;
}

/* The shared namespaces, made once per host: timed in a fresh child each round. */
static double prepare_once(void) {
    int timing[2];
    if (pipe(timing)) return -1;
    pid_t child = fork();
    if (child == 0) {
        pb_spawn_shared fresh = {.struct_size = sizeof fresh};
        double begun = now_us();
        pb_spawn_prepare_shared(getuid(), getgid(), &fresh);
        double elapsed = fresh.net_fd >= 0 ? now_us() - begun : -1;
        (void)!write(timing[1], &elapsed, sizeof elapsed);
        _exit(0);
    }
    close(timing[1]);
    double elapsed = -1;
    if (child < 0 || read(timing[0], &elapsed, sizeof elapsed) != sizeof elapsed) elapsed = -1;
    close(timing[0]);
    if (child > 0) waitpid(child, NULL, 0);
    return elapsed;
}

static void report(const char *name, double *t, int rounds, double load) {
    qsort(t, (size_t)rounds, sizeof *t, compare);
    printf("%-64s median %7.0f us  p10 %7.0f  p90 %7.0f  (load %.2f)\n", name, t[rounds / 2], t[rounds / 10], t[rounds * 9 / 10], load);
}

int main(int argc, char **argv) {
    if (argc < 4) {
        fprintf(stderr, "usage: %s ROUNDS PLUGIN.so MODE:WORKER [MODE:WORKER]...\n", argv[0]);
        return 64;
    }
    int rounds = atoi(argv[1]);
    int plugin = open(argv[2], O_RDONLY | O_CLOEXEC);
    int null_device = open("/dev/null", O_RDONLY | O_CLOEXEC);
    if (plugin < 0 || null_device < 0) {
        perror(argv[2]);
        return 66;
    }
    int workers = argc - 3;
    mode *modes = calloc((size_t)workers, sizeof *modes);
    const char **paths = calloc((size_t)workers, sizeof *paths);
    int *executables = calloc((size_t)workers, sizeof *executables);
    for (int w = 0; w < workers; w++) executables[w] = -1;
    for (int w = 0; w < workers; w++) {
        char *colon = strchr(argv[3 + w], ':');
        if (!colon) {
            fprintf(stderr, "sandbox_start: %s is not MODE:WORKER\n", argv[3 + w]);
            return 64;
        }
        *colon = '\0';
        modes[w] = strcmp(argv[3 + w], "posix") == 0   ? MODE_POSIX
                   : strcmp(argv[3 + w], "plain") == 0  ? MODE_PLAIN
                   : strcmp(argv[3 + w], "shared") == 0 ? MODE_SHARED
                                                        : MODE_FULL;
        paths[w] = colon + 1;
        if (modes[w] == MODE_FULL) {
            /* Its own root holds the real path only, as the host runs it. */
            static char real[PATH_MAX];
            if (root_path_count == 0) plan_root(paths[w]);
            if (realpath(paths[w], real)) paths[w] = real;
            /* And runs the file it opened, as the host does (once per run). */
            executables[w] = open(paths[w], O_PATH | O_CLOEXEC);
        }
    }
    pb_spawn_prepare_shared(getuid(), getgid(), &shared);
    if (shared.net_fd < 0) fprintf(stderr, "sandbox_start: no shared network namespace: %s\n", strerror(shared.net_errno));

    double *times = calloc((size_t)(workers + 1) * (size_t)rounds, sizeof(double));
    double *ends = calloc((size_t)workers * (size_t)rounds, sizeof(double));
    double *paired = calloc((size_t)workers * (size_t)rounds, sizeof(double));
    int *order = calloc((size_t)workers + 1, sizeof(int));
    srand((unsigned)time(NULL));
    const int warmup = 5;
    for (int round = 0; round < rounds + warmup; round++) {
        for (int w = 0; w <= workers; w++) order[w] = w;
        for (int w = workers; w > 0; w--) {
            int other = rand() % (w + 1), kept = order[w];
            order[w] = order[other];
            order[other] = kept;
        }
        for (int k = 0; k <= workers; k++) {
            int w = order[k];
            double elapsed = w == workers ? prepare_once() : start_once(modes[w], paths[w], executables[w], plugin, null_device);
            if (elapsed < 0) {
                fprintf(stderr, "sandbox_start: %s failed\n", w == workers ? "the shared namespaces" : paths[w]);
                return 1;
            }
            if (round >= warmup) times[w * rounds + round - warmup] = elapsed;
            if (round >= warmup && w < workers) paired[w * rounds + round - warmup] = elapsed;
            if (round >= warmup && w < workers) ends[w * rounds + round - warmup] = last_end_us;
        }
    }
    double load[1] = {0};
    getloadavg(load, 1);
    static const char *const names[] = {"posix", "plain", "full", "shared"};
    for (int w = 0; w < workers; w++) {
        char name[4096];
        snprintf(name, sizeof name, "%s:%s", names[modes[w]], paths[w]);
        report(name, times + w * rounds, rounds, load[0]);
        snprintf(name, sizeof name, "  and its end, input closed to reaped");
        report(name, ends + w * rounds, rounds, load[0]);
    }
    report("the shared user and network namespaces, once per host", times + workers * rounds, rounds, load[0]);
    int full = -1, plain_shared = -1;
    for (int w = 0; w < workers; w++) {
        if (modes[w] == MODE_FULL && full < 0) full = w;
        if (modes[w] == MODE_SHARED && plain_shared < 0) plain_shared = w;
    }
    if (full >= 0 && plain_shared >= 0) {
        /* times[] is sorted per worker by now: pair the rounds from their copies. */
        double *added = calloc((size_t)rounds, sizeof(double));
        for (int r = 0; r < rounds; r++) added[r] = paired[full * rounds + r] - paired[plain_shared * rounds + r];
        report("the root and UTS namespace: full minus shared, each round", added, rounds, load[0]);
        free(added);
    }
    return 0;
}
