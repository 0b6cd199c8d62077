/*
 * What the start-up probes share: a clock, a comparison for qsort, and a
 * read that gets every byte it asks for. Header-only; each probe is one
 * translation unit.
 */
#ifndef PATCHBAY_PROBE_TIMING_H
#define PATCHBAY_PROBE_TIMING_H

#include <errno.h>
#include <stddef.h>
#include <time.h>
#include <unistd.h>

/* The monotonic clock, in microseconds. */
static inline double now_us(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e6 + t.tv_nsec / 1e3;
}

/* Orders doubles, for qsort. */
static inline int compare(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Reads exactly `count` bytes; -1 on an error or an early end of file. */
static inline int read_all(int fd, unsigned char *buffer, size_t count) {
    size_t done = 0;
    while (done < count) {
        ssize_t n = read(fd, buffer + done, count - done);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return -1;
        done += (size_t)n;
    }
    return 0;
}

#endif /* PATCHBAY_PROBE_TIMING_H */
