/*
 * Starting a worker in namespaces of its own; see include/worker_spawn.h.
 *
 * The children run in the host's memory (CLONE_VM) while the host's thread
 * waits (CLONE_VFORK), exactly as posix_spawn's child does, so they keep to
 * what such a child may do: plain system calls through glibc's wrappers
 * (whose errno lands in the waiting thread's, harmlessly), no allocation, no
 * lock, no stdio, and every signal blocked until the worker's handlers are
 * back to their defaults, since the host's handlers live in this memory.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* clone, setns, CLONE_* */
#endif
#include "worker_spawn.h"

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <string.h>
#include <sys/mount.h>
#include <limits.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/statvfs.h> /* ST_* */
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#ifndef __NR_close_range
#define __NR_close_range 436
#endif
#ifndef __NR_pidfd_open
#define __NR_pidfd_open 434
#endif

/* Enough for the few glibc wrappers a child calls; taken from the waiting thread's stack. */
#define PB_CHILD_STACK (16 << 10)
/* The worker's child also holds two paths while it builds its root. */
#define PB_WORKER_STACK (64 << 10)
/* Where the worker's root is built, before pivot_root: a directory no root
 * path lies beneath (the tmpfs over it hides what is there, in the worker's
 * mount namespace only, while the binds still read the host's paths; a worker
 * copied into /tmp is common, one in /dev is not). */
#define PB_ROOT_BUILD_DIRECTORY "/dev"
/* The descriptors a worker is given: stdio, two frame pipes, the plugin, and a spare. */
#define PB_MAX_DESCRIPTORS 8

/* What the host's thread and its children share: they run in its memory. */
typedef struct spawn_state {
    const pb_spawn_request *request;
    /* Written by the children. */
    pid_t worker;
    uint32_t failed_step;
    int error;
    int task_cap_errno;
    /* The worker's stack, used while the step child waits for it. */
    char *worker_stack_top;
} spawn_state;

static int fail(spawn_state *state, uint32_t step) {
    state->failed_step = step;
    state->error = errno;
    _exit(127);
}

/* Writes `text` to the file `path`, as one write, which /proc's maps require. */
static int write_file(const char *path, const char *text) {
    int fd = open(path, O_WRONLY | O_CLOEXEC);
    if (fd < 0) return -1;
    size_t length = strlen(text);
    ssize_t written = write(fd, text, length);
    int saved = errno;
    close(fd);
    errno = saved;
    return written == (ssize_t)length ? 0 : -1;
}

/* "<value> <value> 1": maps one id to itself. No snprintf in a vfork child. */
static void identity_map(uint32_t value, char buffer[40]) {
    char digits[12];
    int count = 0;
    do {
        digits[count++] = (char)('0' + value % 10);
        value /= 10;
    } while (value);
    char *out = buffer;
    for (int copy = 0; copy < 2; copy++) {
        for (int i = count - 1; i >= 0; i--) *out++ = digits[i];
        *out++ = ' ';
    }
    *out++ = '1';
    *out = '\0';
}

/* The uid and gid maps of a new user namespace, written from inside it. The
 * gid map needs setgroups denied first unless the writer is privileged in the
 * parent namespace; denying it always keeps one path. */
static int write_id_maps(uint32_t uid, uint32_t gid) {
    char map[40];
    if (write_file("/proc/self/setgroups", "deny") != 0) return -1;
    identity_map(uid, map);
    if (write_file("/proc/self/uid_map", map) != 0) return -1;
    identity_map(gid, map);
    return write_file("/proc/self/gid_map", map);
}

/* ------------------------------------------------------------------------ */
/* The shared namespaces                                                    */
/* ------------------------------------------------------------------------ */

typedef struct shared_state {
    uint32_t uid, gid;
    int maps;
    int user_fd, net_fd;
    int error;
} shared_state;

/* Runs in the new namespaces and opens them into the host's descriptor table (CLONE_FILES). */
static int shared_child(void *argument) {
    shared_state *state = argument;
    if (state->maps && write_id_maps(state->uid, state->gid) != 0) {
        state->error = errno;
        _exit(127);
    }
    if (state->maps) state->user_fd = open("/proc/self/ns/user", O_RDONLY | O_CLOEXEC);
    state->net_fd = open("/proc/self/ns/net", O_RDONLY | O_CLOEXEC);
    if (state->net_fd < 0) state->error = errno;
    _exit(0);
}

static int run_shared_child(shared_state *state, int flags) {
    char stack[PB_CHILD_STACK] __attribute__((aligned(16)));
    sigset_t all, previous;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &previous);
    pid_t child = clone(shared_child, stack + sizeof stack, flags | CLONE_FILES | CLONE_VM | CLONE_VFORK | SIGCHLD, state);
    int error = errno;
    pthread_sigmask(SIG_SETMASK, &previous, NULL);
    if (child < 0) return error;
    while (waitpid(child, NULL, 0) < 0 && errno == EINTR) {}
    return state->net_fd >= 0 ? 0 : (state->error ? state->error : EINVAL);
}

void pb_spawn_prepare_shared(uint32_t uid, uint32_t gid, pb_spawn_shared *caller_shared) {
    pb_spawn_shared shared = {.struct_size = sizeof shared, .user_fd = -1, .net_fd = -1};
    shared_state state = {.uid = uid, .gid = gid, .maps = 1, .user_fd = -1, .net_fd = -1};
    int error = run_shared_child(&state, CLONE_NEWUSER | CLONE_NEWNET);
    if (error == 0) {
        shared.user_fd = state.user_fd;
        shared.net_fd = state.net_fd;
    } else {
        if (state.user_fd >= 0) close(state.user_fd);
        shared.user_errno = error;
        /* Without a user namespace, root may still make a network namespace. */
        shared_state alone = {.user_fd = -1, .net_fd = -1};
        shared.net_errno = run_shared_child(&alone, CLONE_NEWNET);
        shared.net_fd = alone.net_fd;
    }
    uint32_t size = caller_shared->struct_size < sizeof shared ? caller_shared->struct_size : (uint32_t)sizeof shared;
    memcpy(caller_shared, &shared, size);
    caller_shared->struct_size = size;
}

/* ------------------------------------------------------------------------ */
/* One worker                                                               */
/* ------------------------------------------------------------------------ */

/* The worker's /proc: its own PID namespace's, on a private copy of the
 * mount tree, so the new mount cannot propagate back to the host's. */
static int mount_own_proc(void) {
    if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) != 0) return -1;
    return mount("proc", "/proc", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL);
}

/* Makes each directory above `relative` (a path under the working directory). */
static int make_parents(char *relative) {
    for (char *slash = strchr(relative, '/'); slash; slash = strchr(slash + 1, '/')) {
        *slash = '\0';
        int made = mkdir(relative, 0755);
        *slash = '/';
        if (made != 0 && errno != EEXIST) return -1;
    }
    return 0;
}

/* The flags a bind of a mount must keep when it is remounted: in a user
 * namespace the kernel refuses a remount that would drop any of them. */
static unsigned long locked_flags(const char *path) {
    struct statfs status;
    if (statfs(path, &status) != 0) return 0;
    unsigned long flags = 0;
    if (status.f_flags & ST_NOSUID) flags |= MS_NOSUID;
    if (status.f_flags & ST_NODEV) flags |= MS_NODEV;
    if (status.f_flags & ST_NOEXEC) flags |= MS_NOEXEC;
    if (status.f_flags & ST_NOATIME) flags |= MS_NOATIME;
    if (status.f_flags & ST_NODIRATIME) flags |= MS_NODIRATIME;
    if (status.f_flags & ST_RELATIME) flags |= MS_RELATIME;
    return flags;
}

/* Puts `path` of the host's root at the same path under the working
 * directory: a directory or file bound read-only, a symbolic link copied. */
static int add_to_root(const char *path) {
    char relative[PATH_MAX];
    while (*path == '/' && path[1] == '/') path++;
    size_t length = strlen(path);
    if (path[0] != '/' || length < 2 || length >= sizeof relative) {
        errno = EINVAL;
        return -1;
    }
    memcpy(relative, path + 1, length);
    struct stat status;
    if (lstat(path, &status) != 0) return errno == ENOENT ? 0 : -1;
    if (make_parents(relative) != 0) return -1;
    if (S_ISLNK(status.st_mode)) {
        char target[PATH_MAX];
        ssize_t count = readlink(path, target, sizeof target - 1);
        if (count < 0) return -1;
        target[count] = '\0';
        return symlink(target, relative);
    }
    if (S_ISDIR(status.st_mode)) {
        if (mkdir(relative, 0755) != 0 && errno != EEXIST) return -1;
    } else {
        int fd = open(relative, O_WRONLY | O_CREAT | O_CLOEXEC, 0444);
        if (fd < 0) return -1;
        close(fd);
    }
    if (mount(path, relative, NULL, MS_BIND | MS_REC, NULL) != 0) return -1;
    return mount(NULL, relative, NULL, MS_REMOUNT | MS_BIND | MS_RDONLY | locked_flags(relative), NULL);
}

/* The worker's own root, as bubblewrap builds one: a tmpfs holding the
 * request's paths and a /proc of the worker's PID namespace, made the root
 * with pivot_root(".", "."), the host's root then detached beneath it.
 * Returns the step that failed, or PB_SPAWN_STEP_NONE. */
static uint32_t build_root(const pb_spawn_request *request) {
    if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) != 0) return PB_SPAWN_STEP_ROOT;
    if (mount("tmpfs", PB_ROOT_BUILD_DIRECTORY, "tmpfs", MS_NOSUID | MS_NODEV, "mode=0755,size=64k,nr_inodes=512") != 0) return PB_SPAWN_STEP_ROOT;
    if (chdir(PB_ROOT_BUILD_DIRECTORY) != 0) return PB_SPAWN_STEP_ROOT;
    for (uint32_t i = 0; i < request->root_path_count; i++) {
        if (add_to_root(request->root_paths[i]) != 0) return PB_SPAWN_STEP_ROOT;
    }
    if (mkdir("proc", 0555) != 0) return PB_SPAWN_STEP_ROOT;
    /* Its own processes only (hidepid=2), and none of the kernel's files
     * (subset=pid, Linux 5.8): no cmdline, stat, loadavg, keys or sys. */
    const unsigned long proc_flags = MS_NOSUID | MS_NODEV | MS_NOEXEC;
    if (mount("proc", "proc", "proc", proc_flags, "hidepid=2,subset=pid") != 0 && mount("proc", "proc", "proc", proc_flags, "hidepid=2") != 0) {
        return PB_SPAWN_STEP_PROC;
    }
    if (syscall(SYS_pivot_root, ".", ".") != 0) return PB_SPAWN_STEP_ROOT;
    if (umount2(".", MNT_DETACH) != 0) return PB_SPAWN_STEP_ROOT;
    if (chdir("/") != 0) return PB_SPAWN_STEP_ROOT;
    if (mount(NULL, "/", NULL, MS_REMOUNT | MS_BIND | MS_RDONLY | MS_NOSUID | MS_NODEV, NULL) != 0) return PB_SPAWN_STEP_ROOT;
    return PB_SPAWN_STEP_NONE;
}

/* The task cap: pid_max of the worker's own PID namespace (Linux 6.14). */
static int cap_tasks(uint32_t max_tasks) {
    char text[40];
    /* identity_map writes "N N 1"; keep its first number. */
    identity_map(max_tasks + 1, text);
    *strchr(text, ' ') = '\0';
    return write_file("/proc/sys/kernel/pid_max", text);
}

/* Puts request->descriptors[i] on i and closes every other descriptor. Each
 * source is first copied above the targets, so no dup2 overwrites a source
 * another still needs; dup2 clears close-on-exec on the target. The
 * executable's descriptor, when there is one, is kept just above them,
 * close-on-exec (the worker never holds it): returns where, or -1 for none,
 * or -2 on an error. */
static int place_descriptors(const pb_spawn_request *request) {
    int moved[PB_MAX_DESCRIPTORS];
    int count = (int)request->descriptor_count;
    for (int i = 0; i < count; i++) {
        moved[i] = fcntl(request->descriptors[i], F_DUPFD_CLOEXEC, count);
        if (moved[i] < 0) return -2;
    }
    int executable = -1;
    if (request->executable_fd >= 0) {
        executable = fcntl(request->executable_fd, F_DUPFD_CLOEXEC, count);
        if (executable < 0) return -2;
    }
    for (int i = 0; i < count; i++) {
        if (dup2(moved[i], i) != i) return -2;
    }
    int first_closed = count;
    if (executable >= 0) {
        /* A moved copy may sit on `count`: dup3 closes it first. */
        if (dup3(executable, count, O_CLOEXEC) != count) return -2;
        executable = count;
        first_closed = count + 1;
    }
    if (syscall(__NR_close_range, (unsigned)first_closed, ~0u, 0u) != 0) {
        /* Before Linux 5.9: close them one by one, as far as any could be open. */
        long limit = sysconf(_SC_OPEN_MAX);
        if (limit < 0 || limit > (1 << 20)) limit = 1 << 20;
        for (int fd = first_closed; fd < limit; fd++) close(fd);
    }
    return executable;
}

/* Puts every handled signal back to its default: the host's handlers are
 * code in memory the worker does not have. SIGPIPE too, which the host
 * ignores: a worker whose host is gone should end. */
static int reset_signals(void) {
    struct sigaction default_action;
    memset(&default_action, 0, sizeof default_action);
    default_action.sa_handler = SIG_DFL;
    for (int signal = 1; signal < NSIG; signal++) {
        if (signal == SIGKILL || signal == SIGSTOP) continue;
        struct sigaction current;
        if (sigaction(signal, NULL, &current) != 0) continue; /* glibc's own real-time signals */
        if (signal == SIGPIPE || (current.sa_handler != SIG_DFL && current.sa_handler != SIG_IGN)) {
            if (sigaction(signal, &default_action, NULL) != 0) return -1;
        }
    }
    return 0;
}

static int worker_child(void *argument) {
    spawn_state *state = argument;
    const pb_spawn_request *request = state->request;
    if ((request->namespaces & PB_SPAWN_USER) && write_id_maps(request->uid, request->gid) != 0) fail(state, PB_SPAWN_STEP_ID_MAP);
    int own_root = (request->namespaces & PB_SPAWN_ROOT) != 0;
    /* With a root of its own, its /proc is mounted there instead. */
    if ((request->namespaces & PB_SPAWN_PID) && !own_root && mount_own_proc() != 0) fail(state, PB_SPAWN_STEP_PROC);
    /* pid_max is the writer's PID namespace's, through any /proc. */
    if ((request->namespaces & PB_SPAWN_PID) && request->max_tasks && cap_tasks(request->max_tasks) != 0) {
        state->task_cap_errno = errno ? errno : EINVAL;
    }
    if ((request->namespaces & PB_SPAWN_UTS) && sethostname(PB_SPAWN_HOST_NAME, sizeof PB_SPAWN_HOST_NAME - 1) != 0) fail(state, PB_SPAWN_STEP_UTS);
    if (own_root) {
        uint32_t failed = build_root(request);
        if (failed != PB_SPAWN_STEP_NONE) fail(state, failed);
    }
    /* A probe: the namespaces were made, which is all it asks. */
    if (request->path == NULL) _exit(0);
    if (prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0) != 0) fail(state, PB_SPAWN_STEP_SETUP);
    /* No controlling terminal, and a process group of its own whose id is its pid. */
    if (setsid() < 0) fail(state, PB_SPAWN_STEP_SETUP);
    if (reset_signals() != 0) fail(state, PB_SPAWN_STEP_SETUP);
    int executable = place_descriptors(request);
    if (executable < -1) fail(state, PB_SPAWN_STEP_SETUP);
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);
    /* The file the host checked, by its descriptor: a path could name
     * another file by now. */
    if (executable >= 0) {
        syscall(SYS_execveat, executable, "", request->argv, request->envp, AT_EMPTY_PATH);
    } else {
        execve(request->path, request->argv, request->envp);
    }
    return fail(state, PB_SPAWN_STEP_EXEC);
}

static int step_child(void *argument) {
    spawn_state *state = argument;
    const pb_spawn_request *request = state->request;
    if ((request->namespaces & PB_SPAWN_USER) && request->shared_user_fd >= 0 && setns(request->shared_user_fd, CLONE_NEWUSER) != 0) {
        fail(state, PB_SPAWN_STEP_JOIN_USER);
    }
    if ((request->namespaces & PB_SPAWN_NET) && setns(request->shared_net_fd, CLONE_NEWNET) != 0) fail(state, PB_SPAWN_STEP_JOIN_NET);
    int flags = CLONE_PARENT | CLONE_VM | CLONE_VFORK | SIGCHLD;
    if (request->namespaces & PB_SPAWN_USER) flags |= CLONE_NEWUSER;
    if (request->namespaces & PB_SPAWN_PID) flags |= CLONE_NEWPID;
    if (request->namespaces & PB_SPAWN_IPC) flags |= CLONE_NEWIPC;
    if (request->namespaces & PB_SPAWN_MOUNT) flags |= CLONE_NEWNS;
    if (request->namespaces & PB_SPAWN_UTS) flags |= CLONE_NEWUTS;
    /* Returns once the worker has called execve or exited. */
    pid_t worker = clone(worker_child, state->worker_stack_top, flags, state);
    if (worker < 0) fail(state, PB_SPAWN_STEP_NAMESPACES);
    state->worker = worker;
    _exit(0);
}

int pb_spawn_worker(const pb_spawn_request *request, pb_spawn_result *caller_result) {
    pb_spawn_result result = {.struct_size = sizeof result, .pid = -1};
    char step_stack[PB_CHILD_STACK] __attribute__((aligned(16)));
    char worker_stack[PB_WORKER_STACK] __attribute__((aligned(16)));
    spawn_state state = {.request = request, .worker = -1, .worker_stack_top = worker_stack + sizeof worker_stack};

    const uint32_t root_needs = PB_SPAWN_PID | PB_SPAWN_MOUNT;
    int valid = request->descriptor_count <= PB_MAX_DESCRIPTORS && (!(request->namespaces & PB_SPAWN_PID) || (request->namespaces & PB_SPAWN_MOUNT)) &&
                (!(request->namespaces & PB_SPAWN_ROOT) || (request->namespaces & root_needs) == root_needs) &&
                (request->root_path_count == 0 || request->root_paths != NULL) &&
                (!(request->namespaces & PB_SPAWN_NET) || request->shared_net_fd >= 0);
    if (!valid) {
        result.failed_step = PB_SPAWN_STEP_START;
        result.error = EINVAL;
    } else {
        /* Blocked until the worker's handlers are the defaults (see reset_signals). */
        sigset_t all, previous;
        sigfillset(&all);
        pthread_sigmask(SIG_SETMASK, &all, &previous);
        pid_t step = clone(step_child, step_stack + sizeof step_stack, CLONE_VM | CLONE_VFORK | SIGCHLD, &state);
        int error = errno;
        pthread_sigmask(SIG_SETMASK, &previous, NULL);
        if (step < 0) {
            result.failed_step = PB_SPAWN_STEP_START;
            result.error = error;
        } else {
            while (waitpid(step, NULL, 0) < 0 && errno == EINTR) {}
            result.failed_step = state.failed_step;
            result.error = state.error;
            result.task_cap_errno = state.task_cap_errno;
            if (state.failed_step == PB_SPAWN_STEP_NONE) {
                result.pid = state.worker;
                result.namespaces = request->namespaces;
            }
            if (state.worker > 0 && (state.failed_step != PB_SPAWN_STEP_NONE || request->path == NULL)) {
                /* It ended before execve, or was a probe; it is our child (CLONE_PARENT). */
                while (waitpid(state.worker, NULL, 0) < 0 && errno == EINTR) {}
                result.pid = -1;
            }
        }
    }
    uint32_t size = caller_result->struct_size < sizeof result ? caller_result->struct_size : (uint32_t)sizeof result;
    memcpy(caller_result, &result, size);
    caller_result->struct_size = size;
    return result.failed_step == PB_SPAWN_STEP_NONE ? 0 : -1;
}

int pb_spawn_pidfd(int32_t pid) {
    /* pidfd_open's descriptors are close-on-exec. */
    return (int)syscall(__NR_pidfd_open, pid, 0);
}
