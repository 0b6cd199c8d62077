/*
 * Starting a plugin worker that inherits nothing it was not given.
 *
 * posix_spawn cannot make namespaces, so the host starts its workers here:
 * clone(2) with CLONE_VM | CLONE_VFORK, as posix_spawn itself does, so the
 * host's memory is never copied, then in the child the namespaces, the
 * descriptors, a session of its own and execve(2).
 *
 * The shape of one start, and why:
 *
 *   host thread ── clone(VM|VFORK) ──> step child
 *                                        setns(shared user namespace)
 *                                        setns(shared network namespace)
 *                                        clone(VM|VFORK|PARENT|NEWUSER|NEWPID|NEWIPC|NEWNS) ──> worker
 *                                        _exit                                                   uid and gid map
 *                                                                                                pid_max: the task cap
 *                                                                                                host name (UTS)
 *                                                                                                a root of its own:
 *                                                                                                  tmpfs, read-only binds,
 *                                                                                                  /proc (hidepid, subset=pid),
 *                                                                                                  pivot_root, old root detached
 *                                                                                                parent-death signal
 *                                                                                                setsid, descriptors
 *                                                                                                execveat(the checked file)
 *
 * - A network namespace costs 0.5 to 6 ms to make and more to tear down (the
 *   kernel registers every protocol's tables in it), against about 30 µs for
 *   each of the others. So the workers of one host share one empty network
 *   namespace, made once (`pb_spawn_prepare_shared`) in a user namespace of
 *   its own, which a worker can join only from outside its own user
 *   namespace: hence the step child, which joins both, then makes the worker
 *   with every other namespace fresh. An empty network namespace has only a
 *   loopback interface, down: no route anywhere, whatever the filter allows.
 * - CLONE_PARENT makes the worker the host's child, not the step child's:
 *   the host reaps it, reads how it ended, and is the parent whose death
 *   kills it (PR_SET_PDEATHSIG, set by the worker before it runs any code of
 *   its own).
 * - In a new PID namespace the worker is PID 1. The kernel then delivers it
 *   only the signals it has a handler for, except SIGKILL from outside and
 *   faults; see `pb_sandbox_confine` for how the worker still ends by the
 *   signals it raises. Its /proc is mounted afresh, so that the Swift
 *   runtime finds its threads at /proc/<tid> (the host's /proc numbers them
 *   in the host's namespace), and so that no other process appears there.
 * - Its root is its own (PB_SPAWN_ROOT), as bubblewrap builds one: a tmpfs
 *   with read-only binds of the worker's directory, the Swift runtime's and
 *   the system's libraries, and /proc; pivot_root(2) onto it, and the host's
 *   root unmounted. `stat`, `readlink`, `getcwd` and /proc/self/mountinfo,
 *   which Landlock does not govern, then show nothing of the host's files;
 *   /proc's subset=pid hides the kernel's own files (cmdline, stat, keys).
 *
 * Every call here is made on one thread of the host at a time (its spawn
 * thread); the children run on stacks taken from that thread's stack, while
 * it waits for them.
 */
#ifndef PATCHBAY_WORKER_SPAWN_H
#define PATCHBAY_WORKER_SPAWN_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Namespaces a worker starts in, as bits of `pb_spawn_request.namespaces` and `pb_spawn_result.namespaces`. */
typedef enum pb_spawn_namespace {
    /** A user namespace of its own, mapping the host's uid and gid, and only them, to themselves. */
    PB_SPAWN_USER = 1u << 0,
    /** A PID namespace of its own, with its own /proc; needs PB_SPAWN_MOUNT. */
    PB_SPAWN_PID = 1u << 1,
    /** An IPC namespace of its own: no System V or POSIX IPC object of anyone else's. */
    PB_SPAWN_IPC = 1u << 2,
    /** The host's shared, empty network namespace (`pb_spawn_shared.net_fd`). */
    PB_SPAWN_NET = 1u << 3,
    /** A mount namespace of its own, where its /proc is mounted. */
    PB_SPAWN_MOUNT = 1u << 4,
    /** A UTS namespace of its own, whose host name is `PB_SPAWN_HOST_NAME`. */
    PB_SPAWN_UTS = 1u << 5,
    /**
     * A root of its own (`pb_spawn_request.root_paths`): a tmpfs holding
     * only those paths, read-only, and a /proc of its PID namespace with
     * hidepid=2 and subset=pid; the host's root is unmounted. Needs
     * PB_SPAWN_PID and PB_SPAWN_MOUNT.
     */
    PB_SPAWN_ROOT = 1u << 6,
} pb_spawn_namespace;

/** Every namespace above. */
#define PB_SPAWN_ALL_NAMESPACES 0x7Fu

/** The host name a worker sees in its UTS namespace (uname, gethostname). */
#define PB_SPAWN_HOST_NAME "patchbay-worker"

/** Where a start failed, in `pb_spawn_result.failed_step`. */
typedef enum pb_spawn_step {
    PB_SPAWN_STEP_NONE = 0,
    /** clone(2) of the step child. */
    PB_SPAWN_STEP_START = 1,
    /** setns(2) into the shared user namespace. */
    PB_SPAWN_STEP_JOIN_USER = 2,
    /** setns(2) into the shared network namespace. */
    PB_SPAWN_STEP_JOIN_NET = 3,
    /** clone(2) of the worker with its new namespaces. */
    PB_SPAWN_STEP_NAMESPACES = 4,
    /** Writing the worker's uid and gid maps. */
    PB_SPAWN_STEP_ID_MAP = 5,
    /** Mounting the worker's own /proc. */
    PB_SPAWN_STEP_PROC = 6,
    /** The parent-death signal, the session, the signal dispositions or the descriptors. */
    PB_SPAWN_STEP_SETUP = 7,
    /** execve(2) of the worker executable. */
    PB_SPAWN_STEP_EXEC = 8,
    /** sethostname(2) in the worker's UTS namespace. */
    PB_SPAWN_STEP_UTS = 9,
    /** Building the worker's own root: the tmpfs, a read-only bind, pivot_root(2) or unmounting the host's root. */
    PB_SPAWN_STEP_ROOT = 10,
} pb_spawn_step;

/** The namespaces every worker of one host shares. */
typedef struct pb_spawn_shared {
    /** `sizeof(pb_spawn_shared)` as the caller compiled it. */
    uint32_t struct_size;
    /** A user namespace mapping the host's uid and gid to themselves; -1 when none could be made. Owned by the caller. */
    int32_t user_fd;
    /** An empty network namespace, owned by `user_fd`'s namespace when there is one; -1 when none could be made. Owned by the caller. */
    int32_t net_fd;
    /** Why there is no user namespace (an errno value), else 0. */
    int32_t user_errno;
    /** Why there is no network namespace (an errno value), else 0. */
    int32_t net_errno;
} pb_spawn_shared;

/** How to start one worker. */
typedef struct pb_spawn_request {
    /** `sizeof(pb_spawn_request)` as the caller compiled it. */
    uint32_t struct_size;
    /** `pb_spawn_namespace` bits to start it in. */
    uint32_t namespaces;
    /**
     * The executable; borrowed NUL-terminated path. NULL makes the call a
     * probe: the child makes its namespaces (and the task cap) and exits,
     * and the result says what the kernel allowed.
     */
    const char *path;
    /** NULL-terminated argument vector, borrowed. */
    char *const *argv;
    /** NULL-terminated environment, borrowed: the whole of the worker's environment. */
    char *const *envp;
    /**
     * `descriptors[i]` becomes the worker's descriptor `i`; every other
     * descriptor is closed in the worker. Borrowed; the host's copies stay
     * open and the host's.
     */
    const int32_t *descriptors;
    /** Number of entries at `descriptors`. */
    uint32_t descriptor_count;
    /** The host's shared namespaces, from `pb_spawn_prepare_shared`; -1 for none. Borrowed. */
    int32_t shared_user_fd;
    int32_t shared_net_fd;
    /** The host's uid and gid, mapped to themselves in the worker's user namespace. */
    uint32_t uid;
    uint32_t gid;
    /**
     * The most tasks (threads and processes) the worker may have, enforced
     * as its PID namespace's pid_max (Linux 6.14 and later); 0 for no cap.
     * The kernel's least pid_max is 301, so at least 300.
     */
    uint32_t max_tasks;
    /**
     * What the worker's own root holds (PB_SPAWN_ROOT), besides its /proc:
     * absolute paths, borrowed, each made at the same path in the new root.
     * A directory or a file is bound read-only (with what is mounted beneath
     * it), a symbolic link is copied as a link, a missing path is left out.
     * None may lie beneath another. The worker executable must be beneath
     * one, at `path`.
     */
    const char *const *root_paths;
    /** Number of entries at `root_paths`. */
    uint32_t root_path_count;
    /**
     * The executable to run, as a descriptor (O_PATH is enough), or -1 to
     * run `path`: `execveat(executable_fd, "", AT_EMPTY_PATH)` runs the very
     * file the caller opened and checked, whatever is at `path` by then.
     * `path` still names it (argv, errors). Borrowed; 0 is a descriptor, so
     * a caller that zero-fills the request sets -1.
     */
    int32_t executable_fd;
} pb_spawn_request;

/** What `pb_spawn_worker` did. Filled in by the call. */
typedef struct pb_spawn_result {
    /** Set by the caller to `sizeof(pb_spawn_result)`; the call fills no more than that. */
    uint32_t struct_size;
    /** The worker's pid in the host's PID namespace, or -1. The caller reaps it. */
    int32_t pid;
    /** The `pb_spawn_step` that failed, or PB_SPAWN_STEP_NONE. */
    uint32_t failed_step;
    /** Why it failed (an errno value), or 0. */
    int32_t error;
    /** The `pb_spawn_namespace` bits the worker got: all of those asked for, when it started. */
    uint32_t namespaces;
    /** Why the task cap is missing (an errno value), or 0 when it holds or none was asked. */
    int32_t task_cap_errno;
} pb_spawn_result;

/**
 * Makes the namespaces every worker of this host joins: a user namespace
 * mapping `uid` and `gid` to themselves, and in it an empty network
 * namespace. Where the kernel refuses a user namespace, a network namespace
 * alone is tried (it needs CAP_SYS_ADMIN: root).
 *
 * Costs about a millisecond, once; call it when the first worker is about
 * to start, not before: a host that starts none should not pay it.
 *
 * @param uid The host's uid.
 * @param gid The host's gid.
 * @param shared Filled in; its `struct_size` must be set. The descriptors
 *        are close-on-exec and the caller's, for the life of the host.
 */
void pb_spawn_prepare_shared(uint32_t uid, uint32_t gid, pb_spawn_shared *shared);

/**
 * Starts a worker as the calling thread's child, as described above.
 *
 * The caller reaps the worker (waitpid) like any child. The step child is
 * reaped here. Blocks the calling thread until the worker has called
 * execve(2) or failed, a fraction of a millisecond: call it from a thread
 * nothing else waits on.
 *
 * @param request Borrowed; read during the call only.
 * @param result Filled in; its `struct_size` must be set.
 * @return 0 when the worker is running `request->path` (or, for a probe,
 *         made its namespaces), -1 otherwise (see `result`).
 */
int pb_spawn_worker(const pb_spawn_request *request, pb_spawn_result *result);

/**
 * A descriptor that becomes readable when the process `pid` ends
 * (pidfd_open(2), Linux 5.3), for a poll loop to wait on a worker's end
 * instead of polling waitpid. The caller must not have reaped `pid`.
 *
 * @return A close-on-exec descriptor the caller owns, or -1 with errno set.
 */
int pb_spawn_pidfd(int32_t pid);

#ifdef __cplusplus
}
#endif

#endif /* PATCHBAY_WORKER_SPAWN_H */
