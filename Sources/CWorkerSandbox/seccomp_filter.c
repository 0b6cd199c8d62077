/*
 * The worker's system-call filter: an allow list, read top to bottom.
 *
 * Every system call a worker may make is in `policy` below, with the reason
 * it is there; every other one is refused. The list was measured, not
 * guessed: `strace -f` over workers loading and fetching with the bundled
 * Swift plugins, the C and Rust examples and the test fixtures, counting the
 * calls made after the worker confines itself (scripts/syscall-profile.py).
 * Loading a plugin is dlopen (openat, mmap, mprotect, pread64, fstat);
 * running it is the Swift runtime and libdispatch (threads, futexes,
 * epoll, timerfd, eventfd), the frame pipes (poll, read, write) and time.
 * The model is OpenSSH's sandbox-seccomp-filter.c; where OpenSSH kills, a
 * refused call here fails with EPERM and is remembered (see below), because
 * a plugin is not OpenSSH: it may probe for what it lacks and carry on.
 *
 * Three verdicts:
 *   ALLOW    the kernel runs the call;
 *   FAIL(e)  the call returns -1 with errno e, quietly: what the runtime asks
 *            and is told no (a terminal query, a thread's name);
 *   REFUSE   SECCOMP_RET_TRAP: the kernel sends the calling thread SIGSYS,
 *            whose handler notes the call's number (`pb_sandbox_first_refused_syscall`)
 *            and makes it return -1 with EPERM. The host reports the first
 *            one per plugin. A thread that blocks SIGSYS, or a plugin that
 *            takes the handler over, is killed by SIGSYS instead.
 * A rule may look at arguments (never at memory, which a filter cannot
 * read: so clone3, whose flags are in memory, fails with ENOSYS and glibc
 * falls back to clone).
 *
 * How the list becomes BPF: a binary search over the sorted numbers, each
 * leaf returning its verdict or jumping to the rule's argument tests placed
 * after the search. Not a list of comparisons, because the kernel runs a new
 * filter once per system-call number when it is installed, to learn which
 * numbers it may then allow without running the filter at all (Linux 5.11's
 * seccomp cache): a search costs ~8 comparisons per number, a list of 130
 * rules ~130. Allowed calls whose rule looks at no argument never run the
 * filter again.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* syscall, REG_RAX */
#endif
#include "worker_sandbox.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <ucontext.h>
#include <unistd.h>

/* si_code of a SIGSYS the filter sent; <asm-generic/siginfo.h> clashes with glibc's <signal.h>. */
#ifndef SYS_SECCOMP
#define SYS_SECCOMP 1
#endif

#if defined(__x86_64__)
#define PB_AUDIT_ARCH AUDIT_ARCH_X86_64
/* Pinned, so a header that numbered them differently fails the build. */
_Static_assert(__NR_read == 0 && __NR_execve == 59 && __NR_clone == 56 && __NR_socket == 41, "x86_64 system call numbers");
#elif defined(__aarch64__)
#define PB_AUDIT_ARCH AUDIT_ARCH_AARCH64
_Static_assert(__NR_read == 63 && __NR_execve == 221 && __NR_clone == 220 && __NR_socket == 198, "aarch64 system call numbers");
#endif

/* The last call the refused-call handler saw first, plus one (0: none yet), and how many. */
static _Atomic uint32_t first_refused;
static _Atomic uint32_t refused_count;

uint32_t pb_sandbox_first_refused_syscall(void) {
    uint32_t noted = atomic_load_explicit(&first_refused, memory_order_relaxed);
    return noted ? noted - 1 : UINT32_MAX;
}

uint32_t pb_sandbox_refused_syscall_count(void) {
    return atomic_load_explicit(&refused_count, memory_order_relaxed);
}

#ifdef PB_AUDIT_ARCH

/* Numbers from Linux 5.1 on are the same on every architecture; these are
 * newer than some distributions' headers. */
#ifndef __NR_clone3
#define __NR_clone3 435
#endif
#ifndef __NR_close_range
#define __NR_close_range 436
#endif
#ifndef __NR_faccessat2
#define __NR_faccessat2 439
#endif
#ifndef __NR_epoll_pwait2
#define __NR_epoll_pwait2 441
#endif
#ifndef __NR_futex_waitv
#define __NR_futex_waitv 449
#endif

/* ------------------------------------------------------------------------ */
/* The policy                                                               */
/* ------------------------------------------------------------------------ */

typedef enum verdict_kind { VERDICT_NONE, VERDICT_ALLOW, VERDICT_FAIL, VERDICT_REFUSE } verdict_kind;

typedef struct verdict {
    uint8_t kind;
    uint8_t error; /* for VERDICT_FAIL */
} verdict;

typedef enum test_kind {
    /* The argument's low 32 bits equal `value`: what the kernel reads of an int or an unsigned int. */
    TEST_EQUALS = 1,
    /* Every bit of `value` is set in the argument's low 32 bits. */
    TEST_HAS_BITS,
    /* The whole 64-bit argument is 0: a NULL pointer. */
    TEST_NULL,
    /* The argument's low 32 bits are the worker's own pid (1 in its PID namespace). */
    TEST_OWN_PID,
} test_kind;

/* "If argument `arg` passes `test`, then `then`." */
typedef struct clause {
    uint8_t arg;
    uint8_t test;
    uint32_t value;
    verdict then;
} clause;

#define PB_MAX_CLAUSES 8

typedef struct rule {
    uint32_t nr;
    /* The clauses in order; the first that holds decides. A zero `then` ends them. */
    clause when[PB_MAX_CLAUSES];
    /* When no clause holds, or there is none. */
    verdict otherwise;
} rule;

#define ALLOWED ((verdict){VERDICT_ALLOW, 0})
#define REFUSED ((verdict){VERDICT_REFUSE, 0})
#define FAILS(e) ((verdict){VERDICT_FAIL, (e)})

#define IF_EQUALS(index, v, verdict) {.arg = (index), .test = TEST_EQUALS, .value = (uint32_t)(v), .then = verdict}
#define IF_HAS_BITS(index, bits, verdict) {.arg = (index), .test = TEST_HAS_BITS, .value = (uint32_t)(bits), .then = verdict}
#define IF_NULL(index, verdict) {.arg = (index), .test = TEST_NULL, .then = verdict}
#define IF_OWN_PID(index, verdict) {.arg = (index), .test = TEST_OWN_PID, .then = verdict}

/* ALLOW(call, reason): always. */
#define ALLOW(call, reason) {.nr = __NR_##call, .otherwise = ALLOWED}
/* FAIL(call, errno, reason): always that error, quietly. */
#define FAIL(call, error, reason) {.nr = __NR_##call, .otherwise = FAILS(error)}
/* RULE(call, otherwise, reason, clauses...): the clauses, then `otherwise`. */
#define RULE(call, fallback, reason, ...) {.nr = __NR_##call, .when = {__VA_ARGS__}, .otherwise = fallback}

static const rule policy[] = {
    /* ---- Memory ---------------------------------------------------------- */
    ALLOW(brk, "malloc's main arena"),
    ALLOW(mmap, "malloc, thread stacks, and dlopen mapping the plugin and its libraries"),
    ALLOW(mprotect, "dlopen's relocation (RELRO) and thread stack guards"),
    ALLOW(munmap, "freeing what mmap gave"),
    ALLOW(mremap, "realloc of large blocks"),
    ALLOW(madvise, "malloc and the Swift runtime giving memory back (MADV_DONTNEED, MADV_FREE)"),

    /* ---- Threads, never processes ---------------------------------------- */
    RULE(clone, REFUSED, "threads only: fork and vfork are clone without CLONE_THREAD",
         IF_HAS_BITS(0, CLONE_THREAD, ALLOWED)),
    FAIL(clone3, ENOSYS, "its flags are in memory, out of the filter's reach: ENOSYS makes glibc use clone"),
    ALLOW(set_robust_list, "every new thread (glibc)"),
    ALLOW(rseq, "every new thread (glibc 2.35 and later)"),
    ALLOW(set_tid_address, "thread start-up"),
    ALLOW(gettid, "libdispatch and the Swift runtime identify their threads"),
    ALLOW(getpid, "its own pid, 1 in its PID namespace"),
    ALLOW(getppid, "answers 0 in its own PID namespace"),
    ALLOW(futex, "every lock and wait, including Swift's Mutex (priority-inheritance futexes)"),
    ALLOW(futex_waitv, "waiting on several futexes (newer glibc)"),
    ALLOW(sched_yield, "spin locks backing off"),
    ALLOW(sched_getaffinity, "how many cores: libdispatch's pool, Rust's available_parallelism"),
    RULE(setpriority, REFUSED, "libdispatch sets its threads' priority: this thread only",
         IF_EQUALS(0, PRIO_PROCESS, ALLOWED)),
    RULE(getpriority, REFUSED, "the same, read back", IF_EQUALS(0, PRIO_PROCESS, ALLOWED)),
    ALLOW(exit, "a thread ends"),
    ALLOW(exit_group, "the worker ends"),

    /* ---- Time ------------------------------------------------------------ */
    ALLOW(clock_gettime, "when the vDSO cannot answer"),
    ALLOW(clock_getres, "timers"),
    ALLOW(gettimeofday, "when the vDSO cannot answer"),
    ALLOW(nanosleep, "sleeping"),
    ALLOW(clock_nanosleep, "sleeping, and Swift's Task.sleep"),
    ALLOW(timerfd_create, "libdispatch's timers"),
    ALLOW(timerfd_settime, "libdispatch's timers"),
    ALLOW(timerfd_gettime, "libdispatch's timers"),
#ifdef __NR_time
    ALLOW(time, "time(2), x86_64 only"),
#endif

    /* ---- Signals: its own only ------------------------------------------- */
    RULE(rt_sigaction, ALLOWED, "handlers of its own, but SIGSYS stays the sandbox's: the handler that reports refused calls",
         IF_EQUALS(0, SIGSYS, REFUSED)),
    ALLOW(rt_sigprocmask, "masks around every thread start and in libdispatch"),
    ALLOW(rt_sigreturn, "the end of every signal handler"),
    ALLOW(rt_sigsuspend, "the worker's main thread parks in dispatchMain"),
    ALLOW(rt_sigtimedwait, "waiting for a signal"),
    ALLOW(sigaltstack, "Rust and Swift threads set up a stack for overflow handlers"),
    RULE(kill, REFUSED, "to itself only: abort() and raise()", IF_OWN_PID(0, ALLOWED)),
    RULE(tgkill, REFUSED, "to its own threads only: raise() and pthread_kill", IF_OWN_PID(0, ALLOWED)),
    RULE(rt_sigqueueinfo, REFUSED, "to itself only", IF_OWN_PID(0, ALLOWED)),
    RULE(rt_tgsigqueueinfo, REFUSED, "to its own threads only", IF_OWN_PID(0, ALLOWED)),

    /* ---- Who it is, and its limits --------------------------------------- */
    ALLOW(getuid, "glibc and the runtime ask"),
    ALLOW(geteuid, "glibc and the runtime ask"),
    ALLOW(getgid, "glibc and the runtime ask"),
    ALLOW(getegid, "glibc and the runtime ask"),
    ALLOW(getresuid, "glibc asks"),
    ALLOW(getresgid, "glibc asks"),
    ALLOW(getgroups, "glibc asks"),
    ALLOW(uname, "the runtime and glibc ask the kernel's version"),
    ALLOW(getrandom, "hashing seeds (Swift, Rust) and the completion tokens"),
    ALLOW(getrusage, "CPU time, for a plugin's own measurements"),
    RULE(prlimit64, REFUSED, "reading its own limits only: no new limit, as the stack size for threads",
         IF_NULL(2, ALLOWED)),
#ifdef __NR_getrlimit
    ALLOW(getrlimit, "reading its limits, x86_64 only"),
#endif
    RULE(prctl, REFUSED, "the few options the runtime reads; no renaming in ps, no taking back the parent-death signal",
         IF_EQUALS(0, PR_GET_NAME, ALLOWED),
         IF_EQUALS(0, PR_GET_DUMPABLE, ALLOWED),
         IF_EQUALS(0, PR_GET_PDEATHSIG, ALLOWED),
         IF_EQUALS(0, PR_SET_NAME, FAILS(EPERM)),
         IF_EQUALS(0, 0x53564d41 /* PR_SET_VMA, glibc names malloc's mappings */, FAILS(EINVAL))),
    ALLOW(getcwd, "the runtime asks"),

    /* ---- Descriptors: the frame pipes, the plugin, what Landlock opens --- */
    ALLOW(read, "frames, files"),
    ALLOW(readv, "frames, files"),
    ALLOW(pread64, "dlopen reads ELF headers"),
    ALLOW(write, "frames, its stdout and stderr (pipes to the host)"),
    ALLOW(writev, "frames, stdio"),
    ALLOW(close, "any of its own"),
    ALLOW(close_range, "closing many at once"),
    ALLOW(lseek, "files"),
    ALLOW(openat, "what Landlock lets it open: the plugin, its libraries, /proc/self"),
#ifdef __NR_open
    ALLOW(open, "the same, x86_64 only"),
#endif
    ALLOW(fstat, "dlopen"),
    ALLOW(newfstatat, "dlopen, the runtime"),
    ALLOW(statx, "Rust's std"),
    ALLOW(fstatfs, "the runtime"),
    ALLOW(readlinkat, "the runtime reads /proc/self/exe"),
#ifdef __NR_readlink
    ALLOW(readlink, "the same, x86_64 only"),
#endif
#ifdef __NR_stat
    ALLOW(stat, "x86_64 only"),
    ALLOW(lstat, "x86_64 only"),
    ALLOW(access, "x86_64 only"),
#endif
    ALLOW(faccessat, "the dynamic loader"),
    ALLOW(faccessat2, "the dynamic loader"),
    ALLOW(getdents64, "listing /proc/self/task"),
    RULE(fcntl, REFUSED, "descriptor flags only: no SIGIO to others (F_SETOWN), no leases or locks",
         IF_EQUALS(1, F_GETFD, ALLOWED),
         IF_EQUALS(1, F_SETFD, ALLOWED),
         IF_EQUALS(1, F_GETFL, ALLOWED),
         IF_EQUALS(1, F_SETFL, ALLOWED),
         IF_EQUALS(1, F_DUPFD, ALLOWED),
         IF_EQUALS(1, F_DUPFD_CLOEXEC, ALLOWED)),
    ALLOW(dup, "stdio"),
    ALLOW(dup3, "stdio"),
#ifdef __NR_dup2
    ALLOW(dup2, "x86_64 only"),
#endif
    ALLOW(pipe2, "the pipe loop's wake-up pipe"),
#ifdef __NR_pipe
    ALLOW(pipe, "x86_64 only"),
#endif
    ALLOW(ppoll, "the pipe loop"),
#ifdef __NR_poll
    ALLOW(poll, "the pipe loop, x86_64"),
#endif
    ALLOW(epoll_create1, "libdispatch's event loop"),
#ifdef __NR_epoll_create
    ALLOW(epoll_create, "x86_64 only"),
#endif
    ALLOW(epoll_ctl, "libdispatch's event loop"),
    ALLOW(epoll_pwait, "libdispatch's event loop"),
    ALLOW(epoll_pwait2, "newer event loops"),
#ifdef __NR_epoll_wait
    ALLOW(epoll_wait, "libdispatch's event loop, x86_64"),
#endif
    ALLOW(eventfd2, "libdispatch wakes its event loop"),
    RULE(ioctl, REFUSED, "none at all, and no terminal's: glibc's isatty asks TCGETS of stdout, which is a pipe",
         IF_EQUALS(1, TCGETS, FAILS(ENOTTY))),

    /* ---- Restarting -------------------------------------------------------- */
    ALLOW(restart_syscall, "the kernel restarts an interrupted sleep"),
};

/* ------------------------------------------------------------------------ */
/* The policy in BPF                                                        */
/* ------------------------------------------------------------------------ */

#define PB_FILTER_CAPACITY 1024
#define PB_RULE_COUNT (sizeof policy / sizeof policy[0])

typedef struct filter_builder {
    struct sock_filter code[PB_FILTER_CAPACITY];
    unsigned length;
    int overflow;
    uint32_t own_pid;
    /* The jump from each rule's leaf to its argument tests, patched when they are placed; 0: none. */
    unsigned tests_jump[PB_RULE_COUNT];
} filter_builder;

static unsigned emit(filter_builder *builder, struct sock_filter instruction) {
    if (builder->length == PB_FILTER_CAPACITY) {
        builder->overflow = 1;
        return builder->length - 1;
    }
    builder->code[builder->length] = instruction;
    return builder->length++;
}

/* Points the unconditional jump at `from` at the next instruction to be emitted. */
static void land_here(filter_builder *builder, unsigned from) {
    builder->code[from].k = builder->length - from - 1;
}

#define STATEMENT(code, k) ((struct sock_filter)BPF_STMT(code, k))
#define JUMP(code, k, jt, jf) ((struct sock_filter)BPF_JUMP(code, k, jt, jf))
#define JUMP_ALWAYS() STATEMENT(BPF_JMP | BPF_JA, 0)
#define LOAD(offset) STATEMENT(BPF_LD | BPF_W | BPF_ABS, (offset))
#define RETURN(action) STATEMENT(BPF_RET | BPF_K, (action))

/* The 32-bit halves of argument `index`; little-endian on both architectures here. */
#define ARG_LOW(index) (offsetof(struct seccomp_data, args) + 8 * (index))
#define ARG_HIGH(index) (offsetof(struct seccomp_data, args) + 8 * (index) + 4)
_Static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__, "the argument halves assume little-endian");

static uint32_t action(verdict verdict) {
    switch (verdict.kind) {
    case VERDICT_ALLOW: return SECCOMP_RET_ALLOW;
    case VERDICT_FAIL: return SECCOMP_RET_ERRNO | (verdict.error & SECCOMP_RET_DATA);
    default: return SECCOMP_RET_TRAP;
    }
}

static int by_number(const void *left, const void *right) {
    uint32_t a = (*(const rule *const *)left)->nr, b = (*(const rule *const *)right)->nr;
    return a < b ? -1 : a > b;
}

/* The search over sorted[low, high), with the number loaded. */
static void emit_search(filter_builder *builder, const rule **sorted, size_t low, size_t high) {
    if (high - low <= 4) {
        for (size_t i = low; i < high; i++) {
            emit(builder, JUMP(BPF_JMP | BPF_JEQ | BPF_K, sorted[i]->nr, 0, 1));
            if (sorted[i]->when[0].then.kind == VERDICT_NONE) {
                emit(builder, RETURN(action(sorted[i]->otherwise)));
            } else {
                builder->tests_jump[sorted[i] - policy] = emit(builder, JUMP_ALWAYS());
            }
        }
        emit(builder, RETURN(SECCOMP_RET_TRAP));
        return;
    }
    size_t middle = low + (high - low) / 2;
    /* Numbers at or above the middle one take the jump past the lower half.
     * An unconditional jump reaches anywhere; a conditional one only 255 ahead. */
    emit(builder, JUMP(BPF_JMP | BPF_JGE | BPF_K, sorted[middle]->nr, 0, 1));
    unsigned to_upper = emit(builder, JUMP_ALWAYS());
    emit_search(builder, sorted, low, middle);
    land_here(builder, to_upper);
    emit_search(builder, sorted, middle, high);
}

/* One rule's clauses, top to bottom; each falls through to the next when its test fails. */
static void emit_tests(filter_builder *builder, const rule *rule) {
    for (int i = 0; i < PB_MAX_CLAUSES && rule->when[i].then.kind != VERDICT_NONE; i++) {
        const clause *clause = &rule->when[i];
        uint32_t pass = action(clause->then);
        switch (clause->test) {
        case TEST_EQUALS:
        case TEST_OWN_PID:
            emit(builder, LOAD(ARG_LOW(clause->arg)));
            emit(builder, JUMP(BPF_JMP | BPF_JEQ | BPF_K, clause->test == TEST_OWN_PID ? builder->own_pid : clause->value, 0, 1));
            break;
        case TEST_HAS_BITS:
            emit(builder, LOAD(ARG_LOW(clause->arg)));
            emit(builder, STATEMENT(BPF_ALU | BPF_AND | BPF_K, clause->value));
            emit(builder, JUMP(BPF_JMP | BPF_JEQ | BPF_K, clause->value, 0, 1));
            break;
        case TEST_NULL:
            emit(builder, LOAD(ARG_LOW(clause->arg)));
            emit(builder, JUMP(BPF_JMP | BPF_JEQ | BPF_K, 0, 0, 3));
            emit(builder, LOAD(ARG_HIGH(clause->arg)));
            emit(builder, JUMP(BPF_JMP | BPF_JEQ | BPF_K, 0, 0, 1));
            break;
        default:
            builder->overflow = 1; /* A test this file does not know: a mistake above. */
        }
        emit(builder, RETURN(pass));
    }
    emit(builder, RETURN(action(rule->otherwise)));
}

static void build_filter(filter_builder *builder) {
    const rule *sorted[PB_RULE_COUNT];
    for (size_t i = 0; i < PB_RULE_COUNT; i++) sorted[i] = &policy[i];
    qsort(sorted, PB_RULE_COUNT, sizeof sorted[0], by_number);
    for (size_t i = 1; i < PB_RULE_COUNT; i++) {
        if (sorted[i]->nr == sorted[i - 1]->nr) builder->overflow = 1; /* Listed twice: a mistake above. */
    }

    /* A system call of another ABI (i386 through int 0x80, x32, AArch32) has
     * other numbers: nothing below would mean what it says. Kill. */
    emit(builder, LOAD(offsetof(struct seccomp_data, arch)));
    emit(builder, JUMP(BPF_JMP | BPF_JEQ | BPF_K, PB_AUDIT_ARCH, 1, 0));
    emit(builder, RETURN(SECCOMP_RET_KILL_PROCESS));
    emit(builder, LOAD(offsetof(struct seccomp_data, nr)));
#if defined(__x86_64__)
    emit(builder, JUMP(BPF_JMP | BPF_JGE | BPF_K, 0x40000000u /* __X32_SYSCALL_BIT */, 0, 1));
    emit(builder, RETURN(SECCOMP_RET_KILL_PROCESS));
#endif
    emit_search(builder, sorted, 0, PB_RULE_COUNT);
    for (size_t i = 0; i < PB_RULE_COUNT; i++) {
        if (policy[i].when[0].then.kind == VERDICT_NONE) continue;
        land_here(builder, builder->tests_jump[i]);
        emit_tests(builder, &policy[i]);
    }
}

/* SIGSYS from the filter: note the call and make it fail with EPERM. Only
 * atomics and the interrupted thread's registers: async-signal-safe. */
static void on_refused_call(int signal, siginfo_t *info, void *context) {
    (void)signal;
    if (info->si_code != SYS_SECCOMP) return; /* raised by hand: nothing to answer */
    uint32_t none = 0;
    atomic_compare_exchange_strong_explicit(&first_refused, &none, (uint32_t)info->si_syscall + 1, memory_order_relaxed, memory_order_relaxed);
    atomic_fetch_add_explicit(&refused_count, 1, memory_order_relaxed);
    ucontext_t *interrupted = context;
#if defined(__x86_64__)
    interrupted->uc_mcontext.gregs[REG_RAX] = -EPERM;
#else
    interrupted->uc_mcontext.regs[0] = (unsigned long long)-EPERM;
#endif
}

void pb_sandbox_apply_seccomp(uint32_t own_pid, pb_sandbox_report *report) {
    report->seccomp_arch = PB_AUDIT_ARCH;
    struct sigaction handler;
    memset(&handler, 0, sizeof handler);
    handler.sa_sigaction = on_refused_call;
    handler.sa_flags = SA_SIGINFO;
    sigemptyset(&handler.sa_mask);
    if (sigaction(SIGSYS, &handler, NULL) != 0) {
        report->seccomp_errno = errno;
        return;
    }
    static filter_builder builder;
    memset(&builder, 0, sizeof builder);
    builder.own_pid = own_pid;
    build_filter(&builder);
    if (builder.overflow) {
        report->seccomp_errno = E2BIG;
        return;
    }
    report->seccomp_instructions = builder.length;
    struct sock_fprog program = {.len = (unsigned short)builder.length, .filter = builder.code};
    long result = syscall(__NR_seccomp, SECCOMP_SET_MODE_FILTER, SECCOMP_FILTER_FLAG_TSYNC, &program);
    if (result != 0) {
        /* A positive result is the id of a thread that could not be synchronised. */
        report->seccomp_errno = result > 0 ? ESRCH : errno;
        return;
    }
    report->applied |= PB_SANDBOX_SECCOMP;
}

void pb_sandbox_probe_seccomp(pb_sandbox_report *report) {
    report->seccomp_arch = PB_AUDIT_ARCH;
    /* The kernel answers whether it could return SECCOMP_RET_TRAP: EINVAL
     * or ENOSYS when it has no seccomp filters at all. */
    uint32_t trap = SECCOMP_RET_TRAP;
    if (syscall(__NR_seccomp, SECCOMP_GET_ACTION_AVAIL, 0, &trap) == 0) {
        report->applied |= PB_SANDBOX_SECCOMP;
    } else {
        report->seccomp_errno = errno == ENOSYS ? EINVAL : errno;
    }
}

#else

void pb_sandbox_probe_seccomp(pb_sandbox_report *report) {
    report->seccomp_arch = 0;
    report->seccomp_errno = ENOSYS;
}

void pb_sandbox_apply_seccomp(uint32_t own_pid, pb_sandbox_report *report) {
    /* No list is written for this architecture; claim nothing. */
    (void)own_pid;
    report->seccomp_arch = 0;
    report->seccomp_errno = ENOSYS;
}

#endif /* PB_AUDIT_ARCH */
