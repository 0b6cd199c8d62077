/*
 * spawn_floor: the floor under a scan of N plugins, K at a time: how long it
 * takes to start N trivial processes (`/bin/true`), at most K at once, each
 * started as soon as a slot frees.
 *
 * Usage: spawn_floor N K [PROGRAM]    prints the seconds it took
 */
#define _GNU_SOURCE
#include <errno.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <time.h>

extern char **environ;

int main(int argc, char **argv) {
    if (argc < 3) {
        fprintf(stderr, "usage: %s N K [PROGRAM]\n", argv[0]);
        return 64;
    }
    int total = atoi(argv[1]), width = atoi(argv[2]);
    char *program = argc > 3 ? argv[3] : "/bin/true";
    char *child[] = {program, NULL};
    struct timespec begun, ended;
    clock_gettime(CLOCK_MONOTONIC, &begun);
    int started = 0, running = 0;
    while (started < total || running > 0) {
        while (running < width && started < total) {
            pid_t pid;
            if (posix_spawn(&pid, program, NULL, NULL, child, environ) != 0) {
                perror("posix_spawn");
                return 1;
            }
            started++;
            running++;
        }
        int status;
        if (wait(&status) > 0) running--;
        else if (errno != EINTR) break;
    }
    clock_gettime(CLOCK_MONOTONIC, &ended);
    printf("%.4f\n", (double)(ended.tv_sec - begun.tv_sec) + (double)(ended.tv_nsec - begun.tv_nsec) / 1e9);
    return 0;
}
