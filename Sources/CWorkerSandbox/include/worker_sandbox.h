/*
 * The isolated worker's sandbox: Landlock, a seccomp-bpf allow list and
 * resource limits, applied by the worker to itself before it loads its
 * plugin. (The namespaces it starts in are the host's doing: worker_spawn.h.)
 *
 * Written against the kernel's own interfaces, with no libseccomp: the
 * filter is a few hundred BPF instructions built from a table
 * (seccomp_filter.c), and the Landlock structures this file needs are
 * declared in worker_sandbox.c, since the distribution's <linux/landlock.h>
 * may be older than the running kernel.
 *
 * The worker calls, on its main thread and before it starts any other thread:
 *
 *     pb_sandbox_confine(&policy, &report);
 *
 * The host calls `pb_sandbox_exit_signal` and `pb_syscall_name` to word
 * what a worker did. Nothing here allocates memory that outlives the call.
 */
#ifndef PATCHBAY_WORKER_SANDBOX_H
#define PATCHBAY_WORKER_SANDBOX_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Bumped when a struct below changes incompatibly; `struct_size` covers additions. */
#define PB_SANDBOX_VERSION 1u

/**
 * The layers of the sandbox, as bits of `pb_sandbox_policy.layers` (what to
 * apply) and `pb_sandbox_report.applied` (what took effect).
 */
typedef enum pb_sandbox_layer {
    /** `PR_SET_NO_NEW_PRIVS`: no set-uid gain, and the key to the layers below. */
    PB_SANDBOX_NO_NEW_PRIVS = 1u << 0,
    /** Every capability dropped from the permitted and effective sets (matters when run as root). */
    PB_SANDBOX_CAPABILITIES = 1u << 1,
    /** Landlock filesystem rules: read and execute beneath the policy's paths only, nothing writable. */
    PB_SANDBOX_LANDLOCK_FS = 1u << 2,
    /** Landlock network rules (ABI 4): no TCP bind or connect. */
    PB_SANDBOX_LANDLOCK_NET = 1u << 3,
    /** Landlock scopes (ABI 6): no signals to, and no abstract UNIX sockets of, processes outside the sandbox. */
    PB_SANDBOX_LANDLOCK_SCOPE = 1u << 4,
    /** The seccomp-bpf allow list: only the system calls loading and running a plugin needs. */
    PB_SANDBOX_SECCOMP = 1u << 5,
    /** Resource limits: address space, open files, file size 0, CPU time, no core files. */
    PB_SANDBOX_RLIMITS = 1u << 6,
} pb_sandbox_layer;

/** Every layer above. */
#define PB_SANDBOX_ALL_LAYERS 0x7Fu

/** What the worker may keep, and which layers to apply. */
typedef struct pb_sandbox_policy {
    /** `sizeof(pb_sandbox_policy)` as the caller compiled it. */
    uint32_t struct_size;
    /** `pb_sandbox_layer` bits to apply; normally `PB_SANDBOX_ALL_LAYERS`. */
    uint32_t layers;
    /**
     * Open descriptors of files or directories the worker may read and
     * execute (beneath, for a directory). Borrowed: read during the call only;
     * the descriptors stay open and owned by the caller.
     */
    const int32_t *readable_fds;
    /** Number of entries at `readable_fds`. */
    uint32_t readable_fd_count;
    /** Number of entries at `readable_paths`. */
    uint32_t readable_path_count;
    /**
     * Paths of files or directories likewise; a path that does not exist is
     * skipped. Borrowed NUL-terminated strings, read during the call only.
     */
    const char *const *readable_paths;
    /**
     * Paths of directories beneath which files may be read, but not listed
     * or executed; a path that does not exist is skipped. Borrowed likewise.
     */
    const char *const *file_reading_paths;
    /** Number of entries at `file_reading_paths`. */
    uint32_t file_reading_path_count;
    /** RLIMIT_AS, in bytes. */
    uint64_t address_space_bytes;
    /** RLIMIT_NOFILE: one more than the highest descriptor number the worker may open. */
    uint64_t open_files;
    /** RLIMIT_CPU, in seconds: SIGXCPU then, SIGKILL a second later. */
    uint64_t cpu_seconds;
} pb_sandbox_policy;

/** What `pb_sandbox_confine` achieved. Filled in by the call; plain values only. */
typedef struct pb_sandbox_report {
    /** Set by the caller to `sizeof(pb_sandbox_report)`; the call fills no more than that. */
    uint32_t struct_size;
    /** `pb_sandbox_layer` bits that took effect. */
    uint32_t applied;
    /** The kernel's Landlock ABI version, or 0 when it has no Landlock. */
    int32_t landlock_abi;
    /** Why Landlock could not be used or failed (an errno value), else 0. */
    int32_t landlock_errno;
    /** Why the seccomp filter failed (an errno value), else 0. */
    int32_t seccomp_errno;
    /** Why no_new_privs, the capability drop or a resource limit failed (an errno value), else 0. */
    int32_t other_errno;
    /** The `AUDIT_ARCH_*` value the filter was written for, or 0 on an architecture with no filter. */
    uint32_t seccomp_arch;
    /**
     * Threads in the process when it was confined. Landlock, no_new_privs and
     * the capability drop cover only the calling thread and what it starts
     * later, so anything above 1 leaves other threads outside them.
     */
    uint32_t threads;
    /** Nanoseconds spent on each part, for the benchmarks. */
    uint64_t landlock_ns;
    uint64_t seccomp_ns;
    uint64_t rlimits_ns;
    /** The whole call, including no_new_privs, the capability drop and counting threads. */
    uint64_t total_ns;
    /** The filter's length in BPF instructions, or 0. */
    uint32_t seccomp_instructions;
    /**
     * 1 when the worker is its PID namespace's first process and handles the
     * signals that end a process (see `pb_sandbox_exit_signal`), else 0.
     */
    uint32_t pid_namespace_init;
} pb_sandbox_report;

/**
 * Confines the calling process according to `policy`.
 *
 * Applies, in this order: no_new_privs, resource limits (SIGXFSZ is ignored
 * so that a write past the file-size limit fails with EFBIG rather than
 * killing), Landlock, the capability drop, then the seccomp filter
 * (synchronised to every thread with SECCOMP_FILTER_FLAG_TSYNC), with its
 * SIGSYS handler. When the worker is PID 1 of its own PID namespace, it also
 * handles the signals that end a process (see `pb_sandbox_exit_signal`).
 * Call it on the main thread before any other thread starts.
 *
 * A layer the kernel lacks is skipped and reported; one layer failing never
 * stops the others.
 *
 * @param policy Borrowed; read during the call only. Never NULL.
 * @param report Filled in; its `struct_size` must be set. Never NULL.
 * @return 0 when every requested layer took effect, -1 otherwise (see `report`).
 */
int pb_sandbox_confine(const pb_sandbox_policy *policy, pb_sandbox_report *report);

/**
 * What `pb_sandbox_confine` would achieve here, without confining anything:
 * for the host, which judges the sandbox its workers will get before it
 * starts one. Asks the kernel for its Landlock ABI and whether it has
 * seccomp filters; counts no_new_privs, the capability drop and the
 * resource limits as applied, since no kernel refuses them.
 *
 * @param layers `pb_sandbox_layer` bits a worker would be asked to apply.
 * @param report Filled in as `pb_sandbox_confine` fills it, without the
 *        timings; its `struct_size` must be set.
 */
void pb_sandbox_probe(uint32_t layers, pb_sandbox_report *report);

/**
 * Writes the directory of the shared library that defines `symbol` (found
 * with dlsym and dl_iterate_phdr), e.g. the Swift runtime's for "swift_retain".
 *
 * @param symbol Borrowed NUL-terminated name.
 * @param buffer Receives a NUL-terminated path of at most `capacity` bytes.
 * @return 0, or -1 when the symbol is unknown or the path does not fit.
 */
int pb_sandbox_library_directory(const char *symbol, char *buffer, size_t capacity);

/**
 * The number of the first system call the filter refused in this process,
 * or UINT32_MAX when it has refused none. Safe from any thread.
 */
uint32_t pb_sandbox_first_refused_syscall(void);

/** How many system calls the filter has refused in this process. */
uint32_t pb_sandbox_refused_syscall_count(void);

/**
 * The signal a worker that was its PID namespace's first process ended by,
 * read from its exit status (128 + the signal), or 0 when `status` is not
 * such a status. A plugin that calls exit(134) itself reads as SIGABRT: the
 * same end, as a shell would word it.
 */
int32_t pb_sandbox_exit_signal(int32_t status);

/**
 * The name of system call `number` on this architecture ("personality"),
 * or NULL when this build does not know it. A static string.
 */
const char *pb_syscall_name(uint32_t number);

#ifdef __cplusplus
}
#endif

#endif /* PATCHBAY_WORKER_SANDBOX_H */
