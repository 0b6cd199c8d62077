/*
 * The worker sandbox; see include/worker_sandbox.h for the contract.
 *
 * Why these layers, and why by hand:
 * - The namespaces (worker_spawn.c) are made before the worker runs: no
 *   other process, IPC object or network interface is there to reach.
 * - Landlock decides what the worker may open (read and execute beneath the
 *   plugin file and the library directories; nothing writable) and, from ABI
 *   4 and 6, that it may not use TCP or signal or reach processes outside.
 * - The seccomp filter (seccomp_filter.c) is an allow list: the system calls
 *   loading and running a plugin needs, each with its reason; the rest are
 *   refused, and the first refused one is reported.
 * - libseccomp is not needed for a filter this size, and Landlock's
 *   structures are declared here because the distribution's
 *   <linux/landlock.h> can be older than the kernel (Debian 12's knows ABI 2).
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* syscall, O_PATH, dl_iterate_phdr */
#endif
#include "worker_sandbox.h"
#include "sandbox_internal.h"

#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/capability.h>
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

/*
 * In its own PID namespace the worker is PID 1, and the kernel delivers to a
 * namespace's first process only the signals it has a handler for (besides
 * SIGKILL from outside and faults): abort()'s SIGABRT, the CPU limit's
 * SIGXCPU or a raised SIGTERM would be dropped, and the worker would carry on
 * or end some other way. So it handles each signal whose default is to end
 * the process by ending with status 128 + the signal, as a shell reports it,
 * and the host reads that status back as the signal (pb_sandbox_exit_signal).
 * Faults (SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGTRAP) and the filter's SIGSYS
 * are forced by the kernel and end it as they would any process.
 */
static const int ends_by_status[] = {
    SIGHUP, SIGINT, SIGQUIT, SIGABRT, SIGUSR1, SIGUSR2, SIGPIPE, SIGALRM, SIGTERM,
    SIGSTKFLT, SIGXCPU, SIGVTALRM, SIGPROF, SIGIO, SIGPWR,
};

static void end_by_status(int signal) {
    _exit(128 + signal);
}

static int handle_ending_signals(void) {
    struct sigaction handler;
    memset(&handler, 0, sizeof handler);
    handler.sa_handler = end_by_status;
    sigemptyset(&handler.sa_mask);
    for (size_t i = 0; i < sizeof ends_by_status / sizeof ends_by_status[0]; i++) {
        if (sigaction(ends_by_status[i], &handler, NULL) != 0) return -1;
    }
    return 0;
}

int32_t pb_sandbox_exit_signal(int32_t status) {
    for (size_t i = 0; i < sizeof ends_by_status / sizeof ends_by_status[0]; i++) {
        if (status == 128 + ends_by_status[i]) return ends_by_status[i];
    }
    return 0;
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
    uint32_t own_pid = (uint32_t)getpid();
    if (own_pid == 1) {
        if (handle_ending_signals() == 0) {
            report.pid_namespace_init = 1;
        } else {
            report.other_errno = errno;
        }
    }
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

    /* Last: the filter refuses setrlimit, and its SIGSYS handler must be the one in place. */
    mark = now_ns();
    if (wanted & PB_SANDBOX_SECCOMP) pb_sandbox_apply_seccomp(own_pid, &report);
    report.seccomp_ns = now_ns() - mark;

    report.total_ns = now_ns() - start;
    report.struct_size = caller_report->struct_size < sizeof report ? caller_report->struct_size : (uint32_t)sizeof report;
    memcpy(caller_report, &report, report.struct_size);
    return (report.applied & wanted) == wanted ? 0 : -1;
}

void pb_sandbox_probe(uint32_t layers, pb_sandbox_report *caller_report) {
    pb_sandbox_report report;
    memset(&report, 0, sizeof report);
    uint32_t wanted = layers & PB_SANDBOX_ALL_LAYERS;
    /* A worker confines itself before its first thread: count it as one. */
    report.threads = 1;
    report.applied = wanted & (PB_SANDBOX_NO_NEW_PRIVS | PB_SANDBOX_CAPABILITIES | PB_SANDBOX_RLIMITS);
    long abi = syscall(__NR_landlock_create_ruleset, NULL, 0, PB_LANDLOCK_CREATE_RULESET_VERSION);
    if (abi < 1) {
        report.landlock_errno = errno;
    } else {
        report.landlock_abi = (int32_t)abi;
        if (wanted & PB_SANDBOX_LANDLOCK_FS) report.applied |= PB_SANDBOX_LANDLOCK_FS;
        if ((wanted & PB_SANDBOX_LANDLOCK_FS) && abi >= 4) report.applied |= wanted & PB_SANDBOX_LANDLOCK_NET;
        if ((wanted & PB_SANDBOX_LANDLOCK_FS) && abi >= 6) report.applied |= wanted & PB_SANDBOX_LANDLOCK_SCOPE;
    }
    pb_sandbox_probe_seccomp(&report);
    if (!(wanted & PB_SANDBOX_SECCOMP)) report.applied &= ~(uint32_t)PB_SANDBOX_SECCOMP;
    report.struct_size = caller_report->struct_size < sizeof report ? caller_report->struct_size : (uint32_t)sizeof report;
    memcpy(caller_report, &report, report.struct_size);
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
