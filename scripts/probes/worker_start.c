/*
 * worker_start: how long a plugin worker takes from exec to its first frame.
 *
 * Starts each given worker command in turn, ROUNDS times, interleaved and in a
 * shuffled order each round, exactly as the host does (fds 0 /dev/null, 1 and
 * 2 inherited, 3 frames in, 4 frames out, 5 the plugin file; the host's pid in
 * PATCHBAY_WORKER_HOST_PID), and times posix_spawn to the last byte of the
 * worker's first frame (its sandbox report). Then closes the worker's input,
 * which ends it, and reaps it. Prints one line per command: the median and the
 * 10th and 90th percentiles in microseconds, and the load average.
 *
 * Usage: worker_start ROUNDS PLUGIN.so 'CMD ARG...' ['CMD ARG...']...
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "probe_timing.h"

extern char **environ;

/* One start: the time to the first whole frame, or a negative number. */
static double start_once(char **argv, int plugin, char **envp) {
    int down[2], up[2];
    if (pipe2(down, O_CLOEXEC) || pipe2(up, O_CLOEXEC)) return -1;
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
    pid_t pid;
    double begun = now_us();
    int failed = posix_spawn(&pid, argv[0], &actions, &attributes, argv, envp);
    posix_spawn_file_actions_destroy(&actions);
    posix_spawnattr_destroy(&attributes);
    close(down[0]);
    close(up[1]);
    if (failed) {
        close(down[1]);
        close(up[0]);
        return -1;
    }
    unsigned char prefix[4];
    double elapsed = -1;
    if (read_all(up[0], prefix, 4) == 0) {
        size_t length = (size_t)prefix[0] << 24 | (size_t)prefix[1] << 16 | (size_t)prefix[2] << 8 | prefix[3];
        unsigned char *body = malloc(length ? length : 1);
        if (body && read_all(up[0], body, length) == 0) elapsed = now_us() - begun;
        free(body);
    }
    close(down[1]);
    close(up[0]);
    int status;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {}
    return elapsed;
}

int main(int argc, char **argv) {
    if (argc < 4) {
        fprintf(stderr, "usage: %s ROUNDS PLUGIN.so 'CMD ARG...' ['CMD ARG...']...\n", argv[0]);
        return 64;
    }
    int rounds = atoi(argv[1]);
    int plugin = open(argv[2], O_RDONLY | O_CLOEXEC);
    if (plugin < 0) { perror(argv[2]); return 66; }
    int commands = argc - 3;
    char ***command = calloc((size_t)commands, sizeof *command);
    for (int c = 0; c < commands; c++) {
        char *copy = strdup(argv[3 + c]);
        command[c] = calloc(64, sizeof(char *));
        int n = 0;
        for (char *word = strtok(copy, " "); word && n < 63; word = strtok(NULL, " ")) command[c][n++] = word;
    }
    /* The host's environment, plus its pid for the worker. */
    int count = 0;
    while (environ[count]) count++;
    char **envp = calloc((size_t)count + 2, sizeof(char *));
    for (int i = 0; i < count; i++) envp[i] = environ[i];
    char pid[64];
    snprintf(pid, sizeof pid, "PATCHBAY_WORKER_HOST_PID=%d", getpid());
    envp[count] = pid;

    double *times = calloc((size_t)commands * (size_t)rounds, sizeof(double));
    int *order = calloc((size_t)commands, sizeof(int));
    srand((unsigned)time(NULL));
    const int warmup = 5;
    for (int round = 0; round < rounds + warmup; round++) {
        for (int c = 0; c < commands; c++) order[c] = c;
        for (int c = commands - 1; c > 0; c--) {
            int other = rand() % (c + 1), kept = order[c];
            order[c] = order[other];
            order[other] = kept;
        }
        for (int k = 0; k < commands; k++) {
            int c = order[k];
            double elapsed = start_once(command[c], plugin, envp);
            if (elapsed < 0) {
                fprintf(stderr, "worker_start: %s sent no first frame\n", argv[3 + c]);
                return 1;
            }
            if (round >= warmup) times[c * rounds + round - warmup] = elapsed;
        }
    }
    double load[1] = {0};
    getloadavg(load, 1);
    for (int c = 0; c < commands; c++) {
        double *t = times + c * rounds;
        qsort(t, (size_t)rounds, sizeof *t, compare);
        printf("%-60s median %7.0f us  p10 %7.0f  p90 %7.0f  (load %.2f)\n", argv[3 + c], t[rounds / 2], t[rounds / 10], t[rounds * 9 / 10], load[0]);
    }
    return 0;
}
