/*
 * patchbay_main_actor.h — whether the calling code runs on the main actor,
 * for Patchbay's main-actor registrations.
 *
 * Swift's `MainActor.assumeIsolated` stops the program off the main actor,
 * and the main actor is not always the main thread (a test runner may drain
 * it elsewhere). The concurrency runtime knows which executor is current;
 * its entry point, which `assumeIsolated` calls with the flag that makes a
 * "no" fatal, is called here with no flags, so that it answers instead.
 */
#ifndef PATCHBAY_MAIN_ACTOR_H
#define PATCHBAY_MAIN_ACTOR_H

#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The runtime's SerialExecutorRef: an executor's identity and its witness
 * table with kind bits, the two words of Swift's UnownedSerialExecutor. */
typedef struct {
    void *_Nullable identity;
    uintptr_t implementation;
} pb_serial_executor_ref;

/* Defined by the Swift concurrency runtime (libswift_Concurrency), with the
 * Swift calling convention. Flags 0: answer false rather than stop. */
extern __attribute__((swiftcall)) bool swift_task_isCurrentExecutorWithFlags(
    pb_serial_executor_ref executor, uint64_t flags);

/* True if the executor whose two words are given is the current one. */
static inline bool pb_is_current_executor(uintptr_t identity, uintptr_t implementation) {
    pb_serial_executor_ref executor = {(void *)identity, implementation};
    return swift_task_isCurrentExecutorWithFlags(executor, 0);
}

#ifdef __cplusplus
}
#endif

#endif /* PATCHBAY_MAIN_ACTOR_H */
