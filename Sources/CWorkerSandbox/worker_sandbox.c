/*
 * The worker sandbox; see include/worker_sandbox.h for the contract.
 *
 * Why these layers, and why by hand:
 * - Landlock decides what the worker may open (read and execute beneath the
 *   plugin file and the library directories; nothing writable) and, from ABI
 *   4 and 6, that it may not use TCP or signal or reach processes outside.
 * - The seccomp filter takes away what Landlock does not cover: exec, new
 *   processes, ptrace, sockets, io_uring (which would run socket and open
 *   operations the filter never sees), changing file modes and owners
 *   (Landlock does not govern them, and a worker run as root owns root's
 *   files), and raising the resource limits again. It is a deny list, not an
 *   allow list as in Chromium's or OpenSSH's sandboxes: the worker runs
 *   arbitrary plugin code on the Swift runtime, whose ordinary system calls
 *   cannot be listed in advance, and Landlock already confines the files.
 * - libseccomp is not needed for a filter this size, and Landlock's
 *   structures are declared here because the distribution's
 *   <linux/landlock.h> can be older than the kernel (Debian 12's knows ABI 2).
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* syscall, O_PATH, dl_iterate_phdr */
#endif
#include "worker_sandbox.h"

#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/audit.h>
#include <linux/capability.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <link.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

/* ------------------------------------------------------------------------ */
/* Landlock, as of ABI 7 (Linux 6.15)                                       */
/* ------------------------------------------------------------------------ */

#ifndef __NR_landlock_create_ruleset
#define __NR_landlock_create_ruleset 444
#endif
#ifndef __NR_landlock_add_rule
#define __NR_landlock_add_rule 445
#endif
#ifndef __NR_landlock_restrict_self
#define __NR_landlock_restrict_self 446
#endif

/* struct landlock_ruleset_attr with every field up to ABI 6. The kernel takes
 * a struct longer than it knows as long as the fields it does not know are
 * zero, so the unknown ones are always left zero. */
typedef struct pb_landlock_ruleset_attr {
    uint64_t handled_access_fs;
    uint64_t handled_access_net; /* ABI 4 */
    uint64_t scoped;             /* ABI 6 */
} pb_landlock_ruleset_attr;

typedef struct __attribute__((packed)) pb_landlock_path_beneath_attr {
    uint64_t allowed_access;
    int32_t parent_fd;
} pb_landlock_path_beneath_attr;

#define PB_LANDLOCK_CREATE_RULESET_VERSION (1u << 0)
#define PB_LANDLOCK_RULE_PATH_BENEATH 1

#define PB_LL_FS_EXECUTE (1ull << 0)
#define PB_LL_FS_READ_FILE (1ull << 2)
#define PB_LL_FS_READ_DIR (1ull << 3)
/* EXECUTE through MAKE_SYM: every right of ABI 1. */
#define PB_LL_FS_ABI1 ((1ull << 13) - 1)
#define PB_LL_FS_REFER (1ull << 13)     /* ABI 2 */
#define PB_LL_FS_TRUNCATE (1ull << 14)  /* ABI 3 */
#define PB_LL_FS_IOCTL_DEV (1ull << 15) /* ABI 5 */

#define PB_LL_NET_BIND_TCP (1ull << 0)    /* ABI 4 */
#define PB_LL_NET_CONNECT_TCP (1ull << 1) /* ABI 4 */

#define PB_LL_SCOPE_ABSTRACT_UNIX_SOCKET (1ull << 0) /* ABI 6 */
#define PB_LL_SCOPE_SIGNAL (1ull << 1)               /* ABI 6 */

/* Every filesystem right the kernel's ABI knows: all are denied unless a rule grants them. */
static uint64_t landlock_fs_rights(int abi) {
    uint64_t rights = PB_LL_FS_ABI1;
    if (abi >= 2) rights |= PB_LL_FS_REFER;
    if (abi >= 3) rights |= PB_LL_FS_TRUNCATE;
    if (abi >= 5) rights |= PB_LL_FS_IOCTL_DEV;
    return rights;
}

/* Grants `rights` beneath `fd`; a file may only get file rights, so READ_DIR
 * is dropped for one. */
static int landlock_allow(int ruleset, int fd, uint64_t rights) {
    struct stat facts;
    if (fstat(fd, &facts) != 0) return -1;
    pb_landlock_path_beneath_attr rule = {.allowed_access = rights, .parent_fd = fd};
    if (!S_ISDIR(facts.st_mode)) rule.allowed_access &= ~PB_LL_FS_READ_DIR;
    return (int)syscall(__NR_landlock_add_rule, ruleset, PB_LANDLOCK_RULE_PATH_BENEATH, &rule, 0);
}

/* Grants `rights` beneath each path that exists; returns 0 or an errno value. */
static int landlock_allow_paths(int ruleset, const char *const *paths, uint32_t count, uint64_t rights) {
    for (uint32_t i = 0; i < count; i++) {
        int fd = open(paths[i], O_PATH | O_CLOEXEC);
        if (fd < 0) continue; /* A directory this system does not have, e.g. /usr/lib64. */
        int failed = landlock_allow(ruleset, fd, rights) == 0 ? 0 : errno;
        close(fd);
        if (failed) return failed;
    }
    return 0;
}

static void apply_landlock(const pb_sandbox_policy *policy, pb_sandbox_report *report) {
    long abi = syscall(__NR_landlock_create_ruleset, NULL, 0, PB_LANDLOCK_CREATE_RULESET_VERSION);
    if (abi < 1) {
        /* ENOSYS: not built in; EOPNOTSUPP: built in but not enabled at boot. */
        report->landlock_abi = 0;
        report->landlock_errno = errno;
        return;
    }
    report->landlock_abi = (int32_t)abi;

    pb_landlock_ruleset_attr attributes = {.handled_access_fs = landlock_fs_rights((int)abi)};
    uint32_t layers = PB_SANDBOX_LANDLOCK_FS;
    if (abi >= 4 && (policy->layers & PB_SANDBOX_LANDLOCK_NET)) {
        /* Handled, and no port rule added: no TCP bind or connect at all. */
        attributes.handled_access_net = PB_LL_NET_BIND_TCP | PB_LL_NET_CONNECT_TCP;
        layers |= PB_SANDBOX_LANDLOCK_NET;
    }
    if (abi >= 6 && (policy->layers & PB_SANDBOX_LANDLOCK_SCOPE)) {
        attributes.scoped = PB_LL_SCOPE_ABSTRACT_UNIX_SOCKET | PB_LL_SCOPE_SIGNAL;
        layers |= PB_SANDBOX_LANDLOCK_SCOPE;
    }
    int ruleset = (int)syscall(__NR_landlock_create_ruleset, &attributes, sizeof attributes, 0);
    if (ruleset < 0) {
        report->landlock_errno = errno;
        return;
    }
    const uint64_t read_and_execute = PB_LL_FS_READ_FILE | PB_LL_FS_READ_DIR | PB_LL_FS_EXECUTE;
    int failed = 0;
    for (uint32_t i = 0; i < policy->readable_fd_count && !failed; i++) {
        if (landlock_allow(ruleset, policy->readable_fds[i], read_and_execute) != 0) failed = errno;
    }
    if (!failed) failed = landlock_allow_paths(ruleset, policy->readable_paths, policy->readable_path_count, read_and_execute);
    if (!failed) {
        failed = landlock_allow_paths(ruleset, policy->file_reading_paths, policy->file_reading_path_count, PB_LL_FS_READ_FILE);
    }
    if (!failed && syscall(__NR_landlock_restrict_self, ruleset, 0) != 0) failed = errno;
    close(ruleset);
    if (failed) {
        report->landlock_errno = failed;
        return;
    }
    report->applied |= layers;
}

/* ------------------------------------------------------------------------ */
/* The seccomp filter                                                       */
/* ------------------------------------------------------------------------ */

#if defined(__x86_64__)
#define PB_AUDIT_ARCH AUDIT_ARCH_X86_64
/* The per-architecture numbers this file relies on, pinned. */
_Static_assert(__NR_execve == 59 && __NR_clone == 56 && __NR_fork == 57 && __NR_socket == 41, "x86_64 syscall numbers");
#elif defined(__aarch64__)
#define PB_AUDIT_ARCH AUDIT_ARCH_AARCH64
_Static_assert(__NR_execve == 221 && __NR_clone == 220 && __NR_socket == 198, "aarch64 syscall numbers");
#endif

#ifdef PB_AUDIT_ARCH
/* Numbers from Linux 5.1 on are shared by every architecture; these are newer
 * than some distributions' headers. */
#ifndef __NR_pidfd_send_signal
#define __NR_pidfd_send_signal 424
#endif
#ifndef __NR_io_uring_setup
#define __NR_io_uring_setup 425
#define __NR_io_uring_enter 426
#define __NR_io_uring_register 427
#endif
#ifndef __NR_open_tree
#define __NR_open_tree 428
#define __NR_move_mount 429
#define __NR_fsopen 430
#define __NR_fsconfig 431
#define __NR_fsmount 432
#define __NR_fspick 433
#endif
#ifndef __NR_clone3
#define __NR_clone3 435
#endif
#ifndef __NR_pidfd_getfd
#define __NR_pidfd_getfd 438
#endif
#ifndef __NR_mount_setattr
#define __NR_mount_setattr 442
#endif
#ifndef __NR_fchmodat2
#define __NR_fchmodat2 452
#endif
#ifndef __NR_setxattrat
#define __NR_setxattrat 463
#endif
#ifndef __NR_removexattrat
#define __NR_removexattrat 466
#endif

/* Answered with EPERM. Those that exist on x86_64 only are guarded. */
static const uint32_t denied_syscalls[] = {
    /* No other program. */
    __NR_execve, __NR_execveat,
    /* No new process (clone is checked below). */
#ifdef __NR_fork
    __NR_fork,
#endif
#ifdef __NR_vfork
    __NR_vfork,
#endif
    /* No reaching into other processes. */
    __NR_ptrace, __NR_process_vm_readv, __NR_process_vm_writev, __NR_pidfd_getfd, __NR_kcmp,
    __NR_pidfd_send_signal, __NR_tkill,
    /* No sockets at all, and no io_uring, whose operations the filter cannot see. */
    __NR_socket, __NR_socketpair, __NR_io_uring_setup, __NR_io_uring_enter, __NR_io_uring_register,
    /* Kernel attack surface no plugin needs. */
    __NR_bpf, __NR_perf_event_open, __NR_userfaultfd, __NR_keyctl, __NR_add_key, __NR_request_key,
    __NR_personality, __NR_name_to_handle_at, __NR_open_by_handle_at, __NR_syslog,
    __NR_kexec_load, __NR_init_module, __NR_finit_module, __NR_delete_module, __NR_reboot,
    __NR_swapon, __NR_swapoff, __NR_acct,
    /* No namespaces or mounts. */
    __NR_unshare, __NR_setns, __NR_mount, __NR_umount2, __NR_pivot_root, __NR_chroot,
    __NR_mount_setattr, __NR_open_tree, __NR_move_mount, __NR_fsopen, __NR_fsconfig, __NR_fsmount, __NR_fspick,
    /* Metadata Landlock does not govern: modes, owners, extended attributes, times. */
#ifdef __NR_chmod
    __NR_chmod, __NR_chown, __NR_lchown, __NR_utime, __NR_utimes, __NR_futimesat,
#endif
    __NR_fchmod, __NR_fchmodat, __NR_fchmodat2, __NR_fchown, __NR_fchownat, __NR_utimensat,
    __NR_setxattr, __NR_lsetxattr, __NR_fsetxattr, __NR_setxattrat,
    __NR_removexattr, __NR_lremovexattr, __NR_fremovexattr, __NR_removexattrat,
    /* The limits stay (prlimit64 is checked below), and so does the process group. */
    __NR_setrlimit, __NR_setpgid, __NR_setsid,
};

/* Signals may go to this process only: the first argument must be its pid. */
static const uint32_t own_pid_only_syscalls[] = {
    __NR_kill, __NR_tgkill, __NR_rt_sigqueueinfo, __NR_rt_tgsigqueueinfo,
};

/*
 * The filter is a binary search over the sorted numbers of every system call
 * it treats specially, not a list: the kernel runs the filter once for every
 * system call number when it installs it (to learn which ones it may allow
 * without running it again), so a list of ~90 checks cost ~200 µs per worker
 * and a search ~9 checks per number. A system call the search does not find
 * is allowed, and the kernel then allows it without running the filter at
 * all. Leaves that must look at arguments jump to a block after the search.
 */
#define PB_FILTER_CAPACITY 512

typedef enum block {
    BLOCK_NONE,
    BLOCK_CLONE,      /* threads only */
    BLOCK_OWN_PID,    /* the first argument is this process */
    BLOCK_PRCTL,      /* not PR_SET_PDEATHSIG */
    BLOCK_PRLIMIT64,  /* reading only */
    BLOCK_COUNT,
} block;

typedef struct rule {
    uint32_t nr;
    /* The return value for the number, unless `block` says where to look further. */
    uint32_t action;
    block block;
} rule;

typedef struct filter_builder {
    struct sock_filter code[PB_FILTER_CAPACITY];
    unsigned length;
    int overflow;
    /* Jumps (BPF_JA) to each block, patched once the block is placed. */
    unsigned block_jumps[BLOCK_COUNT][8];
    unsigned block_jump_count[BLOCK_COUNT];
} filter_builder;

static unsigned emit(filter_builder *builder, struct sock_filter instruction) {
    if (builder->length == PB_FILTER_CAPACITY) {
        builder->overflow = 1;
        return builder->length - 1;
    }
    builder->code[builder->length] = instruction;
    return builder->length++;
}

/* Points the conditional jump at `from` (its true branch) at the next instruction to be emitted. */
static void patch_true_branch(filter_builder *builder, unsigned from) {
    unsigned distance = builder->length - from - 1;
    if (distance > 255) builder->overflow = 1; /* A conditional jump reaches 255 instructions at most. */
    builder->code[from].jt = (unsigned char)distance;
}

#define STATEMENT(code, k) ((struct sock_filter)BPF_STMT(code, k))
#define JUMP(code, k, jt, jf) ((struct sock_filter)BPF_JUMP(code, k, jt, jf))
#define ALLOW STATEMENT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW)
#define FAIL_WITH(error) (SECCOMP_RET_ERRNO | ((error) & SECCOMP_RET_DATA))
#define RETURN(action) STATEMENT(BPF_RET | BPF_K, (action))
#define LOAD_NR STATEMENT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr))

/* The 32-bit halves of argument `index`; little-endian on both architectures Linux runs here. */
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define ARG_LOW(index) (offsetof(struct seccomp_data, args) + 8 * (index))
#define ARG_HIGH(index) (offsetof(struct seccomp_data, args) + 8 * (index) + 4)
#else
#define ARG_LOW(index) (offsetof(struct seccomp_data, args) + 8 * (index) + 4)
#define ARG_HIGH(index) (offsetof(struct seccomp_data, args) + 8 * (index))
#endif
#define LOAD_ARG(offset) STATEMENT(BPF_LD | BPF_W | BPF_ABS, (offset))

static int by_number(const void *left, const void *right) {
    uint32_t a = ((const rule *)left)->nr, b = ((const rule *)right)->nr;
    return a < b ? -1 : a > b;
}

/* The search over rules[low, high), with the system call number loaded. */
static void emit_search(filter_builder *builder, const rule *rules, size_t low, size_t high) {
    if (high - low <= 3) {
        for (size_t i = low; i < high; i++) {
            emit(builder, JUMP(BPF_JMP | BPF_JEQ | BPF_K, rules[i].nr, 0, 1));
            if (rules[i].block == BLOCK_NONE) {
                emit(builder, RETURN(rules[i].action));
            } else {
                block target = rules[i].block;
                unsigned jump = emit(builder, STATEMENT(BPF_JMP | BPF_JA, 0));
                if (builder->block_jump_count[target] == 8) builder->overflow = 1;
                else builder->block_jumps[target][builder->block_jump_count[target]++] = jump;
            }
        }
        emit(builder, ALLOW);
        return;
    }
    size_t middle = low + (high - low) / 2;
    /* Numbers at or above the middle one jump past the lower half. */
    unsigned split = emit(builder, JUMP(BPF_JMP | BPF_JGE | BPF_K, rules[middle].nr, 0, 0));
    emit_search(builder, rules, low, middle);
    patch_true_branch(builder, split);
    emit_search(builder, rules, middle, high);
}

/* Places `target`'s block here and points every jump to it at it. */
static void place_block(filter_builder *builder, block target) {
    for (unsigned i = 0; i < builder->block_jump_count[target]; i++) {
        unsigned jump = builder->block_jumps[target][i];
        builder->code[jump].k = builder->length - jump - 1;
    }
}

static void build_filter(filter_builder *builder, uint32_t own_pid) {
    rule rules[sizeof denied_syscalls / sizeof denied_syscalls[0] + sizeof own_pid_only_syscalls / sizeof own_pid_only_syscalls[0] + 4];
    size_t count = 0;
    for (size_t i = 0; i < sizeof denied_syscalls / sizeof denied_syscalls[0]; i++) {
        rules[count++] = (rule){denied_syscalls[i], FAIL_WITH(EPERM), BLOCK_NONE};
    }
    for (size_t i = 0; i < sizeof own_pid_only_syscalls / sizeof own_pid_only_syscalls[0]; i++) {
        rules[count++] = (rule){own_pid_only_syscalls[i], 0, BLOCK_OWN_PID};
    }
    /* clone3 keeps its flags in memory, out of the filter's reach: ENOSYS
     * makes glibc fall back to clone, whose flags are an argument. */
    rules[count++] = (rule){__NR_clone3, FAIL_WITH(ENOSYS), BLOCK_NONE};
    rules[count++] = (rule){__NR_clone, 0, BLOCK_CLONE};
    rules[count++] = (rule){__NR_prctl, 0, BLOCK_PRCTL};
    rules[count++] = (rule){__NR_prlimit64, 0, BLOCK_PRLIMIT64};
    qsort(rules, count, sizeof rules[0], by_number);
    for (size_t i = 1; i < count; i++) {
        if (rules[i].nr == rules[i - 1].nr) builder->overflow = 1; /* Listed twice: a mistake here. */
    }

    /* A system call of another ABI (i386 through int 0x80, x32, AArch32) has
     * other numbers: nothing below would mean what it says. Kill. */
    emit(builder, STATEMENT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch)));
    emit(builder, JUMP(BPF_JMP | BPF_JEQ | BPF_K, PB_AUDIT_ARCH, 1, 0));
    emit(builder, RETURN(SECCOMP_RET_KILL_PROCESS));
    emit(builder, LOAD_NR);
#if defined(__x86_64__)
    emit(builder, JUMP(BPF_JMP | BPF_JGE | BPF_K, 0x40000000u /* __X32_SYSCALL_BIT */, 0, 1));
    emit(builder, RETURN(SECCOMP_RET_KILL_PROCESS));
#endif
    emit_search(builder, rules, 0, count);

    /* clone: threads only. */
    place_block(builder, BLOCK_CLONE);
    emit(builder, LOAD_ARG(ARG_LOW(0)));
    emit(builder, JUMP(BPF_JMP | BPF_JSET | BPF_K, 0x00010000u /* CLONE_THREAD */, 0, 1));
    emit(builder, ALLOW);
    emit(builder, RETURN(FAIL_WITH(EPERM)));

    /* kill, tgkill and the sigqueue calls: to this process only. The kernel
     * reads a pid as a C int, so the low half is all of it. */
    place_block(builder, BLOCK_OWN_PID);
    emit(builder, LOAD_ARG(ARG_LOW(0)));
    emit(builder, JUMP(BPF_JMP | BPF_JEQ | BPF_K, own_pid, 0, 1));
    emit(builder, ALLOW);
    emit(builder, RETURN(FAIL_WITH(EPERM)));

    /* prctl: everything but taking back the parent-death signal. */
    place_block(builder, BLOCK_PRCTL);
    emit(builder, LOAD_ARG(ARG_LOW(0)));
    emit(builder, JUMP(BPF_JMP | BPF_JEQ | BPF_K, PR_SET_PDEATHSIG, 1, 0));
    emit(builder, ALLOW);
    emit(builder, RETURN(FAIL_WITH(EPERM)));

    /* prlimit64: reading only, i.e. new_limit (argument 2) is NULL. */
    place_block(builder, BLOCK_PRLIMIT64);
    emit(builder, LOAD_ARG(ARG_LOW(2)));
    emit(builder, JUMP(BPF_JMP | BPF_JEQ | BPF_K, 0, 0, 3));
    emit(builder, LOAD_ARG(ARG_HIGH(2)));
    emit(builder, JUMP(BPF_JMP | BPF_JEQ | BPF_K, 0, 0, 1));
    emit(builder, ALLOW);
    emit(builder, RETURN(FAIL_WITH(EPERM)));
}

static void apply_seccomp(pb_sandbox_report *report) {
    report->seccomp_arch = PB_AUDIT_ARCH;
    static filter_builder builder;
    memset(&builder, 0, sizeof builder);
    build_filter(&builder, (uint32_t)getpid());
    if (builder.overflow) {
        report->seccomp_errno = E2BIG;
        return;
    }
    struct sock_fprog program = {.len = (unsigned short)builder.length, .filter = builder.code};
    long result = syscall(__NR_seccomp, SECCOMP_SET_MODE_FILTER, SECCOMP_FILTER_FLAG_TSYNC, &program);
    if (result != 0) {
        /* A positive result is the id of a thread that could not be synchronised. */
        report->seccomp_errno = result > 0 ? ESRCH : errno;
        return;
    }
    report->applied |= PB_SANDBOX_SECCOMP;
}
#else
static void apply_seccomp(pb_sandbox_report *report) {
    /* No filter is written for this architecture; claim nothing. */
    report->seccomp_arch = 0;
    report->seccomp_errno = ENOSYS;
}
#endif /* PB_AUDIT_ARCH */

/* ------------------------------------------------------------------------ */
/* The rest                                                                 */
/* ------------------------------------------------------------------------ */

static int set_limit(int resource, rlim_t soft, rlim_t hard) {
    struct rlimit limit = {.rlim_cur = soft, .rlim_max = hard};
    return setrlimit(resource, &limit);
}

static void apply_rlimits(const pb_sandbox_policy *policy, pb_sandbox_report *report) {
    /* A write past RLIMIT_FSIZE would raise SIGXFSZ and kill; EFBIG is the error return. */
    signal(SIGXFSZ, SIG_IGN);
    int failed = 0;
    if (set_limit(RLIMIT_AS, policy->address_space_bytes, policy->address_space_bytes) != 0) failed = errno;
    if (!failed && set_limit(RLIMIT_NOFILE, policy->open_files, policy->open_files) != 0) failed = errno;
    if (!failed && set_limit(RLIMIT_FSIZE, 0, 0) != 0) failed = errno;
    if (!failed && set_limit(RLIMIT_CORE, 0, 0) != 0) failed = errno;
    if (!failed && set_limit(RLIMIT_CPU, policy->cpu_seconds, policy->cpu_seconds + 1) != 0) failed = errno;
    if (failed) {
        report->other_errno = failed;
        return;
    }
    report->applied |= PB_SANDBOX_RLIMITS;
}

static int drop_capabilities(void) {
    struct __user_cap_header_struct header = {.version = _LINUX_CAPABILITY_VERSION_3, .pid = 0};
    struct __user_cap_data_struct data[_LINUX_CAPABILITY_U32S_3];
    memset(data, 0, sizeof data);
    return (int)syscall(__NR_capset, &header, data);
}

static uint32_t count_threads(void) {
    DIR *tasks = opendir("/proc/self/task");
    if (!tasks) return 0;
    uint32_t count = 0;
    struct dirent *entry;
    while ((entry = readdir(tasks)) != NULL) {
        if (entry->d_name[0] != '.') count++;
    }
    closedir(tasks);
    return count;
}

static uint64_t now_ns(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (uint64_t)now.tv_sec * 1000000000u + (uint64_t)now.tv_nsec;
}

int pb_sandbox_confine(const pb_sandbox_policy *policy, pb_sandbox_report *caller_report) {
    pb_sandbox_report report;
    memset(&report, 0, sizeof report);
    uint64_t start = now_ns();
    uint32_t wanted = policy->layers & PB_SANDBOX_ALL_LAYERS;

    report.threads = count_threads();
    /* Needed without CAP_SYS_ADMIN for both Landlock and seccomp, so it goes
     * first whatever else is asked. */
    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) == 0) {
        report.applied |= PB_SANDBOX_NO_NEW_PRIVS;
    } else {
        report.other_errno = errno;
    }

    uint64_t mark = now_ns();
    if (wanted & PB_SANDBOX_RLIMITS) apply_rlimits(policy, &report);
    report.rlimits_ns = now_ns() - mark;

    mark = now_ns();
    if (wanted & PB_SANDBOX_LANDLOCK_FS) apply_landlock(policy, &report);
    report.landlock_ns = now_ns() - mark;

    if (wanted & PB_SANDBOX_CAPABILITIES) {
        if (drop_capabilities() == 0) {
            report.applied |= PB_SANDBOX_CAPABILITIES;
        } else if (!report.other_errno) {
            report.other_errno = errno;
        }
    }

    /* Last: the filter forbids setrlimit and taking back the parent-death signal. */
    mark = now_ns();
    if (wanted & PB_SANDBOX_SECCOMP) apply_seccomp(&report);
    report.seccomp_ns = now_ns() - mark;

    report.total_ns = now_ns() - start;
    report.struct_size = caller_report->struct_size < sizeof report ? caller_report->struct_size : (uint32_t)sizeof report;
    memcpy(caller_report, &report, report.struct_size);
    return (report.applied & wanted) == wanted ? 0 : -1;
}

int pb_sandbox_bind_to_parent(int32_t parent_pid) {
    if (prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0) != 0) return -1;
    /* A parent that died before the call has already handed this process to
     * another (init or a subreaper): the signal will never come. */
    if (getppid() != (pid_t)parent_pid) {
        errno = ESRCH;
        return -1;
    }
    return 0;
}

/* The object whose loaded segments hold `address`, for dl_iterate_phdr. */
struct pb_library_search {
    uintptr_t address;
    const char *name;
};

static int pb_find_library(struct dl_phdr_info *info, size_t size, void *context) {
    (void)size;
    struct pb_library_search *search = context;
    for (ElfW(Half) index = 0; index < info->dlpi_phnum; index++) {
        const ElfW(Phdr) *segment = &info->dlpi_phdr[index];
        if (segment->p_type != PT_LOAD) continue;
        uintptr_t start = info->dlpi_addr + segment->p_vaddr;
        if (search->address >= start && search->address - start < segment->p_memsz) {
            search->name = info->dlpi_name;
            return 1;
        }
    }
    return 0;
}

int pb_sandbox_library_directory(const char *symbol, char *buffer, size_t capacity) {
    void *address = dlsym(RTLD_DEFAULT, symbol);
    /* Not dladdr: it also looks for the nearest symbol, a scan of the whole
     * symbol table that cost a worker a twentieth of its start. */
    struct pb_library_search search = {(uintptr_t)address, NULL};
    if (!address || !dl_iterate_phdr(pb_find_library, &search) || !search.name || !search.name[0]) return -1;
    const char *slash = strrchr(search.name, '/');
    if (!slash) return -1;
    size_t length = (size_t)(slash - search.name);
    if (length == 0) length = 1; /* the root directory */
    if (length + 1 > capacity) return -1;
    memcpy(buffer, search.name, length);
    buffer[length] = '\0';
    return 0;
}
