/*
 * For fixtures that hide the host's pipe from their worker (the
 * parent-death tests). Needs _GNU_SOURCE, defined before any include.
 *
 *   fixture_await_reader()   until the worker's reading thread waits on the
 *                            host's pipe (fd 3), before a plugin hides that
 *                            pipe behind another
 */
#ifndef FIXTURE_READER_H
#define FIXTURE_READER_H

#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

/* Waits until the worker's main thread, which reads the host's frames, is
 * blocked in read(3, ...), as its own /proc says ("<nr> 0x3 ..."). A plugin
 * that replaces fd 3 before then makes that thread's first read the new
 * pipe's, and the host's next answer never arrives. Without a readable
 * /proc it goes on at once. */
static inline void fixture_await_reader(void) {
    char expected[32];
    snprintf(expected, sizeof expected, "%d 0x3 ", (int)SYS_read);
    for (int tries = 0; tries < 100000; tries++) {
        char line[128] = {0};
        int fd = open("/proc/self/syscall", O_RDONLY | O_CLOEXEC);
        if (fd < 0) return;
        ssize_t count = read(fd, line, sizeof line - 1);
        close(fd);
        if (count > 0 && strncmp(line, expected, strlen(expected)) == 0) return;
        struct timespec pause_for = {.tv_sec = 0, .tv_nsec = 1000000};
        nanosleep(&pause_for, NULL);
    }
}

#endif /* FIXTURE_READER_H */
