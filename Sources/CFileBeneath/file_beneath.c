#define _GNU_SOURCE
#include "file_beneath.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#if __has_include(<linux/openat2.h>)
#include <linux/openat2.h>
#else
/* NB: the layout and values of the kernel's uapi header, for older headers. */
struct open_how {
    uint64_t flags;
    uint64_t mode;
    uint64_t resolve;
};
#define RESOLVE_NO_MAGICLINKS 0x02
#define RESOLVE_BENEATH 0x08
#endif

#ifndef SYS_openat2
#define SYS_openat2 437
#endif

static const int open_flags = O_RDONLY | O_NONBLOCK | O_CLOEXEC;

/* The fallback: one component at a time, with no `..` and no symlinks. */
static int open_by_components(int directory, const char *relative) {
    if (relative[0] == '/') {
        errno = EXDEV;
        return -1;
    }
    int current = directory;
    const char *cursor = relative;
    for (;;) {
        const char *slash = strchr(cursor, '/');
        size_t length = slash ? (size_t)(slash - cursor) : strlen(cursor);
        char component[256];
        if (length >= sizeof component) {
            if (current != directory) close(current);
            errno = ENAMETOOLONG;
            return -1;
        }
        memcpy(component, cursor, length);
        component[length] = '\0';
        if (strcmp(component, "..") == 0) {
            if (current != directory) close(current);
            errno = EXDEV;
            return -1;
        }
        int next;
        if (slash == NULL) {
            next = openat(current, length == 0 ? "." : component, open_flags | O_NOFOLLOW);
        } else if (length == 0 || strcmp(component, ".") == 0) {
            cursor = slash + 1;
            continue;
        } else {
            next = openat(current, component, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        }
        int saved = errno;
        if (current != directory) close(current);
        errno = saved;
        if (next < 0) return -1;
        if (slash == NULL) return next;
        current = next;
        cursor = slash + 1;
    }
}

int file_beneath_open_directory(const char *path) {
    return open(path, O_PATH | O_DIRECTORY | O_CLOEXEC);
}

int file_beneath_open(int directory, const char *relative) {
    struct open_how how;
    memset(&how, 0, sizeof how);
    how.flags = (uint64_t)open_flags;
    how.resolve = RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS;
    long descriptor = syscall(SYS_openat2, directory, relative, &how, sizeof how);
    if (descriptor >= 0 || errno != ENOSYS) return (int)descriptor;
    return open_by_components(directory, relative);
}
