/*
 * A plugin that asks what its worker can learn of the machine: the files,
 * mounts, processes and kernel state a worker with a root of its own (issue
 * 35) must not see. Each symbol's fetch reports one group of findings as its
 * error, so a test reads the exact outcome from `host fetch`:
 *
 *   FILES   stat, faccessat and readlink of ROOT_PROBE_MARKER and
 *           ROOT_PROBE_LINK (a file and a link in the test's home)
 *   CWD     getcwd, and where /proc/self/cwd points
 *   MOUNTS  every mount point in /proc/self/mountinfo, sorted
 *   KERNEL  /proc/cmdline, boot_id, /proc/keys, /proc/loadavg, /proc/stat
 *   UNAME   uname's node name
 *
 * "<what>: <strerror>" when it failed, else what it learned. None of these
 * is built by `swift build`; the test compiles in the two paths (-D).
 */
#define _GNU_SOURCE
#include "fixture_probe.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#ifndef ROOT_PROBE_MARKER
#define ROOT_PROBE_MARKER "/nonexistent-marker"
#endif
#ifndef ROOT_PROBE_LINK
#define ROOT_PROBE_LINK "/nonexistent-link"
#endif

static size_t append(char *message, size_t used, size_t capacity, const char *format, const char *what, const char *detail) {
    if (used >= capacity) return used;
    int written = snprintf(message + used, capacity - used, format, used ? "; " : "", what, detail);
    return written < 0 ? used : used + (size_t)written;
}

static size_t files(char *message, size_t capacity) {
    size_t used = 0;
    struct stat status;
    used = append(message, used, capacity, "%s%s: %s", "stat", stat(ROOT_PROBE_MARKER, &status) == 0 ? "found" : strerror(errno));
    used = append(message, used, capacity, "%s%s: %s", "faccessat", faccessat(AT_FDCWD, ROOT_PROBE_MARKER, F_OK, 0) == 0 ? "found" : strerror(errno));
    char target[256];
    ssize_t count = readlink(ROOT_PROBE_LINK, target, sizeof target - 1);
    if (count >= 0) target[count] = '\0';
    return append(message, used, capacity, "%s%s: %s", "readlink", count >= 0 ? target : strerror(errno));
}

static size_t working_directory(char *message, size_t capacity) {
    char path[512];
    size_t used = append(message, 0, capacity, "%s%s: %s", "getcwd", getcwd(path, sizeof path) ? path : strerror(errno));
    ssize_t count = readlink("/proc/self/cwd", path, sizeof path - 1);
    if (count >= 0) path[count] = '\0';
    return append(message, used, capacity, "%s%s: %s", "/proc/self/cwd", count >= 0 ? path : strerror(errno));
}

static int compare(const void *left, const void *right) {
    return strcmp(*(char *const *)left, *(char *const *)right);
}

static size_t mounts(char *message, size_t capacity) {
    FILE *file = fopen("/proc/self/mountinfo", "r");
    if (!file) return append(message, 0, capacity, "%s%s: %s", "mountinfo", strerror(errno));
    char *points[64];
    int count = 0;
    char line[4096];
    while (count < 64 && fgets(line, sizeof line, file)) {
        /* id parent major:minor root mount-point ... */
        char *field = line;
        for (int skip = 0; skip < 4 && field; skip++) field = strchr(field, ' ') ? strchr(field, ' ') + 1 : NULL;
        if (!field) continue;
        *strchrnul(field, ' ') = '\0';
        points[count++] = strdup(field);
    }
    fclose(file);
    qsort(points, (size_t)count, sizeof *points, compare);
    size_t used = (size_t)snprintf(message, capacity, "mounts:");
    for (int i = 0; i < count; i++) {
        if (used < capacity) used += (size_t)snprintf(message + used, capacity - used, "%s%s", i ? "," : " ", points[i]);
        free(points[i]);
    }
    return used;
}

static size_t kernel(char *message, size_t capacity) {
    static const char *const paths[] = {"/proc/cmdline", "/proc/sys/kernel/random/boot_id", "/proc/keys", "/proc/loadavg", "/proc/stat"};
    size_t used = 0;
    for (size_t i = 0; i < sizeof paths / sizeof *paths; i++) {
        int fd = open(paths[i], O_RDONLY | O_CLOEXEC);
        char first[64] = "read";
        if (fd >= 0) {
            ssize_t count = read(fd, first, sizeof first - 1);
            first[count > 0 ? count : 0] = '\0';
            *strchrnul(first, '\n') = '\0';
            close(fd);
        }
        used = append(message, used, capacity, "%s%s: %s", paths[i], fd >= 0 ? first : strerror(errno));
    }
    return used;
}

static size_t node_name(char *message, size_t capacity) {
    struct utsname names;
    return append(message, 0, capacity, "%s%s: %s", "uname", uname(&names) == 0 ? names.nodename : strerror(errno));
}

static void fetch(void *context, const pb_fetch_request *request, pb_fetch_completion_fn completion, void *completion_context) {
    (void)request;
    size_t (*probe)(char *, size_t) = (size_t (*)(char *, size_t))context;
    char message[1024];
    probe(message, sizeof message);
    pb_fetch_result result = {.struct_size = sizeof result, .error = message};
    completion(completion_context, &result);
}

static pb_status register_plugin(const pb_host_services *services) {
    static const struct {
        const char *symbol;
        size_t (*probe)(char *, size_t);
    } probes[] = {{"FILES", files}, {"CWD", working_directory}, {"MOUNTS", mounts}, {"KERNEL", kernel}, {"UNAME", node_name}};
    for (size_t i = 0; i < sizeof probes / sizeof *probes; i++) {
        pb_fetcher fetcher = {
            .struct_size = sizeof fetcher,
            .symbol = probes[i].symbol,
            .display_name = "Root probe",
            .fetch = fetch,
            .context = (void *)probes[i].probe,
        };
        if (services->register_fetcher(services->host_context, &fetcher) != PB_OK) return PB_ERR_PLUGIN_FAILED;
    }
    return PB_OK;
}

FIXTURE_PLUGIN("RootProbe")
