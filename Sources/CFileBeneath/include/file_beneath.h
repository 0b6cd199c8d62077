/*
 * file_beneath.h: opens a file only if it lies beneath a directory.
 *
 * The host reads `file://` URLs for its plugins. A plugin chooses the path,
 * so the host must not follow it out of the directory the user allowed: not
 * with `..`, not through a symbolic link that points elsewhere, not into
 * /proc through a "magic" link. Linux checks all of that during path
 * resolution with openat2(2) and RESOLVE_BENEATH, which no user-space check
 * can match without a race. glibc has no wrapper for openat2, so this is
 * the system call, in C, where `struct open_how` is declared.
 */
#ifndef FILE_BENEATH_H
#define FILE_BENEATH_H

#ifdef __cplusplus
extern "C" {
#endif

/**
 * Opens the directory `path` as a handle for file_beneath_open: O_PATH |
 * O_DIRECTORY | O_CLOEXEC, which needs no read permission on it. (O_PATH is
 * a GNU extension that Swift's Glibc module does not show.)
 *
 * @param path NUL-terminated path of a directory; borrowed for the call.
 * @return A new descriptor the caller owns and closes, or -1 with errno set.
 */
int file_beneath_open_directory(const char *path);

/**
 * Opens `relative` for reading, resolved beneath the directory `directory`.
 *
 * Resolution may not leave `directory`: a `..` that climbs above it, an
 * absolute path, or a symbolic link that leads out fails with EXDEV (ELOOP
 * for a magic link such as /proc/self/fd/N). Symbolic links that stay
 * beneath it are followed. The file is opened O_RDONLY | O_NONBLOCK |
 * O_CLOEXEC, so opening a FIFO does not wait for a writer: the caller still
 * has to check what it opened (fstat) before reading.
 *
 * On kernels without openat2 (before Linux 5.6, or where a seccomp filter
 * answers ENOSYS), it walks the path one component at a time instead,
 * refusing `..` and every symbolic link (ELOOP).
 *
 * @param directory An open descriptor of the directory (O_PATH is enough);
 *        borrowed, never closed.
 * @param relative NUL-terminated relative path; borrowed for the call.
 * @return A new descriptor the caller owns and closes, or -1 with errno set.
 */
int file_beneath_open(int directory, const char *relative);

#ifdef __cplusplus
}
#endif

#endif /* FILE_BENEATH_H */
